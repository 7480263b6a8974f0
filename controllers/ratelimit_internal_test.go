package controllers

import (
	"fmt"
	"testing"
	"time"
)

func TestTheLimiterCountsPerClientAndForgets(t *testing.T) {
	now := time.Unix(0, 0)
	l := newAuthLimiter(AuthLimits{Window: time.Minute, SlowAfter: 1, BlockAfter: 3, Step: time.Second, MaxDelay: 5 * time.Second})
	l.now = func() time.Time { return now }
	if d := l.failed("a"); d != 0 {
		t.Fatalf("first failure delayed %v", d)
	}
	if d := l.failed("a"); d != time.Second {
		t.Fatalf("second failure delayed %v, want 1s", d)
	}
	l.failed("a")
	if l.blocked("a") != time.Minute || l.blocked("b") != 0 {
		t.Fatalf("blocked a=%v b=%v", l.blocked("a"), l.blocked("b"))
	}
	now = now.Add(30 * time.Second)
	if l.blocked("a") != 30*time.Second {
		t.Fatalf("after 30s a waits %v", l.blocked("a"))
	}
	now = now.Add(31 * time.Second)
	if l.blocked("a") != 0 {
		t.Fatal("a is still blocked after the window")
	}
	for i := 0; i < maxTrackedClients+10; i++ {
		l.failed(fmt.Sprint(i))
		if i == maxTrackedClients/2 {
			now = now.Add(2 * time.Minute) // the first half expires
		}
	}
	if len(l.clients) > maxTrackedClients {
		t.Fatalf("%d clients tracked, bound is %d", len(l.clients), maxTrackedClients)
	}
}

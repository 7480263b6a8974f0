package throttle

import (
	"fmt"
	"testing"
	"time"
)

func TestTheThrottleCountsBySubjectAndClientAndForgets(t *testing.T) {
	now := time.Unix(0, 0)
	th := New(Limits{Window: time.Minute, SlowAfter: 1, BlockAfter: 3, Step: time.Second, MaxDelay: 5 * time.Second,
		ClientBlockAfter: 10, SubjectBlockAfter: 5})
	th.now = func() time.Time { return now }
	if d := th.Failed("admin", "a"); d != 0 {
		t.Fatalf("first failure delayed %v", d)
	}
	if d := th.Failed("admin", "a"); d != time.Second {
		t.Fatalf("second failure delayed %v, want 1s", d)
	}
	th.Failed("admin", "a")
	if th.Wait("admin", "a") != time.Minute || th.Wait("admin", "b") != 0 || th.Wait("editor", "a") != 0 {
		t.Fatalf("waits: admin@a %v, admin@b %v, editor@a %v", th.Wait("admin", "a"), th.Wait("admin", "b"), th.Wait("editor", "a"))
	}
	th.Succeeded("editor", "a")
	if th.Wait("admin", "a") == 0 {
		t.Fatal("a success on another subject reset the count")
	}
	now = now.Add(30 * time.Second)
	if th.Wait("admin", "a") != 30*time.Second {
		t.Fatalf("after 30s a waits %v", th.Wait("admin", "a"))
	}
	now = now.Add(31 * time.Second)
	if th.Wait("admin", "a") != 0 {
		t.Fatal("still refused after the window")
	}
	t.Run("a subject failed from many clients", func(t *testing.T) {
		for i := 0; i < 5; i++ {
			th.Failed("post:7", fmt.Sprint("c", i))
		}
		if th.Wait("post:7", "c0") == 0 || th.Wait("post:7", "fresh") != 0 {
			t.Fatalf("c0 waits %v, a fresh client %v", th.Wait("post:7", "c0"), th.Wait("post:7", "fresh"))
		}
	})
	t.Run("a client failing on many subjects", func(t *testing.T) {
		for i := 0; i < 10; i++ {
			th.Failed(fmt.Sprint("login:", i), "sprayer")
		}
		if th.Wait("anything", "sprayer") == 0 {
			t.Fatal("the sprayer may go on")
		}
	})
	t.Run("the memory it holds is bounded", func(t *testing.T) {
		for i := 0; i < maxThrottled+10; i++ {
			th.Failed("s", fmt.Sprint(i))
			if i == maxThrottled/4 {
				now = now.Add(2 * time.Minute) // the first quarter expires
			}
		}
		if n := th.counts.Len(); n > maxThrottled {
			t.Fatalf("%d counts kept, bound is %d", n, maxThrottled)
		}
	})
}

// TestAFloodOfNewFailuresLiftsNoBlock: failures from a hundred thousand
// fresh addresses on fresh accounts (three new counts each) push the oldest
// counts out, but not a refusal in force: an attacker cannot make the
// throttle forget whom it refuses.
func TestAFloodOfNewFailuresLiftsNoBlock(t *testing.T) {
	now := time.Unix(0, 0)
	th := New(Limits{})
	th.now = func() time.Time { return now }
	for range DefaultLimits.BlockAfter {
		th.Failed("login:admin", "attacker")
	}
	for i := range DefaultLimits.ClientBlockAfter {
		th.Failed(fmt.Sprint("login:", i), "sprayer")
	}
	for i := range maxThrottled {
		th.Failed(fmt.Sprint("login:x", i), fmt.Sprint("10.", i))
	}
	if th.Wait("login:admin", "attacker") == 0 || th.Wait("login:anyone", "sprayer") == 0 {
		t.Fatalf("after the flood: the attacker waits %v, the sprayer %v; want both refused",
			th.Wait("login:admin", "attacker"), th.Wait("login:anyone", "sprayer"))
	}
	if n := th.counts.Len(); n > maxThrottled {
		t.Fatalf("%d counts kept, bound is %d", n, maxThrottled)
	}
	if th.Wait("login:admin", "owner") != 0 {
		t.Fatal("the owner is refused")
	}
}

// TestTheDefaultLimitsAreTheDocumentedOnes pins the numbers the Limits
// table (docs/limits.md) states for wrong passwords.
func TestTheDefaultLimitsAreTheDocumentedOnes(t *testing.T) {
	start := time.Unix(0, 0)
	now := start
	th := New(Limits{})
	th.now = func() time.Time { return now }
	for i := 1; i <= 20; i++ {
		if w := th.Wait("admin", "a"); w != 0 {
			t.Fatalf("try %d refused (wait %v)", i, w)
		}
		want := time.Duration(max(0, i-5)) * 100 * time.Millisecond
		if d := th.Failed("admin", "a"); d != want {
			t.Fatalf("failure %d held %v, want %v", i, d, want)
		}
		now = now.Add(time.Second)
	}
	if w := th.Wait("admin", "a"); w != start.Add(time.Minute).Sub(now) {
		t.Fatalf("after the 20th: wait %v, want the rest of the minute from the first", w)
	}
	if th.Wait("admin", "b") != 0 || th.Wait("editor", "a") != 0 {
		t.Fatal("the refusal reached another address or account")
	}
	now = start.Add(time.Minute)
	if th.Wait("admin", "a") != 0 {
		t.Fatal("still refused once the minute has ended")
	}

	t.Run("100 from one address on any accounts", func(t *testing.T) {
		th := New(Limits{})
		for i := 0; i < 99; i++ {
			th.Failed(fmt.Sprint("login:", i), "sprayer")
		}
		if th.Wait("fresh", "sprayer") != 0 {
			t.Fatal("refused after 99")
		}
		th.Failed("login:99", "sprayer")
		if th.Wait("fresh", "sprayer") == 0 {
			t.Fatal("not refused after 100")
		}
	})
	t.Run("100 on one account from any addresses", func(t *testing.T) {
		th := New(Limits{})
		for i := 0; i < 100; i++ {
			th.Failed("admin", fmt.Sprint("bot", i))
		}
		if th.Wait("admin", "bot0") == 0 || th.Wait("admin", "owner") != 0 {
			t.Fatalf("a bot waits %v, the owner %v", th.Wait("admin", "bot0"), th.Wait("admin", "owner"))
		}
	})
}

package main

import (
	"testing"
	"time"
)

// These tests start processes, kill them and wait for what must follow. They
// wait as long as the test binary allows (go test's -timeout), never a fixed
// number of seconds: a busy machine makes them slower, not red, and a hang
// still fails, saying what never came.

// patience is when a test stops waiting: shortly before the binary's deadline,
// leaving room to report.
func patience(t *testing.T) time.Time {
	if deadline, ok := t.Deadline(); ok {
		return deadline.Add(-20 * time.Second)
	}
	return time.Now().Add(10 * time.Minute)
}

// waitFor polls cond until it holds; past patience it fails with what
// describes the wait.
func waitFor(t *testing.T, cond func() bool, what func() string) {
	t.Helper()
	deadline := patience(t)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting: %s", what())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// long marks a test left out of the edit-test loop (go test -short): the
// walks over every route, caller and value, the races, the crashes and the
// waits for timeouts. The whole suite (go test -race ./...) runs them.
func long(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("long: left out of -short; the whole suite runs it")
	}
}

package main

import (
	"context"
	"errors"
	"io"
	"maps"
	"strings"
	"sync"
	"syscall"
	"testing"
)

// serveInProcess runs the service in this process with settings, on a free
// loopback port it sets as CALENDAR_ADDR, and returns once it answers
// /readyz. A port that another test process took between being chosen and
// being bound is chosen again; a service that stops before it is ready
// fails the test at once, with its logs, instead of being waited for until
// go test's -timeout. stop ends it gracefully and returns what run
// returned; the test's cleanup stops it if the test did not, and reports an
// error of that stop.
// slowMachineSearchBudget is the search budget of the services the tests
// start: on a machine loaded twentyfold a list under 200 clients took past
// the default 5 s and answered 503 search_timeout. A busy machine must make
// the suite slower, not red; the budget's own answer has its own tests.
const slowMachineSearchBudget = "CALENDAR_SEARCH_BUDGET=2m"

func serveInProcess(t *testing.T, settings map[string]string, logs io.Writer) (addr string, stop func() error) {
	t.Helper()
	const attempts = 5
	for attempt := 1; ; attempt++ {
		addr = freeAddr(t)
		withAddr := maps.Clone(settings)
		withAddr["CALENDAR_ADDR"] = addr
		if _, set := withAddr["CALENDAR_SEARCH_BUDGET"]; !set {
			name, value, _ := strings.Cut(slowMachineSearchBudget, "=")
			withAddr[name] = value
		}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() { done <- run(ctx, nil, env(withAddr), logs) }()
		var early error
		stopped := false
		waitFor(t, func() bool {
			select {
			case early = <-done:
				stopped = true
				return true
			default:
				return ready(addr)
			}
		}, func() string { return addr + " to get ready" })
		if !stopped {
			var once sync.Once
			var err error
			stop = func() error {
				once.Do(func() { cancel(); err = <-done })
				return err
			}
			t.Cleanup(func() {
				if err := stop(); err != nil {
					t.Errorf("run: %v", err)
				}
			})
			return addr, stop
		}
		cancel()
		if !errors.Is(early, syscall.EADDRINUSE) || attempt == attempts {
			t.Fatalf("the service stopped before it was ready (attempt %d on %s): %v", attempt, addr, early)
		}
	}
}

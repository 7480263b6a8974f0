package main

import (
	"context"
	"testing"
	"time"

	"calendar/cmd/internal/loadgen"
)

// TestTwoHundredClientsMixingReadsAndWritesSeeNoErrorAndLoseNothing is the
// bounded load run: the service in a child process, 200 clients in this one on
// loopback, a few seconds of mixed reads and writes; then every acknowledged
// write must be readable and listed. docs/reliability.md has the long run.
func TestTwoHundredClientsMixingReadsAndWritesSeeNoErrorAndLoseNothing(t *testing.T) {
	t.Parallel()
	long(t)
	if testing.Short() {
		t.Skip("load run; not in -short")
	}
	dir := t.TempDir()
	c := startChild(t, dir, freeAddr(t))
	// The run and each request wait as long as the test binary allows: on a
	// busy machine (four copies of the suite at once) writes waited past 30
	// seconds, which is slowness, not an error.
	ctx, cancel := context.WithDeadline(context.Background(), patience(t))
	defer cancel()
	rep, err := loadgen.Run(ctx, loadgen.Config{BaseURL: "http://" + c.addr, Login: "admin",
		Password: childPassword, Clients: 200, Duration: 2 * time.Second, MinWrites: 200, Seed: 7,
		RequestTimeout: time.Until(patience(t))})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d requests (%.0f/s), %d acknowledged writes, latency %+v", rep.Requests, rep.PerSecond, rep.Acknowledged, rep.Latency)
	if rep.Errors > 0 {
		t.Errorf("%d errors, e.g. %q", rep.Errors, rep.ErrorSamples)
	}
	if rep.Acknowledged < 200 {
		t.Errorf("only %d acknowledged writes: the run did not write enough to prove anything", rep.Acknowledged)
	}
	if len(rep.Lost) > 0 {
		t.Errorf("%d acknowledged writes lost, e.g. %q", len(rep.Lost), rep.Lost[:min(len(rep.Lost), 10)])
	}
	c.stop(t)
	verifyIndexMatchesStore(t, dir)
}

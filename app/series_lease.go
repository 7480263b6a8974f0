package app

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"time"

	"calendar/app/calendar"
)

// Work on a series' occurrences (making them, extending, shortening,
// rewriting them after an edit) is done under the series' lease, taken and
// given back by compare-and-swap writes of the series record itself, so two
// such jobs never interleave, on one replica or on several sharing a store.
// A write of a leased series by anyone else waits for the lease to end and
// then applies to the series as the job left it. A job that does not finish
// (a crash, a store that went away) leaves its lease to expire; the next
// extension pass sees it and brings the occurrences in line again.

const (
	// leaseTTL is how long a lease holds without renewal; a job renews it
	// after a third of it, so only a stopped job's lease expires.
	leaseTTL = 30 * time.Second
	// maxLeaseWait is how long a write waits for another's lease to end
	// before it is answered 409.
	maxLeaseWait = 45 * time.Second
)

// Leases are timed by the wall clock, never by Settings.Now: tests move the
// latter by months to see series extended.
var leaseClock = time.Now

// leaseLive reports whether the lease still holds.
func leaseLive(l *calendar.Lease) bool {
	return l != nil && l.Holder != "" && leaseClock().Before(l.Until)
}

// leaseUnfinished reports whether a job left the series without finishing.
func leaseUnfinished(l *calendar.Lease) bool { return l != nil && !leaseLive(l) }

func newLeaseToken() string {
	b := make([]byte, 12)
	_, _ = rand.Read(b) // crypto/rand never fails on supported platforms
	return hex.EncodeToString(b)
}

func leaseFor(token string) *calendar.Lease {
	return &calendar.Lease{Holder: token, Until: leaseClock().Add(leaseTTL)}
}

var errLeaseTaken = errors.New("the series is leased to another job")

func errSeriesBusy() *calendar.Error {
	return calendar.NewError(calendar.KindConflict, "rest_conflict", "The series is being rewritten by another request; try again.")
}

// awaitLease waits, while the post is leased to another job than mine, for
// that lease to end (or expire), reading the post again meanwhile; p is
// left as last read. With noWait it answers errLeaseTaken at once instead.
func (s *postService) awaitLease(ctx context.Context, p *calendar.Post, mine string, noWait bool) error {
	deadline := leaseClock().Add(maxLeaseWait)
	for wait := 5 * time.Millisecond; leaseLive(p.Lease) && p.Lease.Holder != mine; wait = min(2*wait, 200*time.Millisecond) {
		if noWait {
			return errLeaseTaken
		}
		if leaseClock().After(deadline) {
			return errSeriesBusy()
		}
		if err := pause(ctx, wait); err != nil {
			return err
		}
		fresh, err := s.store.Posts().Get(ctx, p.ID)
		if err != nil {
			return err
		}
		*p = *fresh
	}
	return nil
}

// seriesJob is one hold of a series' lease: the series as the job holds it,
// and the slot of heavy work it runs in (release gives it back).
type seriesJob struct {
	*Events
	token   string
	series  *calendar.Post
	renewed time.Time
	release func()
	// made counts the occurrences the job stored, which the account that
	// wrote the series spends from its allowance (series_quota.go).
	made int
}

// startJob takes the lease of a series with a write that applies change
// (nil: none) as well; with noWait a series leased to another is
// errLeaseTaken, else the write waits for that lease. w's other terms
// (precondition, modification time) are the caller's.
func (s *Events) startJob(ctx context.Context, series *calendar.Post, w postWrite, noWait bool, change func(*calendar.Post) error) (*seriesJob, error) {
	job := &seriesJob{Events: s, token: newLeaseToken(), series: series, release: func() {}}
	w.lease, w.noWait = job.token, noWait
	err := s.edit(ctx, series, w, func(p *calendar.Post) error {
		if change != nil {
			if err := change(p); err != nil {
				return err
			}
		}
		p.Lease = leaseFor(job.token)
		return nil
	})
	job.renewed = leaseClock()
	return job, err
}

// job returns the job whose lease a write just took (its token), after
// the index caught up: the occurrences another replica made are found.
// A job's context is its caller's without the cancellation: a client that
// hangs up does not stop it half-way.
func (s *Events) job(ctx context.Context, series *calendar.Post, token string) (*seriesJob, error) {
	job := &seriesJob{Events: s, token: token, series: series, renewed: leaseClock(), release: func() {}}
	return job, job.work(ctx)
}

// work readies a job for work on many occurrences: a slot of heavy work,
// then an index caught up with every replica's writes.
func (j *seriesJob) work(ctx context.Context) error {
	release, err := j.takeHeavy(ctx)
	if err != nil {
		return err
	}
	j.release = release
	return j.sync.catchUp(ctx)
}

// keep renews the lease once a third of it has passed, and ends the job
// when the lease is no longer its own (it expired and another took it).
func (j *seriesJob) keep(ctx context.Context) error {
	if leaseClock().Sub(j.renewed) < leaseTTL/3 {
		return nil
	}
	err := j.edit(ctx, j.series, postWrite{keepModified: true, lease: j.token, noWait: true}, func(p *calendar.Post) error {
		if p.Lease == nil || p.Lease.Holder != j.token {
			return errLeaseTaken
		}
		p.Lease = leaseFor(j.token)
		return nil
	})
	j.renewed = leaseClock()
	return err
}

// finish gives the lease back with a last write of the series (change,
// nil: none); after a failed job (failed != nil) the lease is left as
// unfinished, so the next extension pass reconciles the series, and
// failed is returned.
func (j *seriesJob) finish(ctx context.Context, failed error, change func(*calendar.Post)) error {
	defer j.release()
	err := j.edit(ctx, j.series, postWrite{keepModified: true, lease: j.token}, func(p *calendar.Post) error {
		if p.Lease == nil || p.Lease.Holder != j.token {
			return errUnchanged // expired and taken over: the other job finishes it
		}
		if failed != nil {
			p.Lease = &calendar.Lease{}
			return nil
		}
		if change != nil {
			change(p)
		}
		p.Lease = nil
		return nil
	})
	if errors.Is(err, calendar.ErrNotFound) {
		err = nil // deleted meanwhile: nothing to give back
	}
	if failed != nil {
		return failed
	}
	return err
}

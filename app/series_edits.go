package app

import (
	"context"
	"errors"
	"reflect"
	"slices"
	"strings"
	"time"

	"calendar/app/calendar"
)

// How writes of a series or of one of its occurrences keep the two in step,
// each under the series' lease (series_lease.go).

// editEvent is edit for an event: when the event is or was a series, the
// same write takes its lease, and its occurrences are brought in line
// after it; an occurrence that leaves its series (moved out, trashed) has
// its start excluded there.
func (s *Events) editEvent(ctx context.Context, p *calendar.Post, w postWrite, change func(*calendar.Post) error) error {
	token := newLeaseToken()
	w.lease = token
	var before *calendar.Post
	err := s.edit(ctx, p, w, func(cur *calendar.Post) error {
		before = clonePost(cur)
		if err := change(cur); err != nil {
			return err
		}
		if isSeries(before) || isSeries(cur) {
			cur.Lease = leaseFor(token)
		}
		return nil
	})
	if err != nil || before == nil || p.Seq == before.Seq {
		return err // refused, or nothing to write
	}
	return s.afterEventWrite(ctx, before, p, token, w.spender)
}

// afterEventWrite keeps series and occurrences in step after a write of an
// event: an occurrence moved out or trashed leaves its start excluded; a
// series (or an event that stopped being one), whose lease the write took,
// has its occurrences reconciled with it, then gives the lease back.
func (s *Events) afterEventWrite(ctx context.Context, before, p *calendar.Post, token string, spender *calendar.User) error {
	ctx = context.WithoutCancel(ctx) // the write is done: its bookkeeping must be too (see job)
	if before.Parent != 0 && (p.Parent != before.Parent || p.Status == calendar.StatusTrash && before.Status != calendar.StatusTrash) {
		if err := s.leaveSeries(ctx, before); err != nil {
			return err
		}
	}
	if !isSeries(p) && !isSeries(before) {
		return nil
	}
	job, err := s.job(ctx, p, token)
	if err == nil && isSeries(before) && !p.Start.Equal(before.Start) {
		err = job.moveSlots(ctx, before)
	}
	until := p.MaterializedUntil
	if err == nil {
		until, err = job.reconcile(ctx)
	}
	spent := s.quota.spend(ctx, spender, job.made)
	return errors.Join(job.finish(ctx, err, func(p *calendar.Post) { p.MaterializedUntil = until }), spent)
}

// reconcile brings the occurrences in line with the series as the job
// holds it, whatever they were before (so a job that stopped half-way is
// finished by the next): those still to come that its rules no longer give
// go; the others that were not edited on their own take its fields (past
// ones keep their schedule); occurrences at starts it excludes go, unless
// edited on their own or trashed; then the missing ones are made. It
// returns how far they are made.
func (j *seriesJob) reconcile(ctx context.Context) (time.Time, error) {
	series := j.series
	occurrences, err := j.occurrences(ctx, series.ID)
	if err != nil {
		return series.MaterializedUntil, err
	}
	now := j.now()
	given, err := j.futureStarts(occurrences, now)
	if err != nil {
		return series.MaterializedUntil, err
	}
	for _, o := range occurrences {
		if err := j.keep(ctx); err != nil {
			return series.MaterializedUntil, err
		}
		excluded := slices.ContainsFunc(series.Excluded, o.Occurrence.Equal)
		switch {
		case o.Detached:
		case excluded && o.Status == calendar.StatusTrash:
		case excluded || o.Occurrence.After(now) && o.Status != calendar.StatusTrash && !given[o.Occurrence.Unix()]:
			err = j.dropOccurrence(ctx, o)
		default:
			err = j.rewriteOccurrence(ctx, o, now)
		}
		if err != nil {
			return series.MaterializedUntil, err
		}
	}
	if !isSeries(series) {
		return time.Time{}, nil
	}
	return j.materialize(ctx, series.Start)
}

// futureStarts are the starts the series' rules give after now, as far as
// its occurrences reach (none when it no longer recurs).
func (j *seriesJob) futureStarts(occurrences []*calendar.Post, now time.Time) (map[int64]bool, error) {
	given := map[int64]bool{}
	if !isSeries(j.series) {
		return given, nil
	}
	last := now
	for _, o := range occurrences {
		if o.Occurrence.After(last) {
			last = o.Occurrence
		}
	}
	zone := j.eventZone(j.series)
	r, err := parseRecurrence(j.series.Recurrence, zone)
	if err != nil {
		return nil, err
	}
	starts, err := r.between(j.series.Start, now, last, zone, 2*MaxOccurrencesAhead+len(occurrences))
	for _, t := range starts {
		given[t.Unix()] = true
	}
	return given, err
}

// dropOccurrence deletes an occurrence the series no longer gives, unless
// meanwhile it was edited on its own or left the series.
func (j *seriesJob) dropOccurrence(ctx context.Context, o *calendar.Post) error {
	return j.discard(ctx, o, postWrite{}, func(cur *calendar.Post) error {
		if cur.Detached || cur.Parent != j.series.ID {
			return errUnchanged
		}
		return nil
	})
}

// rewriteOccurrence gives an occurrence the series' fields (a past one
// keeps its schedule), unless meanwhile it was edited on its own or left
// the series, or it has them already.
func (j *seriesJob) rewriteOccurrence(ctx context.Context, o *calendar.Post, now time.Time) error {
	err := j.edit(ctx, o, postWrite{}, func(cur *calendar.Post) error {
		if cur.Detached || cur.Parent != j.series.ID {
			return errUnchanged
		}
		fresh := j.occurrenceAt(j.series, cur.Occurrence)
		fresh.ID, fresh.Seq, fresh.CreatedSeq, fresh.Slug = cur.ID, cur.Seq, cur.CreatedSeq, cur.Slug
		fresh.Date, fresh.DateUTC, fresh.Modified = cur.Date, cur.DateUTC, cur.Modified
		if !cur.Occurrence.After(now) {
			fresh.Start, fresh.End = cur.Start, cur.End
		}
		if samePost(fresh, cur) {
			return errUnchanged
		}
		*cur = *fresh
		return nil
	})
	return ignoreMissing(err)
}

// samePost compares two posts field by field, an empty list or map equal
// to none and instants by the instant, as the store keeps them.
func samePost(a, b *calendar.Post) bool {
	va, vb := reflect.ValueOf(a).Elem(), reflect.ValueOf(b).Elem()
	for i := range va.NumField() {
		if !va.Type().Field(i).IsExported() {
			continue
		}
		x, y := va.Field(i), vb.Field(i)
		switch x.Kind() {
		case reflect.Slice, reflect.Map:
			if x.Len() == 0 && y.Len() == 0 {
				continue
			}
		}
		if t, ok := x.Interface().(time.Time); ok {
			if !t.Equal(y.Interface().(time.Time)) {
				return false
			}
			continue
		}
		if ts, ok := x.Interface().([]time.Time); ok {
			if !slices.EqualFunc(ts, y.Interface().([]time.Time), time.Time.Equal) {
				return false
			}
			continue
		}
		if !reflect.DeepEqual(x.Interface(), y.Interface()) {
			return false
		}
	}
	return true
}

// leaveSeries records that an occurrence no longer stands for its start in
// its series (trashed, deleted, or moved out of it), under the series'
// lease: the start is excluded, and an occurrence a job made again at that
// start meanwhile goes.
func (s *Events) leaveSeries(ctx context.Context, o *calendar.Post) error {
	if o.Parent == 0 {
		return nil
	}
	ctx = context.WithoutCancel(ctx)
	series, err := s.store.Posts().Get(ctx, o.Parent)
	if errors.Is(err, calendar.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	job, err := s.startJob(ctx, series, postWrite{}, false, func(p *calendar.Post) error {
		if !slices.ContainsFunc(p.Excluded, o.Occurrence.Equal) {
			p.Excluded = append(p.Excluded, o.Occurrence)
		}
		return nil
	})
	if errors.Is(err, calendar.ErrNotFound) {
		return nil
	}
	if err == nil {
		err = s.sync.catchUp(ctx)
	}
	if err == nil {
		err = job.dropStrays(ctx, o)
	}
	return job.finish(ctx, err, nil)
}

// dropStrays deletes the occurrences at left's start but left itself that
// were neither edited on their own nor trashed.
func (j *seriesJob) dropStrays(ctx context.Context, left *calendar.Post) error {
	occurrences, err := j.occurrences(ctx, j.series.ID)
	for _, o := range occurrences {
		if err != nil {
			break
		}
		if o.ID != left.ID && o.Occurrence.Equal(left.Occurrence) && !o.Detached && o.Status != calendar.StatusTrash {
			err = j.dropOccurrence(ctx, o)
		}
	}
	return err
}

// applySeries writes the sent rules and post_parent onto an event being
// saved, and checks them: a series is never an occurrence, post_parent names
// a series the caller may edit, and an occurrence edited through the API is
// detached from its series' edits. When a series' start moves, the starts
// its exclusions stand for move with it, by the same local time.
func (s *Events) applySeries(ctx context.Context, actor *calendar.User, before, p *calendar.Post, in *eventInput) error {
	if p.Parent != 0 {
		p.Detached = true
	}
	if in.recurrence != nil {
		p.Recurrence = nil
		for _, line := range *in.recurrence {
			if line = strings.TrimSpace(line); line != "" {
				p.Recurrence = append(p.Recurrence, line)
			}
		}
	}
	if in.parent != nil && *in.parent != p.Parent {
		parent := *in.parent
		switch {
		case parent == 0:
			p.Parent, p.Occurrence, p.Detached = 0, time.Time{}, false
		case parent == p.ID:
			return calendar.ErrInvalidParam("post_parent", "an event cannot be its own series.")
		case isSeries(p):
			return calendar.ErrInvalidParam("post_parent", "a series cannot be an occurrence of another.")
		default:
			series, err := s.store.Posts().Get(ctx, parent)
			if err != nil || series.Type != calendar.PostTypeEvent || !isSeries(series) || !canEdit(actor, series) {
				return calendar.ErrInvalidParam("post_parent", "post_parent must be the ID of a series (an event with recurrence) you may edit.")
			}
			p.Parent, p.Occurrence, p.Detached = parent, p.Start, true
		}
	}
	if before != nil && isSeries(before) && !p.Start.Equal(before.Start) {
		move := s.slotMover(before, p)
		for i, t := range p.Excluded {
			p.Excluded[i] = move(t)
		}
	}
	return s.checkSeries(p)
}

// slotMover moves a start of a series by as much local time as its first
// start moved.
func (s *Events) slotMover(before, series *calendar.Post) func(time.Time) time.Time {
	zone := s.eventZone(series)
	shift := calendar.WallClock(series.Start, zone).Sub(calendar.WallClock(before.Start, zone))
	return func(t time.Time) time.Time { return fromNaive(calendar.WallClock(t, zone).Add(shift), zone) }
}

// moveSlots: when a series' start moves, the starts its exceptions stand
// for (those edited on their own, those trashed) move with it, as its
// exclusions did in the same write, so the occurrences made again do not
// come back beside them.
func (j *seriesJob) moveSlots(ctx context.Context, before *calendar.Post) error {
	move := j.slotMover(before, j.series)
	occurrences, err := j.occurrences(ctx, j.series.ID)
	if err != nil {
		return err
	}
	for _, o := range occurrences {
		if !o.Detached && o.Status != calendar.StatusTrash {
			continue
		}
		from := o.Occurrence
		err := j.edit(ctx, o, postWrite{keepModified: true}, func(cur *calendar.Post) error {
			if cur.Parent != j.series.ID || !cur.Occurrence.Equal(from) {
				return errUnchanged
			}
			cur.Occurrence = move(from)
			return nil
		})
		if err := ignoreMissing(err); err != nil {
			return err
		}
	}
	return nil
}

// trashAll trashes every occurrence of a series being trashed, those
// edited on their own included.
func (j *seriesJob) trashAll(ctx context.Context) error {
	occurrences, err := j.occurrences(ctx, j.series.ID)
	for _, o := range occurrences {
		if err != nil {
			break
		}
		if err = j.keep(ctx); err == nil {
			err = ignoreMissing(j.edit(ctx, o, postWrite{}, func(cur *calendar.Post) error {
				if cur.Status == calendar.StatusTrash || cur.Parent != j.series.ID {
					return errUnchanged
				}
				cur.Status = calendar.StatusTrash
				return nil
			}))
		}
	}
	return err
}

// removeAll deletes every occurrence of a series deleted for good.
func (s *Events) removeAll(ctx context.Context, series *calendar.Post) error {
	occurrences, err := s.occurrences(ctx, series.ID)
	for _, o := range occurrences {
		if err != nil {
			break
		}
		err = s.discard(ctx, o, postWrite{}, func(cur *calendar.Post) error {
			if cur.Parent != series.ID {
				return errUnchanged
			}
			return nil
		})
	}
	return err
}

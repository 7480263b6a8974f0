package app

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"sync"
	"time"

	"calendar/app/calendar"
	"calendar/app/strtotime"
)

// A series is an event with recurrence rules. Its further occurrences are
// events of their own (Parent: the series), made over a rolling horizon, so
// that every list, search, facet, feed and count sees them as events. An
// occurrence edited on its own is detached (an exception) and left alone by
// edits of the series; one trashed or deleted leaves its start excluded.

func isSeries(p *calendar.Post) bool { return len(p.Recurrence) > 0 }

// madeStatuses are those of the series whose occurrences are made: a draft
// or pending series (a contributor's, say) has none until it is published,
// so one write cannot make a thousand events no one has let through.
var madeStatuses = []string{calendar.StatusPublish, calendar.StatusFuture, calendar.StatusPrivate}

func publishable(status string) bool { return slices.Contains(madeStatuses, status) }

// checkSeries reads a series' rules against its start and zone, or refuses
// them naming what is wrong; an occurrence cannot have rules of its own.
func (s *Events) checkSeries(p *calendar.Post) error {
	if !isSeries(p) {
		return nil
	}
	if p.Parent != 0 {
		return calendar.ErrInvalidParam("recurrence", "an occurrence of a series cannot recur itself; edit its series.")
	}
	zone := s.eventZone(p)
	r, err := parseRecurrence(p.Recurrence, zone)
	if err == nil {
		err = r.check(p.Start, zone)
	}
	if err != nil {
		return calendar.ErrInvalidParam("recurrence", "recurrence: "+err.Error()+".")
	}
	return nil
}

// occurrenceAt is the series moved to start at t (a start its rules give, in
// its zone's local time): it lasts as long in local time, so an evening class
// stays 20:00 to 22:00 across DST changes and a two-day festival two days.
func (s *Events) occurrenceAt(series *calendar.Post, t time.Time) *calendar.Post {
	zone := s.eventZone(series)
	o := *series
	o.ID, o.Seq, o.CreatedSeq, o.Slug = 0, 0, 0, ""
	o.Recurrence, o.Excluded, o.MaterializedUntil, o.Lease, o.Imported = nil, nil, time.Time{}, nil, nil
	o.Parent, o.Occurrence, o.Detached = series.ID, t.UTC(), false
	o.PreviousStart = nil // the series' own move, not this occurrence's
	o.Categories, o.Tags, o.Organizers = slices.Clone(series.Categories), slices.Clone(series.Tags), slices.Clone(series.Organizers)
	o.Cost = slices.Clone(series.Cost)
	o.Custom = clonePost(series).Custom
	length := calendar.WallClock(series.End, zone).Sub(calendar.WallClock(series.Start, zone))
	o.Start = fromNaive(calendar.WallClock(t, zone), zone)
	o.End = fromNaive(calendar.WallClock(t, zone).Add(length), zone)
	if series.Status == calendar.StatusTrash {
		o.Status = calendar.StatusTrash
	}
	return &o
}

// fromNaive turns a local time written as if in UTC (calendar.WallClock,
// which local times are added to and compared as, without the zone's
// changes) back into an instant.
func fromNaive(n time.Time, zone *time.Location) time.Time {
	return strtotime.WallClock(n.Year(), int(n.Month()), n.Day(), n.Hour(), n.Minute(), n.Second(), zone).UTC()
}

func dayNumber(t time.Time) int64 {
	return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC).Unix() / 86400
}

// occurrences are the series' occurrence events, of every status.
func (s *Events) occurrences(ctx context.Context, seriesID int64) ([]*calendar.Post, error) {
	return s.findPosts(ctx, calendar.PostQuery{Type: calendar.PostTypeEvent, Parent: &seriesID})
}

// materialize makes the occurrences the rules give after from, as far as
// the horizon: those to come first, nearest first, at most
// MaxOccurrencesAhead ahead of now; then, while the pass has made fewer
// than MaxOccurrencesAhead in all, past ones, latest first, back to
// SeriesHorizon ago at most. So one write or one pass makes at most that
// many whatever the rule (a daily series from 2000 makes two years ahead
// and the latest of the past, not 10,000), and a second pass at the same
// moment makes nothing. A start that has an occurrence already (of any
// status) or is excluded is skipped, and so is one within a minute of the
// start before it. It returns how far the occurrences to come are made.
// Two replicas doing it at once make each occurrence once: its slug is
// derived from its start, and the store refuses a second one.
func (j *seriesJob) materialize(ctx context.Context, from time.Time) (time.Time, error) {
	series := j.series
	if !publishable(series.Status) {
		return series.MaterializedUntil, nil // made once it is published: a draft costs no one a thousand events
	}
	zone := j.eventZone(series)
	r, err := parseRecurrence(series.Recurrence, zone)
	if err != nil {
		return series.MaterializedUntil, err
	}
	existing, err := j.occurrences(ctx, series.ID)
	if err != nil {
		return series.MaterializedUntil, err
	}
	now := j.now()
	taken := map[int64]bool{series.Start.Unix(): true}
	ahead := 0
	for _, o := range existing {
		taken[o.Occurrence.Unix()] = true
		if o.Occurrence.After(now) {
			ahead++
		}
	}
	for _, t := range series.Excluded {
		taken[t.Unix()] = true
	}
	until := now.Add(SeriesHorizon)
	limit := MaxOccurrencesAhead + len(taken)
	future, err := r.between(series.Start, laterOf(from, now), until, zone, limit)
	if err != nil {
		return series.MaterializedUntil, err
	}
	if len(future) == limit { // more to come: the next extension goes on from the last
		until = future[len(future)-1]
	}
	made := 0
	makeAll := func(starts []time.Time) error {
		var batch []time.Time
		for i, t := range starts {
			if taken[t.Unix()] || i > 0 && absDuration(t.Sub(starts[i-1])) < minOccurrenceGap {
				continue
			}
			taken[t.Unix()] = true
			batch = append(batch, t)
		}
		for len(batch) > 0 {
			n := min(len(batch), insertTogether)
			if err := j.keep(ctx); err != nil {
				return err
			}
			if err := j.insertOccurrences(ctx, batch[:n]); err != nil {
				return err
			}
			made += n
			j.made += n
			batch = batch[n:]
		}
		return nil
	}
	for i, t := range future {
		if ahead+i >= MaxOccurrencesAhead {
			until = t.Add(-time.Second)
			future = future[:i]
			break
		}
	}
	if err := makeAll(future); err != nil {
		return series.MaterializedUntil, err
	}
	if from.Before(now) && made < MaxOccurrencesAhead {
		past, err := j.pastStarts(r, laterOf(from, now.Add(-SeriesHorizon)), now, MaxOccurrencesAhead-made, taken)
		if err == nil {
			err = makeAll(past)
		}
		if err != nil {
			return series.MaterializedUntil, err
		}
	}
	return until.UTC().Truncate(time.Second), nil
}

// insertTogether is how many occurrences a job stores at once: their
// writes share the store's commits and the index's batches (a thousand
// one by one cost a thousand fsyncs and a thousand segments to merge).
const insertTogether = 32

// insertOccurrences stores the occurrences at these starts side by side.
func (j *seriesJob) insertOccurrences(ctx context.Context, starts []time.Time) error {
	errs := make([]error, len(starts))
	var wg sync.WaitGroup
	for i, t := range starts {
		wg.Go(func() { errs[i] = j.insertOccurrence(ctx, j.series, j.occurrenceAt(j.series, t)) })
	}
	wg.Wait()
	return errors.Join(errs...)
}

// pastStarts are at most n of the latest starts the rules give in
// (floor, now] that are not taken, latest first: found over a window that
// grows back from now, so a dense rule is not expanded over all its past.
func (j *seriesJob) pastStarts(r *rules, floor, now time.Time, n int, taken map[int64]bool) ([]time.Time, error) {
	zone := j.eventZone(j.series)
	for span := 7 * 24 * time.Hour; ; span *= 4 {
		from := laterOf(floor, now.Add(-span))
		starts, err := r.between(j.series.Start, from, now, zone, maxCheckedStarts)
		if err != nil {
			return nil, err
		}
		starts = slices.DeleteFunc(starts, func(t time.Time) bool { return taken[t.Unix()] })
		if len(starts) >= n || !from.After(floor) {
			slices.Reverse(starts)
			return starts[:min(n, len(starts))], nil
		}
	}
}

func absDuration(d time.Duration) time.Duration {
	if d < 0 {
		return -d
	}
	return d
}

// insertOccurrence stores an occurrence under the slug its start gives:
// <series slug>-<date>, with -<time> when it is not at the series' time of
// day, then -2, -3... up to -20 when another event has it, then a random
// suffix (other events holding those slugs cost a few tries, never the
// series). A slug taken by this very occurrence means another replica made
// it.
func (s *Events) insertOccurrence(ctx context.Context, series, o *calendar.Post) error {
	zone := s.eventZone(series)
	local, first := o.Occurrence.In(zone), series.Start.In(zone)
	base := series.Slug + "-" + local.Format("2006-01-02")
	if local.Format("150405") != first.Format("150405") {
		base += "-" + local.Format("1504")
	}
	for n, attempts := 1, 0; n <= 28 && attempts < 48; attempts++ {
		o.Slug = base
		switch {
		case n > 20:
			o.Slug += "-" + randomSuffix()
		case n > 1:
			o.Slug += "-" + strconv.Itoa(n)
		}
		o.ID, o.Seq = 0, 0
		err := s.insertAs(ctx, o)
		if !errors.Is(err, calendar.ErrConflict) {
			return err
		}
		holder, err := s.store.Posts().FindByKey(ctx, "type_slug", calendar.PostTypeEvent+"/"+o.Slug)
		switch {
		case errors.Is(err, calendar.ErrNotFound):
			// the conflict was not the slug's (an ID a concurrent insert
			// took): the same slug again
		case err != nil:
			return err
		case holder.Parent == series.ID && holder.Occurrence.Equal(o.Occurrence):
			return nil
		default:
			n++ // another event has the slug
		}
	}
	return calendar.ErrConflict
}

// ExtendSeries makes the occurrences of every series up to the horizon, as
// time passes, and reconciles the occurrences of every series whose last
// job did not finish; a series whose lease another job holds is left to
// it. Each series is one job of its own: one that fails is reported and
// tried again on the next pass, and the others go on. It reports how many
// series it extended or reconciled.
func (s *Events) ExtendSeries(ctx context.Context) (int, error) {
	series, err := s.findPosts(ctx, calendar.PostQuery{Type: calendar.PostTypeEvent, SeriesOnly: true})
	if err != nil {
		return 0, err
	}
	horizon := s.now().Add(SeriesHorizon - 24*time.Hour)
	n := 0
	var failed []error
	for _, p := range series {
		unfinished := leaseUnfinished(p.Lease)
		if !unfinished && (!publishable(p.Status) || !p.MaterializedUntil.Before(horizon)) {
			continue
		}
		job, err := s.startJob(ctx, p, postWrite{keepModified: true}, true, nil)
		if errors.Is(err, errLeaseTaken) || errors.Is(err, calendar.ErrNotFound) {
			continue // another job has it, or it is gone
		}
		until := p.MaterializedUntil
		if err == nil {
			err = job.work(ctx)
		}
		if err == nil && unfinished {
			until, err = job.reconcile(ctx)
		} else if err == nil {
			until, err = job.materialize(ctx, p.MaterializedUntil)
		}
		if err = job.finish(ctx, err, func(p *calendar.Post) { p.MaterializedUntil = until }); err != nil {
			failed = append(failed, fmt.Errorf("series %d: %w", p.ID, err))
			continue
		}
		n++
	}
	return n, errors.Join(failed...)
}

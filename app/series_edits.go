package app

import (
	"context"
	"errors"
	"slices"
	"strings"
	"time"
)

// How writes of a series or of one of its occurrences keep the two in step.

// afterSeriesWrite brings the occurrences in line with a series just saved:
// when its dates, zone or rules changed, the occurrences still to come that
// were not edited on their own are made again from the new rules; the
// others (and all of them otherwise) take its other fields.
func (s *Events) afterSeriesWrite(ctx context.Context, series *Post, scheduleChanged bool) error {
	occurrences, err := s.occurrences(ctx, series.ID)
	if err != nil {
		return err
	}
	now := s.now()
	for _, o := range occurrences {
		if o.Detached {
			continue
		}
		if (scheduleChanged || !isSeries(series)) && o.Occurrence.After(now) && o.Status != StatusTrash {
			if err := s.remove(ctx, o); err != nil {
				return err
			}
			continue
		}
		if slices.ContainsFunc(series.Excluded, o.Occurrence.Equal) {
			continue // trashed on its own: it stays so
		}
		fresh := s.occurrenceAt(series, o.Occurrence)
		fresh.ID, fresh.Seq, fresh.CreatedSeq, fresh.Slug = o.ID, o.Seq, o.CreatedSeq, o.Slug
		fresh.Start, fresh.End = o.Start, o.End // past ones keep the schedule they had
		if err := s.save(ctx, fresh); err != nil {
			return err
		}
	}
	if !isSeries(series) {
		return nil
	}
	return s.materialize(ctx, series, series.Start)
}

// leaveSeries records that an occurrence no longer stands for its start in
// its series: trashed, deleted, or moved out of it.
func (s *Events) leaveSeries(ctx context.Context, o *Post) error {
	if o.Parent == 0 {
		return nil
	}
	series, err := s.store.Posts().Get(ctx, o.Parent)
	if errors.Is(err, ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	if !slices.ContainsFunc(series.Excluded, o.Occurrence.Equal) {
		series.Excluded = append(series.Excluded, o.Occurrence)
		return s.save(ctx, series)
	}
	return nil
}

// applySeries writes the sent rules and post_parent onto an event being
// saved, and checks them: a series is never an occurrence, post_parent names
// a series the caller may edit, and an occurrence edited through the API is
// detached from its series' edits.
func (s *Events) applySeries(ctx context.Context, actor *User, p *Post, in *eventInput) error {
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
			return ErrInvalidParam("post_parent", "an event cannot be its own series.")
		case isSeries(p):
			return ErrInvalidParam("post_parent", "a series cannot be an occurrence of another.")
		default:
			series, err := s.store.Posts().Get(ctx, parent)
			if err != nil || series.Type != PostTypeEvent || !isSeries(series) || !canEdit(actor, series) {
				return ErrInvalidParam("post_parent", "post_parent must be the ID of a series (an event with recurrence) you may edit.")
			}
			p.Parent, p.Occurrence, p.Detached = parent, p.Start, true
		}
	}
	return s.checkSeries(p)
}

// afterEventWrite keeps series and occurrences in step after an update:
// an occurrence moved out leaves its start excluded; a series (or an event
// that stopped being one) updates its occurrences.
func (s *Events) afterEventWrite(ctx context.Context, before, p *Post) error {
	if before.Parent != 0 && (p.Parent != before.Parent || p.Status == StatusTrash && before.Status != StatusTrash) {
		if err := s.leaveSeries(ctx, before); err != nil {
			return err
		}
	}
	if !isSeries(p) && !isSeries(before) {
		return nil
	}
	changed := !p.Start.Equal(before.Start) || !p.End.Equal(before.End) || p.TimeZone != before.TimeZone ||
		p.AllDay != before.AllDay || !slices.Equal(p.Recurrence, before.Recurrence)
	if isSeries(before) && !p.Start.Equal(before.Start) {
		if err := s.moveSlots(ctx, before, p); err != nil {
			return err
		}
	}
	return s.afterSeriesWrite(ctx, p, changed)
}

// moveSlots: when a series' start moves, the starts its exceptions stand
// for (excluded ones, those edited on their own) move with it, by the same
// local time, so the occurrences made again do not come back beside them.
func (s *Events) moveSlots(ctx context.Context, before, series *Post) error {
	zone := s.eventZone(series)
	shift := naive(series.Start, zone).Sub(naive(before.Start, zone))
	move := func(t time.Time) time.Time { return fromNaive(naive(t, zone).Add(shift), zone) }
	for i, t := range series.Excluded {
		series.Excluded[i] = move(t)
	}
	occurrences, err := s.occurrences(ctx, series.ID)
	if err != nil {
		return err
	}
	for _, o := range occurrences {
		if o.Detached || o.Status == StatusTrash {
			o.Occurrence = move(o.Occurrence)
			if err := s.rewrite(ctx, o); err != nil {
				return err
			}
		}
	}
	return nil
}

// afterEventDelete: a trashed or deleted occurrence leaves its start
// excluded; a trashed or deleted series takes all its occurrences along.
func (s *Events) afterEventDelete(ctx context.Context, p *Post, force bool) error {
	if !isSeries(p) {
		return s.leaveSeries(ctx, p)
	}
	occurrences, err := s.occurrences(ctx, p.ID)
	if err != nil {
		return err
	}
	for _, o := range occurrences {
		switch {
		case force:
			err = s.remove(ctx, o)
		case o.Status != StatusTrash:
			o.Status = StatusTrash
			err = s.save(ctx, o)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

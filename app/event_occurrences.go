package app

import (
	"context"

	"calendar/app/calendar"
)

// Occurrences answers GET /events/<id>/occurrences: the events of one series
// (itself, its first occurrence, and the others) as the event list answers
// f (its window, pages, statuses and other filters, under the caller's read
// rule). An event that is not a series, or that the caller may not read, is
// 404 rest-event-not-series: which events recur is not told to those who may
// not read them. What it costs is a list's: a page of at most MaxPerPage
// events, found by the index under the searches' time budget; a series has
// at most MaxOccurrencesAhead occurrences to come.
func (s *Events) Occurrences(ctx context.Context, caller Caller, ref PostRef, f EventFilter) (*Page[EventView], error) {
	ctx = searchingAs(ctx, caller)
	series, err := s.loadEvent(ctx, caller.User, ref)
	if err != nil {
		return nil, err
	}
	if !isSeries(series) || series.Parent != 0 || !calendar.CanRead(caller.User, series) {
		return nil, itemErrors.notSeries(series.ID)
	}
	f.Parent, f.Include, f.HideSubsequentRecurrences = nil, nil, false
	q, near, err := s.listQuery(ctx, caller, f)
	if err != nil {
		return nil, err
	}
	q.Series = &series.ID
	return s.listPage(ctx, caller, f, q, near)
}

package app

import (
	"context"
	"errors"
	"slices"

	"calendar/app/calendar"
)

// A subscription's filter is the query string of the events list, read by
// the list's own reader (its parameters' contract, lent by the routes) and
// made into the list's index query as its owner's list would make it
// (listQuery: terms and linked posts resolved, the owner's read rule), but
// for every date the filter does not bound (no default window). Paging,
// order, facets, highlights and a password do not filter. An event matches
// when that query, narrowed to the event, finds it.

var errNoFilterReader = errors.New("webhook filters are read by the events list's routes, which are not mounted")

// filterQuery is the index query of a filter, read as the owner's list
// would read it; a filter the list would refuse is refused alike.
func (s *Webhooks) filterQuery(ctx context.Context, owner *calendar.User, filter string) (calendar.PostQuery, error) {
	if s.routes.ReadFilter == nil {
		return calendar.PostQuery{}, errNoFilterReader
	}
	f, err := s.routes.ReadFilter(filter)
	if err != nil {
		return calendar.PostQuery{}, err
	}
	f.AllDates, f.Page, f.Facets, f.Highlight, f.Password = true, PageRequest{}, nil, false, ""
	q, _, err := s.events.listQuery(ctx, Caller{User: owner, Root: s.routes.APIRoot}, f)
	return q, err
}

// matches reports whether the filter's query finds the event (its include=,
// when it has one, must name it).
func (s *Webhooks) matches(ctx context.Context, q calendar.PostQuery, id int64) (bool, error) {
	found, err := s.matching(ctx, q, []int64{id})
	return found[id], err
}

// matching is which of the events ids the filter's query finds, each as
// matches would find it alone: one query for them all, or one each when the
// filter shows a series once (an occurrence asked alone is always its
// series' first; asked with another of its series, it might not be).
func (s *Webhooks) matching(ctx context.Context, q calendar.PostQuery, ids []int64) (map[int64]bool, error) {
	found := map[int64]bool{}
	if q.IDs != nil {
		ids = slices.DeleteFunc(slices.Clone(ids), func(id int64) bool { return !slices.Contains(q.IDs, id) })
	}
	q.Offset, q.Facets, q.GeoGrid = 0, nil, 0
	ask := func(ids []int64) error {
		q.IDs, q.Limit = ids, len(ids)
		page, err := s.index.SearchPosts(ctx, q)
		for _, id := range page.IDs {
			found[id] = true
		}
		return err
	}
	if !q.OncePerSeries {
		if len(ids) == 0 {
			return found, nil
		}
		return found, ask(ids)
	}
	for _, id := range ids {
		if err := ask([]int64{id}); err != nil {
			return found, err
		}
	}
	return found, nil
}

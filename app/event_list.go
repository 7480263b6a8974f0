package app

import (
	"context"

	"calendar/app/calendar"
)

// List answers GET /events through the index.
func (s *Events) List(ctx context.Context, caller Caller, f EventFilter) (*Page[EventView], error) {
	ctx = searchingAs(ctx, caller)
	q, near, err := s.listQuery(ctx, caller, f)
	if err != nil {
		return nil, err
	}
	return s.listPage(ctx, caller, f, q, near)
}

// listPage answers one page of q, the index query of f, as the event list
// does.
func (s *Events) listPage(ctx context.Context, caller Caller, f EventFilter, q calendar.PostQuery, near *nearMe) (*Page[EventView], error) {
	page, perPage := s.paging(f.Page)
	q.Offset, q.Limit = (page-1)*perPage, perPage
	found, err := s.searchFaceted(ctx, q)
	if err != nil {
		return nil, err
	}
	if len(found.IDs) == 0 && page > 1 {
		return nil, calendar.NewError(calendar.KindNotFound, "event-archive-page-not-found", "The requested event archive page does not exist")
	}
	events, err := s.store.Posts().GetMany(ctx, found.IDs)
	if err != nil {
		return nil, err
	}
	items, err := s.render(ctx, caller, events, f.Password, false)
	if err != nil {
		return nil, err
	}
	if near != nil {
		if err := placeEvents(ctx, s.store.Posts(), events); err != nil {
			return nil, err
		}
		for i, e := range events {
			if v, ok := items[i].Venue.(VenueView); ok && v.GeoLat != nil { // shown only where the venue shows it
				items[i].Distance = near.distance(e.VenueGeo)
			}
		}
	}
	if f.Highlight && f.Search != nil {
		s.highlight(q, items)
	}
	answer := newPage(items, page, perPage, found.Total)
	if q.Facets != nil {
		if answer.Facets, err = s.facets(ctx, caller.User, q.Facets, found.Facets); err != nil {
			return nil, err
		}
	}
	if found.Grid != nil {
		answer.Grid = newGeoGrid(q.GeoGrid, found.Grid)
	}
	if q.Days != nil {
		answer.Days = newDayCounts(*q.Days, found.Days)
	}
	return answer, nil
}

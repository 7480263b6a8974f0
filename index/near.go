package index

import (
	"context"
	"strconv"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/search/query"

	"calendar/app/calendar"
)

// maxNearVenues bounds the venues a near-me event search names one by one;
// beyond it the events' own positions are searched.
const maxNearVenues = 1024

// nearClause is the clause of q.Near (nil without one). An event's position
// is its venue's, so the events near a point are those of the venues near it:
// the distance is computed for the few venues, and the events are found by
// their venue term, which bleve answers from bitmaps, where a distance clause
// on the events checks the position of every event in the cells it touches.
func (i *Index) nearClause(ctx context.Context, q calendar.PostQuery) (query.Query, error) {
	if q.Near == nil {
		return nil, nil
	}
	distance := geoDistance(*q.Near)
	if q.Type != calendar.PostTypeEvent {
		return distance, nil
	}
	// An event is where its venue is only when anyone may read the venue
	// (a protected one has no position in the index at all): the events of
	// a draft or private venue tell nobody where it is.
	req := bleve.NewSearchRequestOptions(bleve.NewConjunctionQuery(term(fieldType, calendar.PostTypeVenue),
		term(fieldStatus, calendar.StatusPublish), distance), maxNearVenues, 0, false)
	req.Score = "none"
	res, err := i.search(ctx, req)
	if err != nil {
		return nil, err
	}
	if res.Total > maxNearVenues {
		return distance, nil
	}
	venues := make([]string, len(res.Hits))
	for n, h := range res.Hits {
		venues[n] = h.ID
	}
	return anyOf(fieldVenue, venues), nil
}

func geoDistance(near calendar.GeoNear) query.Query {
	g := bleve.NewGeoDistanceQuery(near.Lng, near.Lat, strconv.FormatFloat(near.Km, 'f', -1, 64)+"km")
	g.SetField(fieldGeo)
	return g
}

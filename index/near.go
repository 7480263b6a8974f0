package index

import (
	"context"
	"strconv"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/search/query"

	"calendar/app/calendar"
)

// maxNearVenues bounds the venues a near-me or map event search names one by
// one; beyond it the events' own positions are searched.
const maxNearVenues = 1024

// placeClause is the clause of q.Near and q.Within (nil without either). An
// event's position is its venue's, so the events near a point or in a box are
// those of the venues there: the positions checked are the few venues', and
// the events are found by their venue term, which bleve answers from bitmaps,
// where a position clause on the events checks the position of every event in
// the cells it touches.
func (i *Index) placeClause(ctx context.Context, q calendar.PostQuery) (query.Query, error) {
	var where []query.Query
	if q.Near != nil {
		where = append(where, geoDistance(*q.Near))
	}
	if q.Within != nil {
		where = append(where, geoBox(*q.Within))
	}
	if len(where) == 0 {
		return nil, nil
	}
	position := where[0]
	if len(where) > 1 {
		position = bleve.NewConjunctionQuery(where...)
	}
	if q.Type != calendar.PostTypeEvent {
		return position, nil
	}
	// An event is where its venue is only while the venue's position is
	// public (calendar.PublicPosition, which its place says): the events
	// of a draft, private or protected venue tell nobody where it is.
	public := bleve.NewBooleanQuery()
	public.AddMust(term(fieldType, calendar.PostTypeVenue), position)
	public.AddMustNot(term(fieldPlace, calendar.NoPosition))
	req := bleve.NewSearchRequestOptions(public, maxNearVenues, 0, false)
	req.Score = "none"
	res, err := i.search(ctx, req)
	if err != nil {
		return nil, err
	}
	if res.Total > maxNearVenues {
		return position, nil
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

// geoBox is the box as bleve takes it: its north-west and south-east
// corners; a west east of the east crosses the antimeridian, as bleve reads it.
func geoBox(b calendar.GeoBox) query.Query {
	g := bleve.NewGeoBoundingBoxQuery(b.West, b.North, b.East, b.South)
	g.SetField(fieldGeo)
	return g
}

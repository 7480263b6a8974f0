package index

import (
	"context"
	"sort"

	"github.com/blevesearch/bleve/v2/geo"
	"github.com/blevesearch/bleve/v2/numeric"
	"github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/query"

	"calendar/app/calendar"
)

// A map's clusters: the matches of a query that have a position, counted per
// geohash cell (bleve's geohash, cut to the precision asked for), with the
// mean of their positions. Bleve has no aggregation but its term facets,
// which count values and sum nothing, so the matches are walked here and each
// one's position read from the doc values the order by distance reads too.
// Events share their venue's position, so they are first counted per point
// (a few thousand venues for any number of events), then the points per cell.

// checkDoneEvery is how many matches are walked between looks at the context
// (the search's time budget), as bleve's own collector does.
const checkDoneEvery = 1024

// geoGrid counts the matches of q (near stands for its position clause) per
// cell of q.GeoGrid characters.
func (i *Index) geoGrid(ctx context.Context, q calendar.PostQuery, near query.Query) (*calendar.GeoGrid, error) {
	points, err := i.matchedPoints(ctx, q, near)
	if err != nil {
		return nil, err
	}
	type sums struct {
		count    int
		lat, lng float64
	}
	cells := map[string]*sums{}
	for hash, count := range points {
		lat, lng := geo.MortonUnhashLat(hash), geo.MortonUnhashLon(hash)
		cell := geo.EncodeGeoHash(lat, lng)[:q.GeoGrid]
		s := cells[cell]
		if s == nil {
			s = &sums{}
			cells[cell] = s
		}
		s.count += count
		s.lat += lat * float64(count)
		s.lng += lng * float64(count)
	}
	grid := &calendar.GeoGrid{Cells: make([]calendar.GeoCell, 0, len(cells))}
	for hash, s := range cells {
		grid.Cells = append(grid.Cells, calendar.GeoCell{Geohash: hash, Count: s.count, Lat: s.lat / float64(s.count), Lng: s.lng / float64(s.count)})
	}
	sort.Slice(grid.Cells, func(a, b int) bool {
		x, y := grid.Cells[a], grid.Cells[b]
		return x.Count > y.Count || x.Count == y.Count && x.Geohash < y.Geohash
	})
	if len(grid.Cells) > calendar.MaxGeoCells {
		for _, c := range grid.Cells[calendar.MaxGeoCells:] {
			grid.Omitted++
			grid.OmittedPosts += c.Count
		}
		grid.Cells = grid.Cells[:calendar.MaxGeoCells]
	}
	return grid, nil
}

// matchedPoints counts the matches of q that have a position per position
// (its morton hash, as bleve keeps it), within the context's time.
func (i *Index) matchedPoints(ctx context.Context, q calendar.PostQuery, near query.Query) (map[uint64]int, error) {
	advanced, err := i.bleve.Advanced()
	if err != nil {
		return nil, err
	}
	reader, err := advanced.Reader()
	if err != nil {
		return nil, err
	}
	defer reader.Close()
	located := q
	if located.HasGeo == nil { // no need to walk the matches without a position
		yes := true
		located.HasGeo = &yes
	}
	searcher, err := i.matching(located, near).Searcher(withTermBudget(ctx), reader, i.bleve.Mapping(), search.SearcherOptions{Score: "none"})
	if err != nil {
		return nil, err
	}
	defer searcher.Close()
	values, err := reader.DocValueReader([]string{fieldGeo})
	if err != nil {
		return nil, err
	}
	sctx := &search.SearchContext{DocumentMatchPool: search.NewDocumentMatchPool(searcher.DocumentMatchPoolSize()+1, 0), IndexReader: reader}
	points := map[uint64]int{}
	for n := 0; ; n++ {
		if n%checkDoneEvery == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		match, err := searcher.Next(sctx)
		if err != nil {
			return nil, err
		}
		if match == nil {
			return points, nil
		}
		var point uint64
		found := false
		// A point is kept as several terms, one per precision; the full one
		// has no shift.
		err = values.VisitDocValues(match.IndexInternalID, func(field string, term []byte) {
			if valid, shift := numeric.ValidPrefixCodedTermBytes(term); !found && valid && shift == 0 {
				if v, err := numeric.PrefixCoded(term).Int64(); err == nil {
					point, found = uint64(v), true
				}
			}
		})
		sctx.DocumentMatchPool.Put(match)
		if err != nil {
			return nil, err
		}
		if found {
			points[point]++
		}
	}
}

package index

import (
	"context"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/search/query"

	"calendar/app/calendar"
)

// Sorting matches by start reads the sort key of every match from its doc
// value chunk, a compressed block that is decoded anew for nearly every match:
// at 100,000 events the default list (45,000 matches) spent 21 ms sorting,
// against 5 ms to find and count them. So a list by start counts its matches
// (no doc value read), then sorts only those in a window of starts just wide
// enough to hold the page: every match in it precedes every match after it,
// so its first Offset+Limit matches are the list's. The cost of a page no
// longer grows with the number of matches.

// maxWindows bounds the windows tried before sorting every match.
const maxWindows = 6

// assumedSpan stands for the range of starts when the query does not bound it.
const assumedSpan = 3 * 365 * 24 * time.Hour

// startWindowed: lists by start from a known first start, no score to rank by.
func startWindowed(q calendar.PostQuery) bool {
	return q.Order == calendar.OrderStart && q.Relevance == "" && q.StartAfter != nil && q.Limit > 0
}

func (i *Index) searchStartWindows(ctx context.Context, q calendar.PostQuery, near query.Query) (calendar.PostPage, error) {
	count := q
	count.Offset, count.Limit = 0, 0
	res, err := i.searchQuery(ctx, count, near)
	if err != nil {
		return calendar.PostPage{}, err
	}
	page, err := pageOf(res, q.Facets)
	if err != nil || q.Offset >= page.Total {
		return page, err
	}
	sorted := q
	sorted.Facets = nil
	need := q.Offset + q.Limit
	from := q.StartAfter.T
	last := lastStart(q)
	span := assumedSpan
	if last != nil {
		span = last.Sub(from)
	}
	// As wide as twice the page if the matches were spread evenly.
	width := max(time.Duration(float64(span)*float64(2*need)/float64(page.Total)), time.Minute)
	for try := 0; try < maxWindows && need < page.Total; try++ {
		end := from.Add(width)
		if last != nil && !end.Before(*last) {
			break
		}
		window := sorted
		window.StartBefore = &calendar.Bound{T: end} // before any StartBefore: end is before last
		if res, err = i.searchQuery(ctx, window, near); err != nil {
			return calendar.PostPage{}, err
		}
		if int(res.Total) >= need {
			return withIDs(page, res)
		}
		grow := 8.0
		if res.Total > 0 {
			grow = max(2, 2*float64(need)/float64(res.Total))
		}
		width = time.Duration(float64(width) * grow)
	}
	if res, err = i.searchQuery(ctx, sorted, near); err != nil {
		return calendar.PostPage{}, err
	}
	return withIDs(page, res)
}

// lastStart is the latest start the query allows, when it bounds it: an
// event ends after it starts, so an upper bound on the end bounds the start.
func lastStart(q calendar.PostQuery) *time.Time {
	var last *time.Time
	for _, b := range []*calendar.Bound{q.StartBefore, q.EndBefore} {
		if b != nil && (last == nil || b.T.Before(*last)) {
			last = &b.T
		}
	}
	return last
}

// withIDs is page (its total and facets) with the IDs of res's hits.
func withIDs(page calendar.PostPage, res *bleve.SearchResult) (calendar.PostPage, error) {
	ids, err := pageOf(res, nil)
	page.IDs = ids.IDs
	return page, err
}

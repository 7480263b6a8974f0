package index

import (
	"context"
	"errors"
	"testing"
	"time"

	"calendar/app/calendar"
)

// An index of a mapping version before the events' UTC times and the
// names' words serves while its successor is built, but per-day counts in
// a zone are not its to answer: 503 index_building, where the events' own
// days are counted as ever; and it counts a facet search's facet as
// facets= does (the caller picks the names among its most frequent
// values), where a newer index counts the values named so. The counts
// themselves are app's (app/days_test.go) and facetsearch_test.go's.
func TestAnIndexWithoutUTCTimesOrNamesAnswersAsBefore(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, c := range []struct {
		version int
		older   bool
	}{{utcDaysFrom - 1, true}, {utcDaysFrom, false}} {
		idx, err := OpenVersions(t.TempDir(), Versions{Mapping: c.version, ServesFrom: c.version})
		if err != nil {
			t.Fatal(err)
		}
		start := time.Date(2027, 3, 3, 18, 0, 0, 0, time.UTC)
		event := &calendar.Post{ID: 1, Type: calendar.PostTypeEvent, Status: calendar.StatusPublish, Title: "Choir", Start: start, End: start.Add(2 * time.Hour), TimeZone: "UTC", Venue: 2}
		hall := &calendar.Post{ID: 2, Type: calendar.PostTypeVenue, Status: calendar.StatusPublish, Title: "Choir Hall"}
		if err := idx.PutPosts(ctx, []*calendar.Post{event, hall}); err != nil {
			t.Fatal(err)
		}
		searched, err := idx.SearchPosts(ctx, calendar.PostQuery{Type: calendar.PostTypeEvent, Facets: []string{calendar.FacetVenue}, FacetSearch: "organ"})
		if values := searched.Facets[calendar.FacetVenue]; err != nil || len(values) != map[bool]int{true: 1, false: 0}[c.older] {
			t.Errorf("version %d, a facet search of a name no value has: %v, %v", c.version, values, err)
		}
		span := calendar.DaySpan{First: time.Date(2027, 3, 1, 0, 0, 0, 0, time.UTC), Count: 5}
		own, err := idx.SearchPosts(ctx, calendar.PostQuery{Type: calendar.PostTypeEvent, Days: &span})
		if err != nil || len(own.Days) != 5 || own.Days[2] != 1 {
			t.Fatalf("version %d, the events' own days: %v, %v", c.version, own.Days, err)
		}
		span.Zone = "Pacific/Auckland"
		zoned, err := idx.SearchPosts(ctx, calendar.PostQuery{Type: calendar.PostTypeEvent, Days: &span})
		var e *calendar.Error
		switch refused := errors.As(err, &e) && e.Kind == calendar.KindUnavailable && e.Code == "index_building" && e.RetryAfter > 0; {
		case refused != c.older:
			t.Errorf("version %d, days in a zone: %v, %v; want refused %v", c.version, zoned.Days, err, c.older)
		case !refused && (err != nil || zoned.Days[3] != 1): // 07:00 on the 4th in Auckland
			t.Errorf("version %d, days in Auckland: %v, %v", c.version, zoned.Days, err)
		}
		if err := idx.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

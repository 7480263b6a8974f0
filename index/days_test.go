package index

import (
	"context"
	"errors"
	"testing"
	"time"

	"calendar/app/calendar"
)

// An index of a mapping version before the events' UTC times serves while
// its successor is built, but per-day counts in a zone are not its to
// answer: 503 index_building, where the events' own days are counted as
// ever. The counts themselves are app's (app/days_test.go).
func TestAnIndexWithoutUTCTimesAnswersDaysInAZone503(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, c := range []struct {
		version int
		refused bool
	}{{utcDaysFrom - 1, true}, {utcDaysFrom, false}} {
		idx, err := OpenVersions(t.TempDir(), Versions{Mapping: c.version, ServesFrom: c.version})
		if err != nil {
			t.Fatal(err)
		}
		start := time.Date(2027, 3, 3, 18, 0, 0, 0, time.UTC)
		event := &calendar.Post{ID: 1, Type: calendar.PostTypeEvent, Status: calendar.StatusPublish, Title: "Choir", Start: start, End: start.Add(2 * time.Hour), TimeZone: "UTC"}
		if err := idx.PutPosts(ctx, []*calendar.Post{event}); err != nil {
			t.Fatal(err)
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
		case refused != c.refused:
			t.Errorf("version %d, days in a zone: %v, %v; want refused %v", c.version, zoned.Days, err, c.refused)
		case !refused && (err != nil || zoned.Days[3] != 1): // 07:00 on the 4th in Auckland
			t.Errorf("version %d, days in Auckland: %v, %v", c.version, zoned.Days, err)
		}
		if err := idx.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

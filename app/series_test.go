package app_test

import (
	"testing"

	"calendar/app"
)

// TestAnHourlySeriesIsMadeOnlyAThousandAhead: the cap keeps a frequent
// rule from making two years of occurrences at once.
func TestAnHourlySeriesIsMadeOnlyAThousandAhead(t *testing.T) {
	w := newWorld(t)
	title, start, end := "Hourly", "tomorrow 10:00", "tomorrow 10:30"
	created, err := w.app.Events.Create(w.ctx, w.admin(), app.EventInput{PostFields: app.PostFields{Title: &title},
		StartDate: &start, EndDate: &end, Recurrence: &[]string{"RRULE:FREQ=HOURLY"}})
	w.must(err)
	page, err := w.app.Events.List(w.ctx, w.admin(), app.EventFilter{Parent: &created.ID, Page: app.PageRequest{PerPage: 1}})
	w.must(err)
	if page.Total != app.MaxOccurrencesAhead {
		t.Fatalf("%d occurrences made, want %d", page.Total, app.MaxOccurrencesAhead)
	}
}

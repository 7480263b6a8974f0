package app_test

import (
	"slices"
	"strings"
	"testing"

	"calendar/app"
)

// A rest source's series: one that says its rules (this service's answer)
// is one item with them, its listed occurrences none of their own; one
// whose series the list did not give is read by its rest_url; occurrences
// whose series says no rules (the plugin's answer) stay events of their
// own.
func TestARestSourcesSeriesIsOneItemWithItsRules(t *testing.T) {
	t.Parallel()
	w, f := importWorld(t)
	const api = "https://other.example.org/vendor/events/v1/events"
	event := func(id, parent, start, rules string) string {
		return `{"id":` + id + `,"post_parent":` + parent + `,"global_id":"other.example.org?id=` + id + `","rest_url":"` + api + `/` + id +
			`","title":"E` + id + `","start_date":"2030-06-` + start + ` 18:00:00","end_date":"2030-06-` + start + ` 19:00:00","timezone":"UTC"` + rules + `}`
	}
	weekly := `,"recurrence":["RRULE:FREQ=WEEKLY;COUNT=3"]`
	f.set(api+"?start_date=2030-06-05", `{"events":[`+strings.Join([]string{
		event("1", "0", "05", weekly), event("2", "1", "12", ""), // a series and its occurrence
		event("4", "3", "10", ""), // an occurrence of a series begun before the window
		event("6", "5", "11", ""), // an occurrence whose series says no rules
	}, ",")+`]}`)
	f.set(api+"/3", event("3", "0", "03", weekly))
	f.set(api+"/5", event("5", "0", "04", ""))
	p, err := w.app.Imports.Preview(w.ctx, w.admin(), 0, app.ImportInput{Kind: ptr("rest"), URL: ptr(api + "?start_date=2030-06-05")})
	w.must(err)
	var titles []string
	for _, it := range p.Items {
		titles = append(titles, it.Title)
	}
	slices.Sort(titles)
	if strings.Join(titles, " ") != "E1 E3 E6" || p.Error != "" {
		t.Errorf("items %v (%s), want the two series and the occurrence of the one without rules", titles, p.Error)
	}
}

package controllers_test

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"testing"
	"time"
)

// A small world of two series and two single events, a month ahead (so its
// series are made whole): a weekly choir from day 0 (0, 7, 14, 21), a daily
// yoga from day 2 (2, 3, 4) whose day 3 is private, a gala on day 1 and a
// fair on day 10. The window from day 2 holds the choir's last three (a
// series half inside it) and all of the yoga. The choir's day 14 is in the
// yoga's category, edited on its own.
type seriesWorld struct {
	s                       *service
	day                     func(n int) string
	choir, yoga, gala, fair map[string]any
	choirAt, yogaAt         map[int]string // day -> ID
}

func newSeriesWorld(t *testing.T) *seriesWorld {
	s := startService(t)
	base := time.Now().UTC().AddDate(0, 1, 0).Truncate(24 * time.Hour).Add(10 * time.Hour)
	w := &seriesWorld{s: s, day: func(n int) string { return base.AddDate(0, 0, n).Format("2006-01-02") }}
	in := func(fields map[string]any, categories ...string) map[string]any {
		fields["categories"] = categories
		return w.s.event(fields)
	}
	w.choir = in(recurring("Choir", "UTC", base, base.Add(time.Hour), "RRULE:FREQ=WEEKLY;COUNT=4"), "choir")
	w.yoga = in(recurring("Yoga", "UTC", base.AddDate(0, 0, 2), base.AddDate(0, 0, 2).Add(time.Hour), "RRULE:FREQ=DAILY;COUNT=3"), "yoga")
	w.gala = in(at("Gala", w.day(1)+" 20:00", w.day(1)+" 22:00"), "choir")
	w.fair = in(at("Fair", w.day(10)+" 09:00", w.day(10)+" 18:00"))
	w.choirAt, w.yogaAt = w.daysOf(t, w.choir, base), w.daysOf(t, w.yoga, base)
	s.do("POST", eventsPath+"/"+w.yogaAt[3], asAdmin(), jsonBody(map[string]any{"status": "private"})).expectStatus(t, http.StatusOK)
	s.do("POST", eventsPath+"/"+w.choirAt[14], asAdmin(), jsonBody(map[string]any{"categories": []string{"yoga"}})).expectStatus(t, http.StatusOK)
	return w
}

// daysOf maps the days (from base) of a series' events to their IDs.
func (w *seriesWorld) daysOf(t *testing.T, series map[string]any, base time.Time) map[int]string {
	t.Helper()
	out := map[int]string{int(mustTime(t, series["utc_start_date"]).Sub(base).Hours() / 24): idOf(series)}
	for _, o := range w.s.occurrencesOf(t, series) {
		out[int(mustTime(t, o["utc_start_date"]).Sub(base).Hours()/24)] = idOf(o)
	}
	return out
}

func mustTime(t *testing.T, v any) time.Time {
	t.Helper()
	at, err := time.Parse("2006-01-02 15:04:05", fmt.Sprint(v))
	if err != nil {
		t.Fatal(err)
	}
	return at
}

// pageOfEvents is a list's IDs in order, its total and total pages.
func pageOfEvents(t *testing.T, res *response) (ids []string, total, pages float64) {
	t.Helper()
	res.expectStatus(t, http.StatusOK)
	o := res.object(t)
	for _, e := range o["events"].([]any) {
		ids = append(ids, idOf(e.(map[string]any)))
	}
	total, pages = o["total"].(float64), o["total_pages"].(float64)
	if res.Header.Get("X-WP-Total") != fmt.Sprint(total) || res.Header.Get("X-TEC-TotalPages") != fmt.Sprint(pages) {
		t.Fatalf("headers %v, body total %v of %v pages", res.Header, total, pages)
	}
	return ids, total, pages
}

// One small world of series, for the two ways of listing them.
func TestSeriesListedOnceAndOccurrenceByOccurrence(t *testing.T) {
	t.Parallel()
	w := newSeriesWorld(t)
	t.Run("a list shows each series once, as its first occurrence in the window", func(t *testing.T) {
		aListShowsEachSeriesOnce(t, w)
	})
	t.Run("a series lists its occurrences within a window", func(t *testing.T) { aSeriesListsItsOccurrences(t, w) })
}

// hide_subsequent_recurrences shows each series once, as its first
// occurrence within the window that the caller may read: totals, pages and
// facets count it once; the feed lists the same.
func aListShowsEachSeriesOnce(t *testing.T, w *seriesWorld) {
	s := w.s
	list := func(who option, params ...string) *response {
		q := url.Values{"end_date": {w.day(30)}}
		for i := 0; i < len(params); i += 2 {
			q.Set(params[i], params[i+1])
		}
		return s.do("GET", eventsPath+"?"+q.Encode(), who)
	}
	visitor := option(func(*http.Request) {}) // no credentials
	for _, c := range []struct {
		name   string
		who    option
		params []string
		want   []string
		total  float64
		pages  float64
	}{
		{"every occurrence without it", visitor, []string{"start_date", w.day(2)},
			[]string{w.yogaAt[2], w.yogaAt[4], w.choirAt[7], idOf(w.fair), w.choirAt[14], w.choirAt[21]}, 6, 1},
		{"each series once, the choir as its first in the window", visitor, []string{"start_date", w.day(2), "hide_subsequent_recurrences", "true"},
			[]string{w.yogaAt[2], w.choirAt[7], idOf(w.fair)}, 3, 1},
		{"a page of two: the total counts each series once", visitor, []string{"start_date", w.day(2), "hide_subsequent_recurrences", "true", "per_page", "2"},
			[]string{w.yogaAt[2], w.choirAt[7]}, 3, 2},
		{"the second page", visitor, []string{"start_date", w.day(2), "hide_subsequent_recurrences", "true", "per_page", "2", "page", "2"},
			[]string{idOf(w.fair)}, 3, 2},
		{"the yoga's first in the window is private: the visitor gets the next", visitor, []string{"start_date", w.day(3), "hide_subsequent_recurrences", "1"},
			[]string{w.yogaAt[4], w.choirAt[7], idOf(w.fair)}, 3, 1},
		{"the administrator reads it", asAdmin(), []string{"start_date", w.day(3), "hide_subsequent_recurrences", "1"},
			[]string{w.yogaAt[3], w.choirAt[7], idOf(w.fair)}, 3, 1},
		{"a search", visitor, []string{"start_date", w.day(0), "search", "choir", "hide_subsequent_recurrences", "true"},
			[]string{idOf(w.choir)}, 1, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			ids, total, pages := pageOfEvents(t, list(c.who, c.params...))
			if !slices.Equal(ids, c.want) || total != c.total || pages != c.pages {
				t.Fatalf("%v, %v of %v pages; want %v, %v of %v", ids, total, pages, c.want, c.total, c.pages)
			}
		})
	}
	categories := func(res *response) map[string]any {
		res.expectStatus(t, http.StatusOK)
		counts := map[string]any{}
		for _, v := range res.object(t)["facets"].(map[string]any)["categories"].([]any) {
			counts[v.(map[string]any)["slug"].(string)] = v.(map[string]any)["count"]
		}
		return counts
	}
	t.Run("facets count each series once, under each category one of its events has", func(t *testing.T) {
		counts := categories(list(visitor, "start_date", w.day(0), "hide_subsequent_recurrences", "true", "facets", "categories"))
		if fmt.Sprint(counts) != "map[choir:2 yoga:2]" {
			t.Fatalf("categories %v, want choir 2 (the series and the gala), yoga 2 (the yoga, the choir's day 14)", counts)
		}
	})
	t.Run("a category's count is the total of the list filtered on it", func(t *testing.T) {
		res := list(visitor, "start_date", w.day(0), "hide_subsequent_recurrences", "true", "categories", "yoga", "facets", "categories")
		ids, total, _ := pageOfEvents(t, res)
		if counts := categories(res); !slices.Equal(ids, []string{w.yogaAt[2], w.choirAt[14]}) || counts["yoga"] != total {
			t.Fatalf("%v of %v, yoga counted %v", ids, total, counts["yoga"])
		}
	})
	t.Run("the feed lists the same", func(t *testing.T) {
		q := url.Values{"start_date": {w.day(2)}, "end_date": {w.day(30)}, "hide_subsequent_recurrences": {"true"}}
		res := s.do("GET", feedPath+"?"+q.Encode())
		res.expectStatus(t, http.StatusOK)
		if res.Header.Get("X-WP-Total") != "3" {
			t.Fatalf("the feed counts %s events, want 3", res.Header.Get("X-WP-Total"))
		}
	})
}

// GET /events/<id>/occurrences lists one series' events, itself first, with
// the list's window and pages, as the read rule lets the caller; an event
// that is no series, or that the caller may not read, is 404.
func aSeriesListsItsOccurrences(t *testing.T, w *seriesWorld) {
	s := w.s
	occurrences := func(id string, who option, params ...string) *response {
		q := url.Values{}
		for i := 0; i < len(params); i += 2 {
			q.Set(params[i], params[i+1])
		}
		return s.do("GET", eventsPath+"/"+id+"/occurrences?"+q.Encode(), who)
	}
	visitor := option(func(*http.Request) {}) // no credentials
	for _, c := range []struct {
		name         string
		series       string
		who          option
		params       []string
		want         []string
		total, pages float64
	}{
		{"every one the visitor reads", idOf(w.yoga), visitor, nil, []string{w.yogaAt[2], w.yogaAt[4]}, 2, 1},
		{"the private one for the administrator", idOf(w.yoga), asAdmin(), nil, []string{w.yogaAt[2], w.yogaAt[3], w.yogaAt[4]}, 3, 1},
		{"within a window", idOf(w.choir), visitor, []string{"start_date", w.day(5), "end_date", w.day(15)}, []string{w.choirAt[7], w.choirAt[14]}, 2, 1},
		{"a page", idOf(w.choir), visitor, []string{"per_page", "3", "page", "2"}, []string{w.choirAt[21]}, 4, 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			ids, total, pages := pageOfEvents(t, occurrences(c.series, c.who, c.params...))
			if !slices.Equal(ids, c.want) || total != c.total || pages != c.pages {
				t.Fatalf("%v, %v of %v pages; want %v, %v of %v", ids, total, pages, c.want, c.total, c.pages)
			}
		})
	}
	t.Run("each carries its series' summary", func(t *testing.T) {
		res := occurrences(idOf(w.choir), visitor)
		res.expectStatus(t, http.StatusOK)
		for _, e := range res.object(t)["events"].([]any) {
			summary, _ := e.(map[string]any)["recurrence_summary"].(map[string]any)
			if text, _ := summary["text"].(map[string]any); text["en"] != "Every week at 10:00, 4 times" || summary["count"] != float64(4) {
				t.Fatalf("recurrence_summary %v", summary)
			}
		}
	})
	t.Run("404 for an event that is no series, an occurrence, one unreadable", func(t *testing.T) {
		for _, id := range []string{idOf(w.fair), w.choirAt[7], w.yogaAt[3]} {
			occurrences(id, visitor).expectError(t, http.StatusNotFound, "rest-event-not-series")
		}
		occurrences("999999", visitor).expectError(t, http.StatusNotFound, "rest-event-not-found")
	})
}

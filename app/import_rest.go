package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"net/url"
	"strconv"
	"strings"

	"calendar/app/calendar"
)

// A rest source is another site's events list: the plugin's tribe/events/v1
// or this service's vendor/events/v1 (the URL's query string is its filter),
// followed page by page (next_rest_url, on the same host) within the run's
// pages and items. Each event is an item by its global_id, its venue and
// organizers by theirs. A series there that says its rules (this
// service's answer: recurrence on the series, post_parent on each
// occurrence) is one series here, its occurrences made by its rules
// (restSeries); the plugin's answer says no rules, so its occurrences stay
// events of their own.

// restPage is what a page of the events list says that an import reads.
type restPage struct {
	Events      []restEvent `json:"events"`
	NextRestURL string      `json:"next_rest_url"`
}

type restEvent struct {
	ID          int64           `json:"id"`
	GlobalID    string          `json:"global_id"`
	RestURL     string          `json:"rest_url"`
	URL         string          `json:"url"`
	Modified    string          `json:"modified_utc"`
	Title       string          `json:"title"`
	Description string          `json:"description"`
	Excerpt     string          `json:"excerpt"`
	Website     string          `json:"website"`
	AllDay      bool            `json:"all_day"`
	StartDate   string          `json:"start_date"`
	EndDate     string          `json:"end_date"`
	Timezone    string          `json:"timezone"`
	Cost        string          `json:"cost"`
	Image       json.RawMessage `json:"image"`
	Categories  []restTerm      `json:"categories"`
	Tags        []restTerm      `json:"tags"`
	Venue       json.RawMessage `json:"venue"`
	Organizer   json.RawMessage `json:"organizer"`
	EventStatus string          `json:"event_status"`
	// Recurrence are a series' rules, PostParent an occurrence's series
	// (this service's answer; the plugin's gives post_parent alone).
	Recurrence []string `json:"recurrence"`
	PostParent int64    `json:"post_parent"`
}

type restTerm struct {
	Name string `json:"name"`
	Slug string `json:"slug"`
}

type restLinked struct {
	GlobalID  string   `json:"global_id"`
	Venue     string   `json:"venue"`
	Organizer string   `json:"organizer"`
	Address   string   `json:"address"`
	City      string   `json:"city"`
	Country   string   `json:"country"`
	Province  string   `json:"province"`
	State     string   `json:"state"`
	Zip       string   `json:"zip"`
	Phone     string   `json:"phone"`
	Website   string   `json:"website"`
	Email     string   `json:"email"`
	GeoLat    *float64 `json:"geo_lat"`
	GeoLng    *float64 `json:"geo_lng"`
}

// readRest fetches the pages of a rest source and reads their events.
func (s *Imports) readRest(ctx context.Context, src *calendar.ImportSource) ([]importItem, error) {
	first, err := url.Parse(src.URL)
	if err != nil {
		return nil, err
	}
	var events []restEvent
	next := src.URL
	fetch := &restFetch{Imports: s, pages: s.settings.Limits.Pages, bytes: s.settings.Limits.FetchBytes}
	for next != "" {
		body, err := fetch.get(ctx, next)
		if err != nil {
			return nil, err
		}
		var page restPage
		if err := json.Unmarshal(body, &page); err != nil {
			return nil, fmt.Errorf("page %d is not an events list: %v", s.settings.Limits.Pages-fetch.pages, err)
		}
		for _, e := range page.Events {
			if len(events) >= s.settings.Limits.Items {
				return nil, fmt.Errorf("%w: more than %s events", errICalTooLarge, calendar.Thousands(int64(s.settings.Limits.Items)))
			}
			events = append(events, e)
		}
		next = ""
		if page.NextRestURL != "" && len(page.Events) > 0 {
			u, err := first.Parse(page.NextRestURL)
			if err != nil || u.Host != first.Host || (u.Scheme != "http" && u.Scheme != "https") {
				return nil, errors.New("next_rest_url leads to another site")
			}
			next = u.String()
		}
	}
	events = s.restSeries(ctx, fetch, first, events)
	items := make([]importItem, 0, len(events))
	for _, e := range events {
		items = append(items, restItem(e))
	}
	return items, nil
}

// restFetch fetches a rest source's pages within the run's pages and bytes
// left.
type restFetch struct {
	*Imports
	pages int
	bytes int64
}

func (f *restFetch) get(ctx context.Context, url string) ([]byte, error) {
	if f.pages--; f.pages < 0 {
		return nil, fmt.Errorf("%w: more than %d pages", errICalTooLarge, f.settings.Limits.Pages)
	}
	got, err := f.settings.Fetcher.FetchSource(ctx, url, FetchConditions{Accept: acceptOf("rest")}, f.bytes)
	if err != nil {
		return nil, err
	}
	if f.bytes -= int64(len(got.Body)); f.bytes <= 0 {
		return nil, fmt.Errorf("%w: more than %d bytes in all", ErrFetchTooLarge, f.settings.Limits.FetchBytes)
	}
	return got.Body, nil
}

// restSeries makes each series the source says are one (an event with
// recurrence lines, its occurrences naming it by post_parent) one item
// with its rules: its occurrences are made here by them, and are no items
// of their own. A series the list did not give (it began before the list's
// window) is read by its rest_url, as a page of the run; one that cannot be
// read, or says no rules, leaves its occurrences events of their own. The
// source's answer says neither which occurrences were edited there on
// their own nor which were removed (its exclusions): those follow the
// series' rules here.
func (s *Imports) restSeries(ctx context.Context, fetch *restFetch, first *url.URL, events []restEvent) []restEvent {
	series, tried := map[int64]bool{}, map[int64]bool{}
	for _, e := range events {
		if e.PostParent == 0 && len(e.Recurrence) > 0 {
			series[e.ID] = true
		}
	}
	for _, e := range events[:len(events):len(events)] {
		if e.PostParent == 0 || series[e.PostParent] || tried[e.PostParent] || e.RestURL == "" {
			continue
		}
		tried[e.PostParent] = true
		u, err := first.Parse(e.RestURL)
		if err == nil {
			u, err = u.Parse(strconv.FormatInt(e.PostParent, 10)) // its sibling: .../events/<series>
		}
		if err != nil || u.Host != first.Host || (u.Scheme != "http" && u.Scheme != "https") {
			continue
		}
		body, err := fetch.get(ctx, u.String())
		var parent restEvent
		if err != nil || json.Unmarshal(body, &parent) != nil || parent.ID != e.PostParent || parent.PostParent != 0 || len(parent.Recurrence) == 0 {
			continue
		}
		series[parent.ID] = true
		events = append(events, parent)
	}
	var out []restEvent
	for _, e := range events {
		if e.PostParent == 0 || !series[e.PostParent] {
			out = append(out, e)
		}
	}
	return out
}

// restItem reads an event of the list as an item.
func restItem(e restEvent) importItem {
	it := importItem{Key: e.GlobalID, Version: e.Modified, Title: html.UnescapeString(e.Title), Description: e.Description,
		Start: e.StartDate, End: e.EndDate, Zone: e.Timezone, AllDay: e.AllDay, Cost: e.Cost,
		Canceled: e.EventStatus == calendar.EventCanceled, Recurrence: e.Recurrence}
	if it.Key == "" {
		it.Key = cmpOr(e.RestURL, strconv.FormatInt(e.ID, 10))
	}
	if e.Website != "" && e.Website != e.URL {
		it.URL = e.Website
	}
	var image struct {
		URL string `json:"url"`
	}
	if json.Unmarshal(e.Image, &image) == nil && isHTTP(image.URL) {
		it.Image = image.URL
	}
	for _, c := range e.Categories {
		it.Categories = append(it.Categories, html.UnescapeString(c.Name))
	}
	for _, t := range e.Tags {
		it.Tags = append(it.Tags, html.UnescapeString(t.Name))
	}
	var venue restLinked
	if json.Unmarshal(e.Venue, &venue) == nil && venue.Venue != "" {
		it.Venue = &importPlace{Key: venue.GlobalID, Name: html.UnescapeString(venue.Venue), Lat: venue.GeoLat, Lng: venue.GeoLng,
			Meta: nonEmpty(map[string]string{"address": venue.Address, "city": venue.City, "country": venue.Country, "province": venue.Province,
				"state": venue.State, "zip": venue.Zip, "phone": venue.Phone, "website": venue.Website})}
	}
	var organizers []restLinked
	if json.Unmarshal(e.Organizer, &organizers) == nil {
		for _, o := range organizers {
			if o.Organizer != "" {
				it.Organizers = append(it.Organizers, importPlace{Key: o.GlobalID, Name: html.UnescapeString(o.Organizer),
					Meta: nonEmpty(map[string]string{"phone": o.Phone, "email": o.Email, "website": o.Website})})
			}
		}
	}
	if strings.TrimSpace(it.Start) == "" {
		it.failure = "no start_date"
	}
	return it
}

func nonEmpty(m map[string]string) map[string]string {
	for k, v := range m {
		if v == "" {
			delete(m, k)
		}
	}
	if len(m) == 0 {
		return nil
	}
	return m
}

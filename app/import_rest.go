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
// organizers by theirs; a series there is its occurrences, each an event
// of its own here.

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
	var items []importItem
	next, pages := src.URL, 0
	var budget int64 = s.settings.Limits.FetchBytes
	for next != "" {
		if pages++; pages > s.settings.Limits.Pages {
			return nil, fmt.Errorf("%w: more than %d pages", errICalTooLarge, s.settings.Limits.Pages)
		}
		f, err := s.settings.Fetcher.FetchSource(ctx, next, FetchConditions{Accept: acceptOf("rest")}, budget)
		if err != nil {
			return nil, err
		}
		if budget -= int64(len(f.Body)); budget <= 0 {
			return nil, fmt.Errorf("%w: more than %d bytes in all", ErrFetchTooLarge, s.settings.Limits.FetchBytes)
		}
		var page restPage
		if err := json.Unmarshal(f.Body, &page); err != nil {
			return nil, fmt.Errorf("page %d is not an events list: %v", pages, err)
		}
		for _, e := range page.Events {
			if len(items) >= s.settings.Limits.Items {
				return nil, fmt.Errorf("%w: more than %s events", errICalTooLarge, calendar.Thousands(int64(s.settings.Limits.Items)))
			}
			items = append(items, restItem(e))
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
	return items, nil
}

// restItem reads an event of the list as an item.
func restItem(e restEvent) importItem {
	it := importItem{Key: e.GlobalID, Version: e.Modified, Title: html.UnescapeString(e.Title), Description: e.Description,
		Start: e.StartDate, End: e.EndDate, Zone: e.Timezone, AllDay: e.AllDay, Cost: e.Cost,
		Canceled: e.EventStatus == calendar.EventCanceled}
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

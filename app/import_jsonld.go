package app

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html"
	"regexp"
	"strconv"
	"strings"
	"time"

	"calendar/app/calendar"
)

// A jsonld source is a web page holding schema.org Event objects in JSON-LD
// script tags (a single event's page, or a list page: @graph, ItemList, or
// arrays). Each Event (or a subtype: MusicEvent, TheaterEvent...) is an item
// by its @id, else its url, else its name and start; its location a venue
// (a Place with a PostalAddress and geo), its organizer an organizer, its
// eventStatus canceled when EventCancelled, its offers' price its cost.
// Dates with an offset are kept in the site's zone when it has that offset
// then, else in a zone of that offset; dates without one are the site's.

var ldScript = regexp.MustCompile(`(?is)<script[^>]*type\s*=\s*["']?application/ld\+json["']?[^>]*>(.*?)</script>`)

// readJSONLDItems reads a page's events.
func readJSONLDItems(page []byte, site *time.Location, limits ImportLimits) ([]importItem, error) {
	var items []importItem
	visited := 0
	var walk func(v any, depth int) error
	walk = func(v any, depth int) error {
		if visited++; visited > limits.Components {
			return fmt.Errorf("%w: more than %d JSON-LD objects", errICalTooLarge, limits.Components)
		}
		if depth > limits.Depth*4 {
			return fmt.Errorf("%w: JSON-LD nested more than %d deep", errICalTooLarge, limits.Depth*4)
		}
		switch x := v.(type) {
		case []any:
			for _, e := range x {
				if err := walk(e, depth+1); err != nil {
					return err
				}
			}
		case map[string]any:
			if isEventType(x["@type"]) {
				if len(items) >= limits.Items {
					return fmt.Errorf("%w: more than %s events", errICalTooLarge, calendar.Thousands(int64(limits.Items)))
				}
				items = append(items, ldItem(x, site))
				return nil
			}
			for _, key := range []string{"@graph", "itemListElement", "item", "mainEntity", "subEvent"} {
				if e, ok := x[key]; ok {
					if err := walk(e, depth+1); err != nil {
						return err
					}
				}
			}
		}
		return nil
	}
	for _, m := range ldScript.FindAllSubmatch(page, -1) {
		var v any
		dec := json.NewDecoder(bytes.NewReader(bytes.TrimSpace(m[1])))
		if err := dec.Decode(&v); err != nil {
			continue // a broken block of a page is not the page's events
		}
		if err := walk(v, 0); err != nil {
			return nil, err
		}
	}
	return items, nil
}

// isEventType: Event, or a schema.org subtype of it (MusicEvent...).
func isEventType(t any) bool {
	switch x := t.(type) {
	case string:
		x = strings.TrimPrefix(strings.TrimPrefix(x, "https://schema.org/"), "http://schema.org/")
		return strings.HasSuffix(x, "Event")
	case []any:
		for _, e := range x {
			if isEventType(e) {
				return true
			}
		}
	}
	return false
}

func ldString(v any) string {
	switch x := v.(type) {
	case string:
		return strings.TrimSpace(html.UnescapeString(x))
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case []any:
		if len(x) > 0 {
			return ldString(x[0])
		}
	case map[string]any:
		for _, k := range []string{"url", "@id", "name", "@value"} {
			if s := ldString(x[k]); s != "" {
				return s
			}
		}
	}
	return ""
}

func ldFloat(v any) *float64 {
	switch x := v.(type) {
	case float64:
		return &x
	case string:
		if f, err := strconv.ParseFloat(strings.TrimSpace(x), 64); err == nil {
			return &f
		}
	}
	return nil
}

func ldItem(x map[string]any, site *time.Location) importItem {
	it := importItem{Title: ldString(x["name"]), Description: ldString(x["description"])}
	it.URL = ldString(x["url"])
	if !isHTTP(it.URL) {
		it.URL = ""
	}
	it.Key = ldString(x["@id"])
	if it.Key == "" {
		it.Key = it.URL
	}
	startRaw := ldString(x["startDate"])
	if it.Key == "" {
		it.Key = it.Title + "@" + startRaw
	}
	if img := ldString(x["image"]); isHTTP(img) {
		it.Image = img
	}
	start, zone, allDay, err := ldDate(startRaw, site)
	if err != nil {
		it.failure = "startDate: " + err.Error()
		return it
	}
	end := start
	if raw := ldString(x["endDate"]); raw != "" {
		if e, _, _, err := ldDate(raw, zone); err == nil && !e.Before(start) {
			end = e
		}
	}
	it.Start, it.End, it.Zone, it.AllDay = wall(start.In(zone)), wall(end.In(zone)), zone.String(), allDay
	it.Canceled = strings.HasSuffix(ldString(x["eventStatus"]), "EventCancelled")
	if offers, ok := x["offers"]; ok {
		if list, ok := offers.([]any); ok && len(list) > 0 {
			offers = list[0]
		}
		if o, ok := offers.(map[string]any); ok {
			if price := ldString(o["price"]); price != "" {
				it.Cost = strings.TrimSpace(ldString(o["priceCurrency"]) + " " + price)
			}
		}
	}
	if loc, ok := x["location"].(map[string]any); ok && !strings.Contains(ldString(loc["@type"]), "Virtual") {
		p := &importPlace{Key: ldString(loc["@id"]), Name: ldString(loc["name"])}
		meta := map[string]string{}
		switch a := loc["address"].(type) {
		case string:
			meta["address"] = strings.TrimSpace(a)
		case map[string]any:
			meta["address"], meta["city"], meta["province"] = ldString(a["streetAddress"]), ldString(a["addressLocality"]), ldString(a["addressRegion"])
			meta["zip"], meta["country"] = ldString(a["postalCode"]), ldString(a["addressCountry"])
		}
		p.Meta = nonEmpty(meta)
		if geo, ok := loc["geo"].(map[string]any); ok {
			p.Lat, p.Lng = ldFloat(geo["latitude"]), ldFloat(geo["longitude"])
			if p.Lat == nil || p.Lng == nil {
				p.Lat, p.Lng = nil, nil
			}
		}
		if p.Name == "" {
			p.Name = meta["address"]
		}
		if p.Name != "" {
			it.Venue = p
		}
	}
	organizers := x["organizer"]
	if one, ok := organizers.(map[string]any); ok {
		organizers = []any{one}
	}
	if list, ok := organizers.([]any); ok {
		for _, o := range list {
			if m, ok := o.(map[string]any); ok && ldString(m["name"]) != "" {
				it.Organizers = append(it.Organizers, importPlace{Key: ldString(m["@id"]), Name: ldString(m["name"]),
					Meta: nonEmpty(map[string]string{"email": strings.TrimPrefix(ldString(m["email"]), "mailto:"), "website": ldString(m["url"]), "phone": ldString(m["telephone"])})})
			}
		}
	}
	return it
}

// ldDate reads an ISO 8601 date as schema.org writes them.
func ldDate(raw string, site *time.Location) (time.Time, *time.Location, bool, error) {
	raw = strings.TrimSpace(raw)
	if t, err := time.ParseInLocation("2006-01-02", raw, site); err == nil {
		return t, site, true, nil
	}
	for _, layout := range []string{time.RFC3339, "2006-01-02T15:04Z07:00", "2006-01-02T15:04:05.999999999Z07:00"} {
		if t, err := time.Parse(layout, raw); err == nil {
			_, offset := t.Zone()
			if _, siteOffset := t.In(site).Zone(); siteOffset == offset {
				return t, site, false, nil
			}
			loc, ok := offsetZone(fmt.Sprintf("%+03d%02d", offset/3600, abs(offset%3600)/60))
			if !ok {
				loc = time.UTC
			}
			return t, loc, false, nil
		}
	}
	for _, layout := range []string{"2006-01-02T15:04:05", "2006-01-02T15:04", "2006-01-02 15:04:05", "2006-01-02 15:04"} {
		if t, err := time.ParseInLocation(layout, raw, site); err == nil {
			return t, site, false, nil
		}
	}
	return time.Time{}, nil, false, fmt.Errorf("%q is not an ISO 8601 date", raw)
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

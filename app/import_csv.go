package app

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"calendar/app/calendar"
)

// A csv source is a file of the plugin's CSV import columns for events
// ("Event Name", "Event Start Date", "Event Start Time"...), with its venue
// and organizer columns in the same row ("Venue Name", "Venue City",
// "Organizer Email"...), uploaded and run once. A column is found by its
// label, case and spacing aside, or by the snake_case name the plugin maps
// it to (event_start_date). Dates and times are read as an API write reads
// start_date, in the row's Timezone or the site's. A row is an item by its
// "Event ID" (or UID) column, else by its name and start.

// csvColumns maps the plugin's labels (folded) to what they fill.
var csvColumns = map[string]string{
	"event name": "title", "event description": "description", "event excerpt": "excerpt",
	"event start date": "start_date", "event start time": "start_time", "event end date": "end_date", "event end time": "end_time",
	"all day event": "all_day", "event all day": "all_day", "timezone": "timezone", "event time zone": "timezone",
	"event cost": "cost", "event currency symbol": "currency", "event category": "categories", "event categories": "categories",
	"event tags": "tags", "event website": "website", "event featured image": "image", "event id": "key", "uid": "key",
	"event venue name": "venue", "venue name": "venue", "venue address": "venue_address", "venue address 2": "venue_address2",
	"venue city": "venue_city", "venue country": "venue_country", "venue state/province": "venue_province", "venue state": "venue_state",
	"venue province": "venue_province", "venue zip": "venue_zip", "venue phone": "venue_phone", "venue url": "venue_website", "venue website": "venue_website",
	"event organizer name": "organizer", "organizer name": "organizer", "organizer email": "organizer_email",
	"organizer website": "organizer_website", "organizer phone": "organizer_phone",
}

// csvColumn reads a header as the plugin names its columns.
func csvColumn(header string) string {
	h := strings.ToLower(strings.Join(strings.Fields(strings.ReplaceAll(strings.TrimPrefix(header, "\ufeff"), "_", " ")), " "))
	return csvColumns[h]
}

// readCSVItems reads a CSV file's rows.
func readCSVItems(data []byte, site *time.Location, limits ImportLimits) ([]importItem, error) {
	r := csv.NewReader(bytes.NewReader(data))
	r.FieldsPerRecord, r.LazyQuotes, r.ReuseRecord = -1, true, true
	header, err := r.Read()
	if err != nil {
		return nil, fmt.Errorf("no header row: %v", err)
	}
	columns := make([]string, len(header))
	known := 0
	for i, h := range header {
		if columns[i] = csvColumn(h); columns[i] != "" {
			known++
		}
	}
	if !containsString(columns, "title") || !containsString(columns, "start_date") {
		return nil, errors.New("the header names no Event Name or Event Start Date column")
	}
	var items []importItem
	for row := 2; ; row++ {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			return items, nil
		}
		if err != nil {
			return nil, fmt.Errorf("row %d: %v", row, err)
		}
		if len(items) >= limits.Items {
			return nil, fmt.Errorf("%w: more than %s rows", errICalTooLarge, calendar.Thousands(int64(limits.Items)))
		}
		v := map[string]string{}
		for i, cell := range rec {
			if i < len(columns) && columns[i] != "" {
				v[columns[i]] = strings.TrimSpace(cell)
			}
		}
		if strings.Join(rec, "") == "" {
			continue
		}
		items = append(items, csvItem(v, site))
	}
}

func containsString(list []string, s string) bool {
	for _, e := range list {
		if e == s {
			return true
		}
	}
	return false
}

func csvItem(v map[string]string, site *time.Location) importItem {
	start := strings.TrimSpace(v["start_date"] + " " + v["start_time"])
	end := strings.TrimSpace(v["end_date"] + " " + v["end_time"])
	if v["end_date"] == "" {
		end = strings.TrimSpace(v["start_date"] + " " + v["end_time"])
	}
	if end == "" {
		end = start
	}
	zone := cmpOr(v["timezone"], site.String())
	it := importItem{Key: v["key"], Title: v["title"], Description: v["description"], Excerpt: v["excerpt"],
		Start: start, End: end, Zone: zone, URL: v["website"], Image: v["image"]}
	switch strings.ToLower(v["all_day"]) {
	case "yes", "true", "1", "y":
		it.AllDay = true
	}
	if it.Key == "" {
		it.Key = calendar.FoldTitle(it.Title) + "@" + start
	}
	if v["cost"] != "" {
		it.Cost = strings.TrimSpace(v["currency"] + v["cost"])
	}
	it.Categories, it.Tags = csvList(v["categories"]), csvList(v["tags"])
	if !isHTTP(it.Image) {
		it.Image = ""
	}
	if name := v["venue"]; name != "" {
		address := strings.TrimSpace(strings.Trim(v["venue_address"]+", "+v["venue_address2"], ", "))
		it.Venue = &importPlace{Name: name, Meta: nonEmpty(map[string]string{"address": address, "city": v["venue_city"],
			"country": v["venue_country"], "province": v["venue_province"], "state": v["venue_state"], "zip": v["venue_zip"],
			"phone": v["venue_phone"], "website": v["venue_website"]})}
	}
	if name := v["organizer"]; name != "" {
		it.Organizers = []importPlace{{Name: name, Meta: nonEmpty(map[string]string{"email": v["organizer_email"],
			"website": v["organizer_website"], "phone": v["organizer_phone"]})}}
	}
	if start == "" {
		it.failure = "no Event Start Date"
	}
	return it
}

// csvList splits a cell of names ("Music, Jazz").
func csvList(cell string) []string {
	var out []string
	for _, name := range strings.Split(cell, ",") {
		if name = strings.TrimSpace(name); name != "" {
			out = append(out, name)
		}
	}
	return out
}

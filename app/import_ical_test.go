package app

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"calendar/app/ical"
)

// readFixture reads a feed of testdata/imports (see its README for where
// each format comes from) as a site in Paris reads it.
func readFixture(t *testing.T, name string) map[string]importItem {
	t.Helper()
	data, err := os.ReadFile("testdata/imports/" + name + ".ics")
	if err != nil {
		t.Fatal(err)
	}
	items, err := readICalItems(data, paris(t), DefaultImportLimits)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]importItem{}
	for _, it := range items {
		out[it.Title] = it
	}
	return out
}

func paris(t *testing.T) *time.Location {
	loc, err := time.LoadLocation("Europe/Paris")
	if err != nil {
		t.Fatal(err)
	}
	return loc
}

func TestFeedsAreReadAsTheirPublishersWriteThem(t *testing.T) {
	t.Parallel()
	type want struct {
		start, end, zone string
		allDay, canceled bool
		recurrence       string // the lines, space-separated
		series           bool   // an overridden instance of a series
		venue, address   string
		geo              string
		categories       string
	}
	cases := []struct {
		feed, title string
		want        want
	}{
		// Google: UTC times shown in the calendar's X-WR-TIMEZONE; the
		// overridden and the cancelled instance excluded from the series.
		{"google", "Chess club", want{start: "2027-01-05 18:00:00", end: "2027-01-05 19:30:00", zone: "America/New_York",
			recurrence: "RRULE:FREQ=WEEKLY;COUNT=8;BYDAY=TU EXDATE:20270119T180000 EXDATE:20270126T180000,20270209T180000",
			venue:      "Community Centre", address: "12 Main Street, Springfield, USA"}},
		{"google", "Chess club (moved)", want{start: "2027-01-27 19:00:00", end: "2027-01-27 20:30:00", zone: "America/New_York", series: true,
			venue: "Community Centre", address: "12 Main Street, Springfield, USA"}},
		{"google", "Spring cleaning day", want{start: "2027-03-01 00:00:00", end: "2027-03-01 00:00:00", zone: "America/New_York", allDay: true}},
		// Outlook: Windows zone names, by CLDR's mapping.
		{"outlook", "Partners' review", want{start: "2027-03-15 10:00:00", end: "2027-03-15 11:30:00", zone: "Europe/Berlin",
			recurrence: "RRULE:FREQ=MONTHLY;UNTIL=20270901T080000Z;INTERVAL=3;BYMONTHDAY=15", venue: "Meeting room 2"}},
		{"outlook", "London workshop", want{start: "2027-06-10 14:00:00", end: "2027-06-10 17:00:00", zone: "Europe/London",
			venue: "The Workshop", address: "5 Hill Road, London"}},
		// Apple: the venue's name on its own line, GEO; a multi-day all-day
		// event (DTEND is the day after the last); floating times in the
		// site's zone.
		{"apple", "Jazz night", want{start: "2027-04-12 20:00:00", end: "2027-04-12 22:00:00", zone: "Europe/Paris",
			venue: "Le Sunset", address: "60 Rue des Lombards, 75001 Paris, France", geo: "48.8598,2.3476"}},
		{"apple", "Festival weekend", want{start: "2027-05-15 00:00:00", end: "2027-05-17 00:00:00", zone: "Europe/Paris", allDay: true}},
		{"apple", "Floating breakfast", want{start: "2027-07-01 09:00:00", end: "2027-07-01 10:00:00", zone: "Europe/Paris"}},
		// Nextcloud: DURATION, RDATE, CATEGORIES, STATUS:CANCELLED.
		{"nextcloud", "Choir rehearsal", want{start: "2027-02-03 19:00:00", end: "2027-02-03 21:00:00", zone: "Europe/Berlin",
			recurrence: "RRULE:FREQ=MONTHLY;COUNT=4;BYDAY=1WE RDATE:20270224T190000", categories: "Music,Choir"}},
		{"nextcloud", "Spring concert", want{start: "2027-03-20 15:00:00", end: "2027-03-20 17:00:00", zone: "Europe/Berlin",
			canceled: true, categories: "Music"}},
		// The plugin's own feed.
		{"plugin", "Poetry evening", want{start: "2027-04-22 18:30:00", end: "2027-04-22 21:00:00", zone: "Europe/London",
			venue: "The Old Library", address: "3 Church Lane, Bristol, BS1 1AA, United Kingdom", geo: "51.4545,-2.5879", categories: "Literature"}},
	}
	feeds := map[string]map[string]importItem{}
	for _, c := range cases {
		t.Run(c.feed+"/"+c.title, func(t *testing.T) {
			if feeds[c.feed] == nil {
				feeds[c.feed] = readFixture(t, c.feed)
			}
			it, ok := feeds[c.feed][c.title]
			if !ok {
				t.Fatalf("no item %q in %s", c.title, c.feed)
			}
			got := want{start: it.Start, end: it.End, zone: it.Zone, allDay: it.AllDay, canceled: it.Canceled,
				recurrence: strings.Join(it.Recurrence, " "), series: it.Series != "", categories: strings.Join(it.Categories, ",")}
			if v := it.Venue; v != nil {
				got.venue, got.address = v.Name, v.Meta["address"]
				if v.Lat != nil {
					got.geo = fmt.Sprintf("%g,%g", *v.Lat, *v.Lng)
				}
			}
			if got != c.want {
				t.Errorf("read\n%+v\nwant\n%+v", got, c.want)
			}
		})
	}
}

func TestAFeedsItemsAreKeyedByUIDAndRecurrenceID(t *testing.T) {
	t.Parallel()
	items := readFixture(t, "google")
	series, moved := items["Chess club"], items["Chess club (moved)"]
	if series.Key != "4kq0tdl3r9cnl5s2ffr7hk2o7g@google.com" || moved.Key != series.Key+"@20270126T230000Z" || moved.Series != series.Key {
		t.Errorf("keys %q, %q (series %q)", series.Key, moved.Key, moved.Series)
	}
	if series.Version != "2/20261110T090000Z" {
		t.Errorf("version %q, want SEQUENCE/LAST-MODIFIED", series.Version)
	}
	if len(items) != 3 { // the cancelled instance is only an EXDATE
		t.Errorf("%d items, want 3", len(items))
	}
}

func TestAnItemsHashChangesWithWhatItSays(t *testing.T) {
	t.Parallel()
	a := importItem{Key: "k", Title: "A", Start: "2027-01-01 10:00:00", Version: "1"}
	b := a
	b.Version, b.Key = "2", "other" // identity and version are not content
	c := a
	c.Title = "B"
	if a.hash() != b.hash() || a.hash() == c.hash() {
		t.Errorf("hashes %s %s %s", a.hash(), b.hash(), c.hash())
	}
}

// Hostile feeds end the read with an error, having cost at most the text's
// own size: every loop the reader runs is bounded by a limit it counts.
func TestHostileFeedsEndTheRunWithAnError(t *testing.T) {
	t.Parallel()
	event := func(i int) string {
		return fmt.Sprintf("BEGIN:VEVENT\r\nUID:%d\r\nDTSTART:20270101T100000Z\r\nSUMMARY:e\r\nEND:VEVENT\r\n", i)
	}
	many := func(n int) []byte {
		var b bytes.Buffer
		b.WriteString("BEGIN:VCALENDAR\r\n")
		for i := range n {
			b.WriteString(event(i))
		}
		b.WriteString("END:VCALENDAR\r\n")
		return b.Bytes()
	}
	zone := func(rules int) []byte {
		var b bytes.Buffer
		b.WriteString("BEGIN:VCALENDAR\r\nBEGIN:VTIMEZONE\r\nTZID:Hostile\r\n")
		for i := range rules {
			fmt.Fprintf(&b, "BEGIN:STANDARD\r\nDTSTART:%04d0101T000000\r\nTZOFFSETFROM:+0100\r\nTZOFFSETTO:+0000\r\nEND:STANDARD\r\n", 1000+i%8000)
		}
		b.WriteString("END:VTIMEZONE\r\nEND:VCALENDAR\r\n")
		return b.Bytes()
	}
	nested := "BEGIN:VCALENDAR\r\n" + strings.Repeat("BEGIN:X\r\n", 10_000) + strings.Repeat("END:X\r\n", 10_000) + "END:VCALENDAR\r\n"
	longLine := "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nDESCRIPTION:" + strings.Repeat("a", 1<<20) + "\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
	folded := "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nDESCRIPTION:" + strings.Repeat("aaaaaaaa\r\n ", 1<<17) + "\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
	limits := DefaultImportLimits
	cases := []struct {
		name string
		feed []byte
		want error
	}{
		{"100,000 VEVENTs", many(100_000), ical.ErrTooLarge},
		{"more events than a run imports", many(limits.Items + 1), errICalTooLarge},
		{"a zone with 10,000 transitions", zone(10_000), errICalTooLarge},
		{"components nested 10,000 deep", []byte(nested), ical.ErrTooLarge},
		{"a line of a MiB", []byte(longLine), ical.ErrTooLarge},
		{"a line of a MiB in folds", []byte(folded), ical.ErrTooLarge},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := readICalItems(c.feed, time.UTC, limits)
			if !errors.Is(err, c.want) {
				t.Errorf("err = %v, want %v", err, c.want)
			}
		})
	}
}

// A rule with no end is read as a series (its occurrences are made over the
// rolling horizon, as any series'); one that repeats more than once a minute
// or never again is refused by the series' own check, item by item.
func TestARuleWithNoEndIsASeriesTheSeriesRulesBound(t *testing.T) {
	t.Parallel()
	feed := "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:forever\r\nDTSTART:20270101T100000Z\r\nRRULE:FREQ=SECONDLY\r\nSUMMARY:s\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
	items, err := readICalItems([]byte(feed), time.UTC, DefaultImportLimits)
	if err != nil || len(items) != 1 {
		t.Fatalf("%v %v", items, err)
	}
	rules, err := parseRecurrence(items[0].Recurrence, time.UTC)
	if err == nil {
		err = rules.check(time.Date(2027, 1, 1, 10, 0, 0, 0, time.UTC), time.UTC)
	}
	if err == nil {
		t.Fatal("a rule that repeats every second was taken")
	}
}

func TestDurationsAreReadAsRFC5545WritesThem(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]time.Duration{"PT2H": 2 * time.Hour, "P1D": 24 * time.Hour, "P1W": 7 * 24 * time.Hour,
		"PT1H30M": 90 * time.Minute, "-PT15M": -15 * time.Minute, "P1DT12H": 36 * time.Hour} {
		if got, err := parseDuration(in); err != nil || got != want {
			t.Errorf("%s: %v, %v", in, got, err)
		}
	}
	for _, bad := range []string{"", "P", "PT", "1H", "PTH", "P99999999999D"} {
		if _, err := parseDuration(bad); err == nil {
			t.Errorf("%q was read", bad)
		}
	}
}

func TestWindowsZoneNamesAreMappedByCLDR(t *testing.T) {
	t.Parallel()
	for windows, iana := range map[string]string{"W. Europe Standard Time": "Europe/Berlin", "Pacific Standard Time": "America/Los_Angeles",
		"GMT Standard Time": "Europe/London", "Tokyo Standard Time": "Asia/Tokyo", "India Standard Time": "Asia/Calcutta"} {
		if got, ok := ical.WindowsZone(windows); !ok || got != iana {
			t.Errorf("%s: %s", windows, got)
		}
	}
}

package app_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"calendar/app"
	"calendar/app/calendar"
)

// icalIn is a wall-clock time in a zone: "2027-10-12 20:00".
func icalIn(zone, s string) time.Time {
	t, err := time.ParseInLocation("2006-01-02 15:04", s, icalZone(zone))
	if err != nil {
		panic(err)
	}
	return t
}

// feedZonesGolden holds the VTIMEZONEs of TestTheFeedsZonesAreWrittenAsBefore's
// feed as the feed wrote them before it kept its zones' years (commit
// c978901). Written again with CALENDAR_WRITE_GOLDEN=1, only for a change
// meant to alter them.
var feedZonesGolden = filepath.Join("testdata", "feed_vtimezones.ics")

// The zones' descriptions come out byte for byte as they did before they
// were kept: summer time in Paris from before its tz data (1850) to where
// the rules go on alone (2400), Sao Paulo before and after it abolished
// summer time in 2019, Lord Howe's half-hour summer time (a series, so a
// span of years), Kolkata's war time; runs of years and years alone, an
// event across a new year, a series' RDATE and EXDATE in years of their own.
func TestTheFeedsZonesAreWrittenAsBefore(t *testing.T) {
	w := newWorld(t)
	plain := func(zone, title, start, end string) *calendar.Post {
		return &calendar.Post{Title: title, TimeZone: zone, Start: icalIn(zone, start), End: icalIn(zone, end)}
	}
	w.icalInsert(
		plain("Europe/Paris", "Paris 1850", "1850-06-01 20:00", "1850-06-01 22:00"),
		plain("Europe/Paris", "Paris 1945", "1945-06-01 20:00", "1945-06-01 22:00"),
		plain("Europe/Paris", "Paris 2027", "2027-03-28 20:00", "2027-03-28 22:00"),
		plain("Europe/Paris", "Paris 2028", "2028-07-01 20:00", "2028-07-01 22:00"),
		plain("Europe/Paris", "Paris new year", "2030-12-31 22:00", "2031-01-01 02:00"),
		plain("Europe/Paris", "Paris 2400", "2400-07-01 20:00", "2400-07-01 22:00"),
		plain("America/Sao_Paulo", "Sao Paulo 2018", "2018-11-10 20:00", "2018-11-10 22:00"),
		plain("America/Sao_Paulo", "Sao Paulo 2019", "2019-06-01 20:00", "2019-06-01 22:00"),
		plain("America/Sao_Paulo", "Sao Paulo 2020", "2020-01-15 20:00", "2020-01-15 22:00"),
		plain("America/Sao_Paulo", "Sao Paulo 2400", "2400-01-15 20:00", "2400-01-15 22:00"),
		plain("Australia/Lord_Howe", "Lord Howe 2400", "2400-10-10 20:00", "2400-10-10 22:00"),
		plain("Asia/Kolkata", "Kolkata 1942", "1942-06-01 20:00", "1942-06-01 22:00"),
		plain("Asia/Kolkata", "Kolkata 1945", "1945-12-01 20:00", "1945-12-01 22:00"),
		plain("Asia/Kolkata", "Kolkata 2027", "2027-04-01 20:00", "2027-04-01 22:00"),
	)
	w.icalInsert(&calendar.Post{Title: "Lord Howe weekly", TimeZone: "Australia/Lord_Howe",
		Start: icalIn("Australia/Lord_Howe", "2027-09-28 20:00"), End: icalIn("Australia/Lord_Howe", "2027-09-28 22:00"),
		Recurrence: []string{"RRULE:FREQ=WEEKLY", "RDATE:20350101T200000", "EXDATE:20400103T200000"}})
	_, body := w.icalFeed(visitor, "1850-01-01", "2400-12-31")
	first, last := strings.Index(body, "BEGIN:VTIMEZONE"), strings.LastIndex(body, "END:VTIMEZONE\r\n")
	if first < 0 {
		t.Fatalf("no VTIMEZONE:\n%s", body)
	}
	got := body[first : last+len("END:VTIMEZONE\r\n")]
	if os.Getenv("CALENDAR_WRITE_GOLDEN") != "" {
		w.must(os.MkdirAll(filepath.Dir(feedZonesGolden), 0o755))
		w.must(os.WriteFile(feedZonesGolden, []byte(got), 0o644))
	}
	want, err := os.ReadFile(feedZonesGolden)
	w.must(err)
	if got != string(want) {
		t.Fatalf("the VTIMEZONEs differ from %s:\n%s", feedZonesGolden, got)
	}
}

// The feed's zones are described for FeedZoneYears years at most (each
// year, and the year before each run of them): the event that would need
// more is left out with those after it, as an event past the feed's bytes
// is, and its zone's years are not described; the totals still count it.
func TestTheFeedsZonesKeepWithinTheirYears(t *testing.T) {
	w := newWorld(t, func(s *app.Settings) { s.FeedZoneYears = 6 })
	for _, year := range []string{"2001", "2003", "2005", "2007"} { // each with the year before it: two years
		w.icalInsert(&calendar.Post{Title: "Paris " + year, Start: icalAt(year + "-06-01 20:00"), End: icalAt(year + "-06-01 22:00")})
	}
	f, err := w.app.Events.Feed(w.ctx, visitor, app.EventFilter{Dates: app.Dates{"start_date": "2000-01-01", "end_date": "2008-12-31"}})
	w.must(err)
	body := string(f.Body)
	zones := body[strings.Index(body, "BEGIN:VTIMEZONE"):strings.Index(body, "END:VTIMEZONE")]
	if n := strings.Count(body, "BEGIN:VEVENT"); n != 3 || strings.Contains(body, "Paris 2007") || f.Total != 4 {
		t.Fatalf("%d events of %d, want the first 3 of 4:\n%s", n, f.Total, body)
	}
	if !strings.Contains(zones, "DTSTART:20051030T030000") || strings.Contains(zones, "DTSTART:2007") {
		t.Fatalf("the zone is not described for 2001, 2003 and 2005 alone:\n%s", zones)
	}
}

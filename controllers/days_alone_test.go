package controllers_test

import (
	"net/http"
	"testing"
	"time"

	"calendar/app"
)

// facets=days over HTTP: a month's days, each with the events the list holds
// on it (a festival over the change to summer time, an all-day fair, a
// series' occurrences), and with tz the days of that zone; a window of more
// than 93 days is a 400 naming facets, an unknown zone one naming tz. The
// rules are app's (app/days_test.go).
func TestDayCountsOverHTTPAreWhatTheListHolds(t *testing.T) {
	t.Parallel()
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Fatal(err)
	}
	s := startServiceSettings(t, func(set *app.Settings) { set.TimeZone = berlin }, noConfig)
	s.event(at("Festival", "2027-03-26 18:00:00", "2027-03-29 02:00:00"))
	fair := at("Fair", "2027-03-28 00:00:00", "2027-03-28 23:59:59")
	fair["all_day"] = true
	s.event(fair)
	choir := at("Choir", "2027-03-24 19:00:00", "2027-03-24 21:00:00")
	choir["recurrence"] = []string{"RRULE:FREQ=WEEKLY;COUNT=2"} // the 24th and the 31st
	s.event(choir)
	window := "start_date=2027-03-01&end_date=2027-03-31"
	res := s.do("GET", eventsPath+"?"+window+"&facets=days&per_page=50")
	res.expectStatus(t, http.StatusOK)
	answer := res.object(t)
	var listed []app.EventView
	for _, e := range answer["events"].([]any) {
		event := e.(map[string]any)
		listed = append(listed, app.EventView{StartDate: event["start_date"].(string), EndDate: event["end_date"].(string)})
	}
	fromList := countDays(t, listed)
	days := answer["days"].([]any)
	if len(days) != 31 || len(listed) != 4 {
		t.Fatalf("%d days, %d events", len(days), len(listed))
	}
	want := map[string]int{"2027-03-24": 1, "2027-03-26": 1, "2027-03-27": 1, "2027-03-28": 2, "2027-03-29": 1, "2027-03-31": 1}
	for _, d := range days {
		day := d.(map[string]any)
		date, count := day["date"].(string), int(day["count"].(float64))
		if count != want[date] || count != fromList[date] {
			t.Errorf("%s: %d, want %d (the list holds %d)", date, count, want[date], fromList[date])
		}
	}
	zoned := s.do("GET", eventsPath+"?"+window+"&facets=days&tz=Pacific/Auckland")
	zoned.expectStatus(t, http.StatusOK)
	// In Auckland, 13 hours ahead: the festival from the 27th to the 29th,
	// the fair on its own date, the choir on the 25th (and on April 1st).
	inAuckland := map[string]int{"2027-03-25": 1, "2027-03-27": 1, "2027-03-28": 2, "2027-03-29": 1}
	for _, d := range zoned.object(t)["days"].([]any) {
		day := d.(map[string]any)
		if date, count := day["date"].(string), int(day["count"].(float64)); count != inAuckland[date] {
			t.Errorf("%s in Auckland: %d, want %d", date, count, inAuckland[date])
		}
	}
	for query, param := range map[string]string{
		"start_date=2027-01-01&end_date=2027-04-04&facets=days": "facets",
		window + "&facets=days&tz=Mars/Olympus_Mons":            "tz",
	} {
		refused := s.do("GET", eventsPath+"?"+query).expectError(t, http.StatusBadRequest, "rest_invalid_param")
		if params, _ := refused["data"].(map[string]any)["params"].(map[string]any); params[param] == nil {
			t.Errorf("the 400 does not name %s: %v", param, refused)
		}
	}
}

// countDays counts listed events on each day their shown local times cover.
func countDays(t *testing.T, events []app.EventView) map[string]int {
	t.Helper()
	out := map[string]int{}
	for _, e := range events {
		start, err1 := time.Parse(app.DateFormat, e.StartDate)
		end, err2 := time.Parse(app.DateFormat, e.EndDate)
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		first := start.Truncate(24 * time.Hour)
		for day := first; day.Equal(first) || day.Before(end); day = day.AddDate(0, 0, 1) {
			out[day.Format(time.DateOnly)]++
		}
	}
	return out
}

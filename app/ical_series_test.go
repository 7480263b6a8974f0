package app_test

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-ical"
	"github.com/teambition/rrule-go"

	"calendar/app"
	"calendar/app/calendar"
)

// The iCalendar export of recurring events. The series and their occurrences
// are written straight into the store (and the index caught up), as the
// recurrence code would leave them, so the feed is tested on its own.

var icalParis = icalZone("Europe/Paris")

func icalZone(name string) *time.Location {
	loc, err := time.LoadLocation(name)
	if err != nil {
		panic(err)
	}
	return loc
}

// at is a wall-clock time in Paris: "2027-10-12 20:00".
func icalAt(s string) time.Time {
	t, err := time.ParseInLocation("2006-01-02 15:04", s, icalParis)
	if err != nil {
		panic(err)
	}
	return t
}

// insert stores event posts as given (published by the administrator unless
// they say otherwise) and lets the index see them.
func (w *world) icalInsert(posts ...*calendar.Post) {
	w.t.Helper()
	for _, p := range posts {
		p.Type = calendar.PostTypeEvent
		if p.Status == "" {
			p.Status = calendar.StatusPublish
		}
		if p.Author == 0 {
			p.Author = w.admin().User.ID
		}
		if p.TimeZone == "" {
			p.TimeZone = "Europe/Paris"
		}
		p.Slug = fmt.Sprintf("%s-%d", strings.ToLower(strings.Fields(p.Title)[0]), p.Start.Unix())
		p.Date, p.Modified = icalAt("2027-01-01 09:00"), icalAt("2027-01-01 09:00")
		p.Start, p.End = p.Start.UTC(), p.End.UTC()
		w.must(w.store.Posts().Insert(w.ctx, p))
	}
	_, err := w.app.CatchUp(w.ctx)
	w.must(err)
}

// occurrence is a copy of the series at start (its Occurrence), as the rules
// make it.
func icalOccurrence(series *calendar.Post, start time.Time) *calendar.Post {
	return &calendar.Post{Title: series.Title, Start: start, End: start.Add(series.End.Sub(series.Start)),
		AllDay: series.AllDay, TimeZone: series.TimeZone, Parent: series.ID, Occurrence: start.UTC(), Status: series.Status, Author: series.Author}
}

// feed is the caller's feed of the window, decoded.
func (w *world) icalFeed(caller app.Caller, from, to string) ([]ical.Event, string) {
	w.t.Helper()
	f, err := w.app.Events.Feed(w.ctx, caller, app.EventFilter{Dates: app.Dates{"start_date": from, "end_date": to}})
	w.must(err)
	cal, err := ical.NewDecoder(bytes.NewReader(f.Body)).Decode()
	if err != nil {
		w.t.Fatalf("the feed does not parse: %v\n%s", err, f.Body)
	}
	return cal.Events(), string(f.Body)
}

func icalValue(e ical.Event, name string) string {
	if p := e.Props.Get(name); p != nil {
		return p.Value
	}
	return ""
}

// line is a property as a content line, for rrule-go.
func icalLine(p ical.Prop) string {
	var b strings.Builder
	b.WriteString(p.Name)
	for _, name := range slices.Sorted(func(yield func(string) bool) {
		for k := range p.Params {
			if !yield(k) {
				return
			}
		}
	}) {
		b.WriteString(";" + name + "=" + strings.Join(p.Params[name], ","))
	}
	return b.String() + ":" + p.Value
}

// icalExpand reads a series' VEVENT as a calendar would: DTSTART, RRULE, RDATE,
// EXDATE into rrule-go, every start.
func icalExpand(t *testing.T, e ical.Event) []time.Time {
	t.Helper()
	start := *e.Props.Get(ical.PropDateTimeStart)
	if start.Params.Get(ical.ParamValue) == "DATE" {
		start.Params = nil // rrule-go reads a bare date in the default zone
	}
	lines := []string{icalLine(start)}
	for _, name := range []string{ical.PropRecurrenceRule, ical.PropRecurrenceDates, ical.PropExceptionDates} {
		for _, p := range e.Props.Values(name) {
			lines = append(lines, icalLine(p))
		}
	}
	set, err := rrule.StrSliceToRRuleSetInLoc(lines, icalParis)
	if err != nil {
		t.Fatalf("%v: %q", err, lines)
	}
	return set.All()
}

func icalLocalTimes(ts []time.Time) string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = t.In(icalParis).Format("2006-01-02 15:04")
	}
	return strings.Join(out, ", ")
}

func icalUID(id int64) string { return strconv.FormatInt(id, 10) + "@x" }

// A weekly series across the end of summer time: one VEVENT with its rules,
// the excluded start and the EXDATE sent in UTC as local EXDATEs in its zone,
// the moved occurrence as an exception under its UID; nothing else.
func TestIcalWritesASeriesOnceWithItsRulesAndItsException(t *testing.T) {
	w := newWorld(t)
	series := &calendar.Post{Title: "Weekly talk", Start: icalAt("2027-10-12 20:00"), End: icalAt("2027-10-12 22:00"),
		Recurrence: []string{"RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=8", "RDATE:20271208T200000", "EXDATE:20271123T190000Z"},
		Excluded:   []time.Time{icalAt("2027-10-26 20:00").UTC()}, MaterializedUntil: icalAt("2027-12-08 20:00").UTC()}
	w.icalInsert(series)
	var occurrences []*calendar.Post
	for _, day := range []string{"2027-10-19", "2027-11-02", "2027-11-16", "2027-11-30", "2027-12-08"} {
		occurrences = append(occurrences, icalOccurrence(series, icalAt(day+" 20:00")))
	}
	moved := icalOccurrence(series, icalAt("2027-11-09 20:00"))
	moved.Title, moved.Start, moved.End, moved.Detached = "Weekly talk, later", icalAt("2027-11-09 21:00"), icalAt("2027-11-09 23:00"), true
	w.icalInsert(append(occurrences, moved)...)

	events, body := w.icalFeed(w.admin(), "2027-10-01", "2027-12-31")
	if len(events) != 2 {
		t.Fatalf("%d VEVENTs, want the series and its exception:\n%s", len(events), body)
	}
	main, exception := events[0], events[1]
	if icalValue(main, ical.PropUID) != icalUID(series.ID) || icalValue(main, ical.PropRecurrenceRule) != "FREQ=WEEKLY;BYDAY=TU;COUNT=8" ||
		main.Props.Get(ical.PropRecurrenceID) != nil {
		t.Fatalf("the series is not written with its rules:\n%s", body)
	}
	if p := main.Props.Get(ical.PropDateTimeStart); p.Params.Get(ical.ParamTimezoneID) != "Europe/Paris" || p.Value != "20271012T200000" {
		t.Fatalf("DTSTART = %s", icalLine(*p))
	}
	if got := icalLine(*main.Props.Get(ical.PropExceptionDates)); got != "EXDATE;TZID=Europe/Paris:20271026T200000,20271123T200000" {
		t.Fatalf("EXDATE = %s", got)
	}
	if got := icalLine(*main.Props.Get(ical.PropRecurrenceDates)); got != "RDATE;TZID=Europe/Paris:20271208T200000" {
		t.Fatalf("RDATE = %s", got)
	}
	starts := icalExpand(t, main)
	if got, want := icalLocalTimes(starts), "2027-10-12 20:00, 2027-10-19 20:00, 2027-11-02 20:00, 2027-11-09 20:00, 2027-11-16 20:00, 2027-11-30 20:00, 2027-12-08 20:00"; got != want {
		t.Fatalf("the rules give %s, want %s", got, want)
	}
	if _, offset := starts[0].In(icalParis).Zone(); offset != 7200 { // summer time, then winter time, both at 20:00
		t.Fatalf("the first start is not in summer time: %v", starts[0])
	}
	if _, offset := starts[2].In(icalParis).Zone(); offset != 3600 {
		t.Fatalf("a November start is not in winter time: %v", starts[2])
	}

	if icalValue(exception, ical.PropUID) != icalUID(series.ID) || exception.Props.Get(ical.PropRecurrenceRule) != nil {
		t.Fatalf("the exception is not under the series' UID:\n%s", body)
	}
	if got := icalLine(*exception.Props.Get(ical.PropRecurrenceID)); got != "RECURRENCE-ID;TZID=Europe/Paris:20271109T200000" {
		t.Fatalf("RECURRENCE-ID = %s", got)
	}
	summary, _ := exception.Props.Text(ical.PropSummary)
	if got := icalLine(*exception.Props.Get(ical.PropDateTimeStart)); got != "DTSTART;TZID=Europe/Paris:20271109T210000" || summary != "Weekly talk, later" {
		t.Fatalf("the exception is not as edited: %s, %s", got, summary)
	}
	if !strings.Contains(body, "BEGIN:VTIMEZONE\r\nTZID:Europe/Paris\r\n") || strings.Count(body, "BEGIN:VTIMEZONE") != 1 {
		t.Fatalf("no single VTIMEZONE for the series' zone:\n%s", body)
	}
}

// An all-day series: its rules' dates are DATE values, and an UNTIL sent in
// UTC becomes the date it falls on in the series' zone, as RFC 5545 asks
// beside a DATE DTSTART.
func TestIcalAnAllDaySeriesHasDateValues(t *testing.T) {
	w := newWorld(t)
	series := &calendar.Post{Title: "Fair", AllDay: true, Start: icalAt("2027-03-01 00:00"), End: icalAt("2027-03-01 00:00").Add(24*time.Hour - time.Second),
		Recurrence: []string{"RRULE:FREQ=DAILY;UNTIL=20270310T230000Z", "RDATE;VALUE=DATE:20270320", "EXDATE:20270305T000000"},
		Excluded:   []time.Time{icalAt("2027-03-07 00:00").UTC()}}
	w.icalInsert(series)
	w.icalInsert(icalOccurrence(series, icalAt("2027-03-02 00:00")), icalOccurrence(series, icalAt("2027-03-20 00:00")))

	events, body := w.icalFeed(w.admin(), "2027-03-01", "2027-03-31")
	if len(events) != 1 {
		t.Fatalf("%d VEVENTs, want the series:\n%s", len(events), body)
	}
	e := events[0]
	for name, want := range map[string]string{
		ical.PropDateTimeStart:   "DTSTART;VALUE=DATE:20270301",
		ical.PropDateTimeEnd:     "DTEND;VALUE=DATE:20270302",
		ical.PropRecurrenceRule:  "RRULE:FREQ=DAILY;UNTIL=20270311",
		ical.PropRecurrenceDates: "RDATE;VALUE=DATE:20270320",
		ical.PropExceptionDates:  "EXDATE;VALUE=DATE:20270305,20270307",
	} {
		if got := icalLine(*e.Props.Get(name)); got != want {
			t.Fatalf("%s, want %s", got, want)
		}
	}
	if got, want := icalLocalTimes(icalExpand(t, e)), "2027-03-01 00:00, 2027-03-02 00:00, 2027-03-03 00:00, 2027-03-04 00:00, 2027-03-06 00:00, 2027-03-08 00:00, 2027-03-09 00:00, 2027-03-10 00:00, 2027-03-11 00:00, 2027-03-20 00:00"; got != want {
		t.Fatalf("the rules give %s, want %s", got, want)
	}
	if strings.Contains(body, "BEGIN:VTIMEZONE\r\nTZID:Europe/Paris") {
		t.Fatalf("an all-day series needs no zone:\n%s", body)
	}
}

// A series the caller may not read (another author's draft) lends its
// published occurrences nothing: each is an event of its own, without rules
// or RECURRENCE-ID. Who may read it gets the series and its exception.
func TestIcalAnOccurrenceOfASeriesTheCallerMayNotReadIsAPlainEvent(t *testing.T) {
	w := newWorld(t)
	author := w.callers[calendar.RoleAuthor].User.ID
	series := &calendar.Post{Title: "Draft series", Status: calendar.StatusDraft, Author: author, Start: icalAt("2027-05-04 18:00"), End: icalAt("2027-05-04 19:00"),
		Recurrence: []string{"RRULE:FREQ=WEEKLY;COUNT=4"}}
	w.icalInsert(series)
	plain := icalOccurrence(series, icalAt("2027-05-11 18:00"))
	edited := icalOccurrence(series, icalAt("2027-05-18 18:00"))
	edited.Detached, edited.Title = true, "Draft series, edited"
	plain.Status, edited.Status = calendar.StatusPublish, calendar.StatusPublish
	w.icalInsert(plain, edited)

	for name, caller := range map[string]app.Caller{"visitor": visitor, "contributor": w.callers[calendar.RoleContributor]} {
		events, body := w.icalFeed(caller, "2027-05-01", "2027-05-31")
		if len(events) != 2 || icalValue(events[0], ical.PropUID) != icalUID(plain.ID) || icalValue(events[1], ical.PropUID) != icalUID(edited.ID) {
			t.Fatalf("%s: want the two occurrences as events of their own:\n%s", name, body)
		}
		for _, e := range events {
			for _, prop := range []string{ical.PropRecurrenceRule, ical.PropRecurrenceID, ical.PropRecurrenceDates, ical.PropExceptionDates} {
				if e.Props.Get(prop) != nil {
					t.Fatalf("%s: %s on an occurrence of an unreadable series:\n%s", name, prop, body)
				}
			}
		}
	}

	events, body := w.icalFeed(w.admin(), "2027-05-01", "2027-05-31")
	if len(events) != 2 || icalValue(events[0], ical.PropRecurrenceRule) == "" || icalValue(events[1], ical.PropRecurrenceID) != "20270518T180000" ||
		icalValue(events[0], ical.PropUID) != icalUID(series.ID) || icalValue(events[1], ical.PropUID) != icalUID(series.ID) {
		t.Fatalf("the administrator gets the series and its exception:\n%s", body)
	}
}

// A series whose first date is before the window is written once, however
// many of its occurrences the window holds, its exceptions after it (even one
// listed before the rest), and its zone is described up to the end of its
// made occurrences.
func TestIcalASeriesStartedBeforeTheWindowIsWrittenOnce(t *testing.T) {
	w := newWorld(t)
	series := &calendar.Post{Title: "Open-ended", Start: icalAt("2027-01-05 12:30"), End: icalAt("2027-01-05 13:30"),
		Recurrence: []string{"RRULE:FREQ=WEEKLY"}, MaterializedUntil: icalAt("2029-01-09 12:30").UTC()}
	w.icalInsert(series)
	var occurrences []*calendar.Post
	for t := icalAt("2027-01-12 12:30"); t.Before(icalAt("2027-07-01 00:00")); t = t.AddDate(0, 0, 7) {
		o := icalOccurrence(series, t)
		if t.Equal(icalAt("2027-04-06 12:30")) { // the first of the window, edited
			o.Detached, o.Title = true, "Open-ended, special guest"
		}
		occurrences = append(occurrences, o)
	}
	w.icalInsert(occurrences...)
	other := &calendar.Post{Title: "One-off", Start: icalAt("2027-04-15 10:00"), End: icalAt("2027-04-15 11:00")}
	w.icalInsert(other)

	events, body := w.icalFeed(visitor, "2027-04-01", "2027-05-31")
	if len(events) != 3 || icalValue(events[0], ical.PropUID) != icalUID(series.ID) || icalValue(events[2], ical.PropUID) != icalUID(other.ID) {
		t.Fatalf("want the series once, then the one-off:\n%s", body)
	}
	if icalValue(events[1], ical.PropUID) != icalUID(series.ID) || icalValue(events[1], ical.PropRecurrenceID) != "20270406T123000" {
		t.Fatalf("the exception, listed first, does not follow its series:\n%s", body)
	}
	if icalValue(events[0], ical.PropDateTimeStart) != "20270105T123000" || icalValue(events[0], ical.PropRecurrenceRule) != "FREQ=WEEKLY" {
		t.Fatalf("the series is not written from its first date:\n%s", body)
	}
	for _, change := range []string{"DTSTART:20270328T020000", "DTSTART:20281029T030000"} { // summer time 2027, winter time 2028
		if !strings.Contains(body, change) {
			t.Fatalf("the zone is not described up to the end of the series (%s):\n%s", change, body)
		}
	}
}

// What the rules no longer give as it is: an occurrence kept at an earlier
// schedule is an exception; one whose start they do not give (or exclude) is
// an event of its own, as is an exception when nothing else of its series is
// in the feed.
func TestIcalOccurrencesTheRulesDoNotGiveAsTheyAre(t *testing.T) {
	w := newWorld(t)
	series := &calendar.Post{Title: "Club", Start: icalAt("2027-06-01 19:00"), End: icalAt("2027-06-01 20:00"),
		Recurrence: []string{"RRULE:FREQ=WEEKLY;COUNT=10"}, Excluded: []time.Time{icalAt("2027-06-22 19:00").UTC()}}
	w.icalInsert(series)
	kept := icalOccurrence(series, icalAt("2027-06-08 19:00"))
	kept.Start, kept.End = icalAt("2027-06-08 20:00"), icalAt("2027-06-08 21:00") // the schedule it had
	stray := icalOccurrence(series, icalAt("2027-06-10 19:00"))                   // not a Tuesday
	excluded := icalOccurrence(series, icalAt("2027-06-22 19:00"))
	later := icalOccurrence(series, icalAt("2027-08-03 19:00"))
	later.Detached, later.Title = true, "Club, outdoors"
	w.icalInsert(kept, stray, excluded, later)

	events, body := w.icalFeed(w.admin(), "2027-06-01", "2027-06-30")
	want := []string{icalUID(series.ID) + " rules", icalUID(series.ID) + " 20270608T190000", icalUID(stray.ID), icalUID(excluded.ID)}
	var got []string
	for _, e := range events {
		switch {
		case e.Props.Get(ical.PropRecurrenceRule) != nil:
			got = append(got, icalValue(e, ical.PropUID)+" rules")
		case e.Props.Get(ical.PropRecurrenceID) != nil:
			got = append(got, icalValue(e, ical.PropUID)+" "+icalValue(e, ical.PropRecurrenceID))
		default:
			got = append(got, icalValue(e, ical.PropUID))
		}
	}
	if !slices.Equal(got, want) {
		t.Fatalf("%v, want %v:\n%s", got, want, body)
	}

	events, body = w.icalFeed(w.admin(), "2027-07-01", "2027-08-31")
	if len(events) != 1 || icalValue(events[0], ical.PropUID) != icalUID(later.ID) || events[0].Props.Get(ical.PropRecurrenceID) != nil {
		t.Fatalf("an exception alone is an event of its own:\n%s", body)
	}
}

//go:build ignore

// generate writes oracle.json: recurrence rules, each with a DTSTART, a
// window and a limit, and the starts rrule-go gives for them, as the
// service read them before package recur (an rrule.Set of the one rule,
// with UNTIL cut at the window's end). TestExpandAgreesWithRRuleGo compares
// Expand with it without running rrule-go, which never returns on some
// rules. Regenerate, from the module root, with
//
//	go run ./app/recur/testdata/generate.go
//
// The rules are fixed examples (most from RFC 5545, 3.8.5.3) and random
// combinations of every BYxxx part from a fixed seed, so the table only
// changes when this program or rrule-go does. Rules rrule-go never returns
// on (an HOURLY or MINUTELY BYHOUR or BYMINUTE its INTERVAL never reaches),
// takes up to a minute on (an HOURLY or MINUTELY BYSETPOS beyond every
// step) or panics on (ordinals beyond a month) are left out and counted;
// package recur's own tests pin what Expand does with them.
package main

import (
	"encoding/json"
	"fmt"
	"log"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/teambition/rrule-go"
)

// oracleCase is one line of oracle.json.
type oracleCase struct {
	Rule    string   `json:"rule"`    // an RRULE value
	Zone    string   `json:"zone"`    // DTSTART's zone
	DTStart string   `json:"dtstart"` // its wall clock, read by time.ParseInLocation
	After   string   `json:"after"`   // the window, RFC 3339
	Until   string   `json:"until"`
	Limit   int      `json:"limit"`
	Want    []string `json:"want,omitempty"` // RFC 3339 in Zone
	Invalid bool     `json:"invalid,omitempty"`
}

const wallClock = "2006-01-02T15:04:05"

// starts are DTSTARTs at the edges a rule can trip on: ends of months and
// years, a leap day, a year of 53 ISO weeks, and the days around each DST
// change of Paris and New York (02:30 on a spring-forward day does not
// exist; 01:30 or 02:30 on a fall-back day exists twice).
var starts = []struct{ zone, wall string }{
	{"UTC", "2024-01-31T09:00:00"},
	{"UTC", "2023-12-28T18:30:15"},
	{"UTC", "2024-02-29T00:00:00"},
	{"UTC", "2020-12-31T12:00:00"},
	{"Europe/Paris", "2024-03-30T22:30:00"},
	{"Europe/Paris", "2024-03-31T02:30:00"},
	{"Europe/Paris", "2024-10-26T02:30:00"},
	{"America/New_York", "2024-03-09T01:30:00"},
	{"America/New_York", "2024-03-10T02:30:00"},
	{"America/New_York", "2024-11-02T23:00:00"},
	{"America/New_York", "2024-11-03T01:30:00"},
	{"Australia/Sydney", "2024-04-06T02:30:00"},
}

// examples are rules worth having from every DTSTART.
var examples = []string{
	"FREQ=DAILY;COUNT=10",
	"FREQ=DAILY;INTERVAL=2",
	"FREQ=DAILY;INTERVAL=10;COUNT=5",
	"FREQ=YEARLY;BYMONTH=1;BYDAY=SU,MO,TU,WE,TH,FR,SA",
	"FREQ=DAILY;BYMONTH=1",
	"FREQ=WEEKLY;COUNT=10",
	"FREQ=WEEKLY;INTERVAL=2;WKST=SU",
	"FREQ=WEEKLY;BYDAY=TU,TH;COUNT=10;WKST=SU",
	"FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,WE,FR;WKST=SU",
	"FREQ=WEEKLY;INTERVAL=2;COUNT=4;BYDAY=TU,SU;WKST=MO",
	"FREQ=WEEKLY;INTERVAL=2;COUNT=4;BYDAY=TU,SU;WKST=SU",
	"FREQ=WEEKLY;BYDAY=MO,WE,FR;BYSETPOS=1",
	"FREQ=WEEKLY;BYDAY=SA,SU;BYHOUR=8,20;BYSETPOS=-1",
	"FREQ=MONTHLY;COUNT=10;BYDAY=1FR",
	"FREQ=MONTHLY;INTERVAL=2;COUNT=10;BYDAY=1SU,-1SU",
	"FREQ=MONTHLY;COUNT=6;BYDAY=-2MO",
	"FREQ=MONTHLY;BYMONTHDAY=-3",
	"FREQ=MONTHLY;COUNT=10;BYMONTHDAY=2,15",
	"FREQ=MONTHLY;COUNT=10;BYMONTHDAY=1,-1",
	"FREQ=MONTHLY;INTERVAL=18;COUNT=10;BYMONTHDAY=10,11,12,13,14,15",
	"FREQ=MONTHLY;INTERVAL=2;BYDAY=TU",
	"FREQ=MONTHLY;BYMONTHDAY=31",
	"FREQ=MONTHLY;BYMONTHDAY=15,30;COUNT=5",
	"FREQ=MONTHLY;BYDAY=FR;BYMONTHDAY=13",
	"FREQ=MONTHLY;BYDAY=SA;BYMONTHDAY=7,8,9,10,11,12,13",
	"FREQ=MONTHLY;COUNT=3;BYDAY=TU,WE,TH;BYSETPOS=3",
	"FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-2",
	"FREQ=MONTHLY;BYDAY=MO,1TU",
	"FREQ=MONTHLY;BYDAY=5FR,-5MO",
	"FREQ=YEARLY;COUNT=10;BYMONTH=6,7",
	"FREQ=YEARLY;INTERVAL=2;COUNT=10;BYMONTH=1,2,3",
	"FREQ=YEARLY;INTERVAL=3;COUNT=10;BYYEARDAY=1,100,200",
	"FREQ=YEARLY;BYYEARDAY=-1,-366,366",
	"FREQ=YEARLY;BYDAY=20MO",
	"FREQ=YEARLY;BYDAY=-1SU,53MO,-53TH",
	"FREQ=YEARLY;BYMONTH=3,10;BYDAY=-1SU",
	"FREQ=YEARLY;BYWEEKNO=20;BYDAY=MO",
	"FREQ=YEARLY;BYWEEKNO=1,52,53,-1;BYDAY=MO,SU",
	"FREQ=YEARLY;BYWEEKNO=1,52,53,-1;BYDAY=MO,SU;WKST=SU",
	"FREQ=YEARLY;BYMONTH=3;BYDAY=TH",
	"FREQ=YEARLY;BYDAY=TH;BYMONTH=6,7,8",
	"FREQ=YEARLY;INTERVAL=4;BYMONTH=11;BYDAY=TU;BYMONTHDAY=2,3,4,5,6,7,8",
	"FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29",
	"FREQ=YEARLY;BYSETPOS=1,-1;BYMONTH=1,2;BYHOUR=8,9",
	"FREQ=DAILY;BYWEEKNO=53",
	"FREQ=DAILY;BYWEEKNO=52;WKST=SU",
	"FREQ=DAILY;BYWEEKNO=1,-1",
	"FREQ=WEEKLY;BYWEEKNO=1,53;BYDAY=MO,SU",
	"FREQ=WEEKLY;BYWEEKNO=-1,1;BYDAY=TU,FR;WKST=SU",
	"FREQ=DAILY;BYHOUR=9,10,11,12,13,14,15,16;BYMINUTE=0,20,40",
	"FREQ=DAILY;BYHOUR=2,3;BYMINUTE=0,30",
	"FREQ=DAILY;BYHOUR=9,9;COUNT=4",
	"FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30",
	"FREQ=HOURLY",
	"FREQ=HOURLY;INTERVAL=3;COUNT=20",
	"FREQ=HOURLY;BYDAY=SA,SU",
	"FREQ=HOURLY;INTERVAL=5;BYHOUR=1,2",
	"FREQ=HOURLY;BYMINUTE=0,30;BYSETPOS=2",
	"FREQ=MINUTELY;INTERVAL=15;COUNT=6",
	"FREQ=MINUTELY;INTERVAL=90;COUNT=4",
	"FREQ=MINUTELY;INTERVAL=20;BYHOUR=9,10,11,12,13,14,15,16",
	"FREQ=MINUTELY;INTERVAL=30;BYHOUR=1,2,3",
	"FREQ=MINUTELY;INTERVAL=7;BYDAY=MO;BYHOUR=9",
	"FREQ=MINUTELY;INTERVAL=1441;COUNT=5",
	"FREQ=MINUTELY;BYMONTH=2;BYMONTHDAY=30",
}

// invalid are rules rrule.NewRRule refuses.
var invalid = []string{
	"FREQ=DAILY;BYHOUR=24",
	"FREQ=MONTHLY;BYMONTHDAY=0",
	"FREQ=YEARLY;BYWEEKNO=54",
	"FREQ=MONTHLY;BYDAY=54MO",
	"FREQ=DAILY;BYSECOND=60",
	"FREQ=DAILY;INTERVAL=-1",
}

// edges are rules from DTSTARTs chosen for them: the turns of the years
// for week numbers (both ways rrule-go counts the last week of a year, see
// weeksBefore in package recur), an UNTIL in a DST gap, and each weekday of
// a week for the first, partial, WEEKLY period.
func edges() []struct{ rule, zone, wall string } {
	var out []struct{ rule, zone, wall string }
	for y := 2009; y <= 2024; y++ {
		for _, wkst := range []string{"MO", "SU"} {
			wall := fmt.Sprintf("%d-12-24T10:00:00", y-1)
			for _, rule := range []string{
				"FREQ=DAILY;BYWEEKNO=52;WKST=" + wkst,
				"FREQ=DAILY;BYWEEKNO=53;WKST=" + wkst,
				"FREQ=DAILY;BYWEEKNO=-1;WKST=" + wkst,
				"FREQ=DAILY;BYWEEKNO=1;WKST=" + wkst,
				"FREQ=WEEKLY;BYWEEKNO=1,-1,53;BYDAY=MO,TH,SU;WKST=" + wkst,
			} {
				out = append(out, struct{ rule, zone, wall string }{rule, "UTC", wall})
			}
		}
	}
	// UNTIL between two starts that the spring-forward gap puts in reverse
	// order (02:03 in New York is read as 01:03 EST): the first start after
	// UNTIL ends the rule, later ones before it are not given.
	for _, rule := range []string{
		"FREQ=MINUTELY;INTERVAL=7;UNTIL=20240310T063000Z",
		"FREQ=HOURLY;BYMINUTE=10,50;UNTIL=20240310T063000Z",
		"FREQ=DAILY;BYHOUR=1,2;BYMINUTE=10,50;UNTIL=20240310T063000Z",
	} {
		out = append(out, struct{ rule, zone, wall string }{rule, "America/New_York", "2024-03-10T01:00:00"})
	}
	for d := 6; d <= 12; d++ {
		wall := fmt.Sprintf("2024-05-%02dT08:00:00", d)
		for _, rule := range []string{
			"FREQ=WEEKLY;BYDAY=MO,WE,FR;BYSETPOS=1,-1",
			"FREQ=WEEKLY;INTERVAL=2;BYDAY=TU,SA;BYSETPOS=2;WKST=SU",
		} {
			out = append(out, struct{ rule, zone, wall string }{rule, "Europe/Paris", wall})
		}
	}
	return out
}

// windows is how far each frequency's window reaches from DTSTART.
var windows = map[string]time.Duration{
	"YEARLY":   40 * 366 * 24 * time.Hour,
	"MONTHLY":  6 * 366 * 24 * time.Hour,
	"WEEKLY":   3 * 366 * 24 * time.Hour,
	"DAILY":    2 * 366 * 24 * time.Hour,
	"HOURLY":   30 * 24 * time.Hour,
	"MINUTELY": 3 * 24 * time.Hour,
}

var frequencies = []string{"YEARLY", "MONTHLY", "WEEKLY", "DAILY", "HOURLY", "MINUTELY"}

func main() {
	rng := rand.New(rand.NewPCG(5545, 3310))
	var cases []oracleCase
	seen := map[string]bool{}
	left := map[string]int{}
	add := func(rule string, start int, afterShare float64, limit int) {
		s := starts[start]
		c, why := expected(rule, s.zone, s.wall, afterShare, limit)
		if why != "" {
			left[why]++
			return
		}
		key := c.Rule + c.Zone + c.DTStart + c.After + c.Until
		if !seen[key] {
			seen[key] = true
			cases = append(cases, c)
		}
	}
	for i, rule := range examples {
		for j := range starts {
			// Every DTSTART for the DST ones, a few for the rest.
			if starts[j].zone == "UTC" && (i+j)%4 != 0 {
				continue
			}
			add(rule, j, 0, 8)
		}
		add(rule, rng.IntN(len(starts)), 0.3+0.4*rng.Float64(), 6)
	}
	for _, rule := range invalid {
		add(rule, 0, 0, 12)
	}
	for _, e := range edges() {
		c, why := expected(e.rule, e.zone, e.wall, 0, 10)
		if why != "" {
			log.Fatalf("%s: %s", e.rule, why)
		}
		cases = append(cases, c)
	}
	for range 400 {
		freq := frequencies[rng.IntN(len(frequencies))]
		start := rng.IntN(len(starts))
		afterShare := 0.0
		if rng.IntN(4) == 0 {
			afterShare = 0.2 + 0.6*rng.Float64()
		}
		limit := 10
		if rng.IntN(5) == 0 {
			limit = 1 + rng.IntN(4)
		}
		add(randomRule(rng, freq, starts[start]), start, afterShare, limit)
	}

	var b strings.Builder
	b.WriteString("[\n")
	for i, c := range cases {
		line, err := json.Marshal(c)
		if err != nil {
			log.Fatal(err)
		}
		b.Write(line)
		if i < len(cases)-1 {
			b.WriteString(",")
		}
		b.WriteString("\n")
	}
	b.WriteString("]\n")
	_, self, _, _ := runtime.Caller(0)
	out := filepath.Join(filepath.Dir(self), "oracle.json")
	if err := os.WriteFile(out, []byte(b.String()), 0o644); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%d cases in %s; left out: %v\n", len(cases), out, left)
}

// expected runs rrule-go on one rule, as the service did. A rule it never
// returns on, or panics on, gives a reason instead of a case.
func expected(rule, zone, wall string, afterShare float64, limit int) (c oracleCase, why string) {
	loc, err := time.LoadLocation(zone)
	if err != nil {
		log.Fatal(err)
	}
	dtstart, err := time.ParseInLocation(wallClock, wall, loc)
	if err != nil {
		log.Fatal(err)
	}
	freq, _, _ := strings.Cut(strings.TrimPrefix(rule, "FREQ="), ";")
	window := windows[freq]
	after := dtstart.Add(-time.Second)
	if afterShare > 0 {
		after = dtstart.Add(time.Duration(afterShare * float64(window))).Truncate(time.Minute)
	}
	until := dtstart.Add(window)
	c = oracleCase{Rule: rule, Zone: zone, DTStart: wall, After: after.Format(time.RFC3339), Until: until.Format(time.RFC3339), Limit: limit}
	opt, err := rrule.StrToROptionInLocation(rule, loc)
	if err != nil {
		log.Fatalf("%s: %v", rule, err)
	}
	if neverReached(opt, dtstart) {
		return c, "BYHOUR or BYMINUTE out of the INTERVAL's reach"
	}
	if setPosBeyondStep(opt) {
		return c, "BYSETPOS beyond every step (rrule-go visits each to 9999)"
	}
	opt.Dtstart = dtstart
	if opt.Until.IsZero() || opt.Until.After(until) {
		opt.Until = until
	}
	r, err := rrule.NewRRule(*opt)
	if err != nil {
		c.Invalid = true
		return c, ""
	}
	done := make(chan string, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				done <- "rrule-go panics"
			}
		}()
		set := &rrule.Set{}
		set.RRule(r)
		next := set.Iterator()
		for len(c.Want) < limit {
			t, ok := next()
			if !ok || t.After(until) {
				break
			}
			if t.After(after) {
				c.Want = append(c.Want, t.Format(time.RFC3339))
			}
		}
		done <- ""
	}()
	select {
	case why = <-done:
		return c, why
	case <-time.After(time.Minute):
		log.Fatalf("rrule-go does not return on %s from %s %s", rule, wall, zone)
		return
	}
}

// neverReached tells, by brute force, the HOURLY and MINUTELY rules whose
// BYHOUR or BYMINUTE no step from DTSTART lands on: rrule-go searches for
// such a step for ever. Steps repeat their time of day within 1440 of them.
func neverReached(opt *rrule.ROption, dtstart time.Time) bool {
	if (opt.Freq != rrule.HOURLY && opt.Freq != rrule.MINUTELY) || (len(opt.Byhour) == 0 && len(opt.Byminute) == 0) {
		return false
	}
	unit := 60
	if opt.Freq == rrule.HOURLY {
		unit = 3600
	}
	interval := max(opt.Interval, 1)
	h, m, _ := dtstart.Clock()
	minute := h*60 + m
	for range 1440 {
		hourOK := len(opt.Byhour) == 0 || slices.Contains(opt.Byhour, minute/60)
		minuteOK := opt.Freq == rrule.HOURLY || len(opt.Byminute) == 0 || slices.Contains(opt.Byminute, minute%60)
		if hourOK && minuteOK {
			return false
		}
		minute = (minute + interval*unit/60) % 1440
	}
	return true
}

// setPosBeyondStep tells the HOURLY and MINUTELY rules whose BYSETPOS
// positions all lie beyond the starts one step has: rrule-go visits every
// hour or minute up to the year 9999 on them, for up to a minute.
func setPosBeyondStep(opt *rrule.ROption) bool {
	if (opt.Freq != rrule.HOURLY && opt.Freq != rrule.MINUTELY) || len(opt.Bysetpos) == 0 {
		return false
	}
	n := max(len(opt.Bysecond), 1)
	if opt.Freq == rrule.HOURLY {
		n *= max(len(opt.Byminute), 1)
	}
	for _, p := range opt.Bysetpos {
		if p >= -n && p <= n {
			return false
		}
	}
	return true
}

// randomRule draws a rule of freq with some of every BYxxx part; ordinals
// stay within what rrule-go survives (it panics beyond a month).
func randomRule(rng *rand.Rand, freq string, start struct{ zone, wall string }) string {
	parts := []string{"FREQ=" + freq}
	maybe := func(p float64) bool { return rng.Float64() < p }
	pick := func(values []int, most int) string {
		n := 1 + rng.IntN(most)
		var out []string
		for _, i := range rng.Perm(len(values))[:min(n, len(values))] {
			out = append(out, fmt.Sprint(values[i]))
		}
		return strings.Join(out, ",")
	}
	fine := freq == "HOURLY" || freq == "MINUTELY"
	intervals := map[string][]int{
		"YEARLY": {2, 3, 4}, "MONTHLY": {2, 3, 5, 13}, "WEEKLY": {2, 3}, "DAILY": {2, 3, 10, 45},
		"HOURLY": {2, 3, 5, 7, 11, 25, 48, 49}, "MINUTELY": {2, 7, 15, 45, 59, 61, 90, 1439, 1441},
	}
	if maybe(0.4) {
		parts = append(parts, "INTERVAL="+pick(intervals[freq], 1))
	}
	if maybe(0.3) {
		parts = append(parts, fmt.Sprintf("COUNT=%d", 1+rng.IntN(25)))
	}
	if maybe(0.25) {
		loc, _ := time.LoadLocation(start.zone)
		t, _ := time.ParseInLocation(wallClock, start.wall, loc)
		t = t.Add(time.Duration(rng.Float64() * float64(windows[freq])))
		if maybe(0.5) {
			parts = append(parts, "UNTIL="+t.UTC().Format("20060102T150405Z"))
		} else {
			parts = append(parts, "UNTIL="+t.Format("20060102T150405"))
		}
	}
	if maybe(0.3) {
		parts = append(parts, "BYMONTH="+pick([]int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, 3))
	}
	if maybe(0.3) {
		parts = append(parts, "BYMONTHDAY="+pick([]int{1, 2, 15, 28, 29, 30, 31, -1, -2, -15, -28, -29, -30, -31}, 3))
	}
	if maybe(0.12) {
		parts = append(parts, "BYYEARDAY="+pick([]int{1, 2, 59, 60, 100, 200, 365, 366, -1, -2, -59, -60, -365, -366}, 3))
	}
	if maybe(0.12) {
		parts = append(parts, "BYWEEKNO="+pick([]int{1, 2, 10, 20, 26, 52, 53, -1, -2, -52, -53}, 3))
	}
	if maybe(0.45) {
		days := []string{"MO", "TU", "WE", "TH", "FR", "SA", "SU"}
		ordinals := []int{1, 2, 3, 4, 5, -1, -2, -5}
		if freq == "YEARLY" && !strings.Contains(strings.Join(parts, ";"), "BYMONTH=") {
			ordinals = []int{1, 2, 10, 20, 26, 52, 53, -1, -2, -10, -53}
		}
		n := 1 + rng.IntN(3)
		var out []string
		for _, i := range rng.Perm(7)[:n] {
			if maybe(0.5) {
				out = append(out, fmt.Sprintf("%d%s", ordinals[rng.IntN(len(ordinals))], days[i]))
			} else {
				out = append(out, days[i])
			}
		}
		parts = append(parts, "BYDAY="+strings.Join(out, ","))
	}
	if maybe(map[bool]float64{true: 0.5, false: 0.25}[fine]) {
		parts = append(parts, "BYHOUR="+pick([]int{0, 1, 2, 3, 8, 9, 12, 17, 23}, 3))
	}
	if maybe(map[bool]float64{true: 0.4, false: 0.2}[fine]) {
		parts = append(parts, "BYMINUTE="+pick([]int{0, 1, 15, 30, 45, 59}, 3))
	}
	if maybe(0.1) {
		parts = append(parts, "BYSECOND="+pick([]int{0, 30, 59}, 2))
	}
	if maybe(0.2) {
		parts = append(parts, "BYSETPOS="+pick([]int{1, 2, 3, -1, -2, -3, 5, 10, -10}, 2))
	}
	if maybe(0.3) {
		parts = append(parts, "WKST="+[]string{"SU", "MO"}[rng.IntN(2)])
	}
	return strings.Join(parts, ";")
}

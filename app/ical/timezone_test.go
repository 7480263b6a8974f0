package ical

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
	"time"
)

func mustZone(t testing.TB, name string) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation(name)
	if err != nil {
		t.Fatal(err)
	}
	return loc
}

// describedAtOnce is a zone's VTIMEZONE for sorted, distinct years as it
// was written before years were kept: each run's changes found over the
// run in one pass, led by the last change of the year before it (or the
// state on its first 1 January when that year has none).
func describedAtOnce(loc *time.Location, years []int) []byte {
	w := &Writer{}
	writeZoneFrame(w, loc.String(), func() {
		for i := 0; i < len(years); {
			j := i
			for j+1 < len(years) && years[j+1] == years[j]+1 {
				j++
			}
			start := time.Date(years[i], 1, 1, 0, 0, 0, 0, loc)
			opening := transition{at: start, from: stateAt(loc, start), to: stateAt(loc, start)}
			var kept []transition
			for _, c := range zoneTransitions(loc, time.Date(years[i]-1, 1, 1, 0, 0, 0, 0, loc), time.Date(years[j]+1, 1, 1, 0, 0, 0, 0, loc)) {
				if c.at.After(start) {
					kept = append(kept, c)
				} else {
					opening = c
				}
			}
			for _, c := range append([]transition{opening}, kept...) {
				writeObservance(w, c)
			}
			i = j + 1
		}
	})
	return w.Bytes()
}

func always(int, int) bool { return true }

func written(z *Zones) []byte {
	w := &Writer{}
	z.Write(w)
	return w.Bytes()
}

// A zone's years, however they are added (in any order, some again, runs
// joined by a later year), are described as its changes found over each
// run at once, and the bytes counted are the bytes written.
func TestAZoneIsDescribedAsItsChangesFoundAtOnce(t *testing.T) {
	t.Parallel()
	cases := []struct {
		zone  string
		years []int
	}{
		{"Europe/Paris", []int{1850, 1944, 1945, 2026, 2028, 2027, 2400}}, // from before its tz data to where its rule goes on alone
		{"America/Sao_Paulo", []int{2020, 2018, 2019, 2030}},              // summer time abolished in 2019
		{"Australia/Lord_Howe", []int{2027, 2029, 2028, 2400}},            // half-hour summer time
		{"Asia/Kolkata", []int{1942, 1945, 2027}},                         // war time, then none
		{"Europe/Dublin", []int{2026}},                                    // winter is its daylight-saving exception
	}
	for _, c := range cases {
		t.Run(c.zone, func(t *testing.T) {
			t.Parallel()
			loc := mustZone(t, c.zone)
			known := newYearBlocks(KeptZoneBytes)
			want := describedAtOnce(loc, slices.Sorted(slices.Values(c.years)))
			atOnce := newZones(known)
			atOnce.Grow([]ZoneYears{{loc, c.years}}, always)
			if got := written(atOnce); !bytes.Equal(got, want) || atOnce.bytes != len(got) {
				t.Fatalf("described as (%d bytes counted)\n%s\nwant\n%s", atOnce.bytes, got, want)
			}
			z := newZones(known)
			for i, y := range c.years { // one at a time, then all again
				if !z.Grow([]ZoneYears{{loc, []int{y}}}, always) {
					t.Fatalf("year %d refused", y)
				}
				if got := written(z); z.bytes != len(got) {
					t.Fatalf("after %v: %d bytes counted, %d written", c.years[:i+1], z.bytes, len(got))
				}
			}
			z.Grow([]ZoneYears{{loc, c.years}}, always)
			if got := written(z); !bytes.Equal(got, want) {
				t.Fatalf("described as\n%s\nwant\n%s", got, want)
			}
		})
	}
}

// hostileYears are events in zones and years far apart: n zones, each with
// years drawn from 1900 to 2400.
func hostileYears(t testing.TB, zones []string, yearsEach int) []ZoneYears {
	rng := rand.New(rand.NewPCG(1, 2))
	var out []ZoneYears
	for _, name := range zones {
		loc := mustZone(t, name)
		for range yearsEach {
			out = append(out, ZoneYears{loc, []int{1900 + rng.IntN(501)}})
		}
	}
	return out
}

var someZones = []string{"Europe/Paris", "America/Sao_Paulo", "Australia/Lord_Howe", "Asia/Kolkata",
	"America/New_York", "Africa/Casablanca", "Pacific/Chatham", "Antarctica/Troll"}

// describe is a calendar of those years, an event at a time.
func describe(known *yearBlocks, events []ZoneYears) *Zones {
	z := newZones(known)
	for _, e := range events {
		z.Grow([]ZoneYears{e}, always)
	}
	return z
}

// A year of a zone is worked out once: the next calendar asking for the
// same zones and years works none out and is the same bytes.
func TestAYearOfAZoneIsWorkedOutOnce(t *testing.T) {
	t.Parallel()
	known := newYearBlocks(KeptZoneBytes)
	events := hostileYears(t, someZones, 6)
	first := describe(known, events)
	if got := known.computed.Load(); got != int64(first.years) {
		t.Fatalf("%d years worked out for a calendar of %d", got, first.years)
	}
	again := describe(known, events)
	if got := known.computed.Load(); got != int64(first.years) {
		t.Fatalf("the same calendar again worked out %d years more", got-int64(first.years))
	}
	if !bytes.Equal(written(first), written(again)) {
		t.Fatal("the same calendar again is not the same bytes")
	}
}

// What is kept stays within its budget in bytes (and so in entries), the
// least recently used years forgotten; a calendar written meanwhile keeps
// its own years and is still described right.
func TestTheYearsKeptAreBoundedInBytes(t *testing.T) {
	t.Parallel()
	const budget = 4 << 10
	known := newYearBlocks(budget)
	paris := mustZone(t, "Europe/Paris")
	var years []int
	for y := 2000; y < 2024; y += 2 {
		years = append(years, y)
	}
	z := describe(known, []ZoneYears{{paris, years}})
	if n := known.kept.Len(); n == 0 || n*blockOverhead > budget || n >= z.years {
		t.Fatalf("%d years kept of %d worked out, within %d bytes", n, z.years, budget)
	}
	if got, want := written(z), describedAtOnce(paris, years); !bytes.Equal(got, want) {
		t.Fatalf("described as\n%s\nwant\n%s", got, want)
	}
	oldest := zoneYear{"Europe/Paris", years[0] - 1}
	if _, ok := known.kept.Get(oldest); ok {
		t.Fatalf("the first year worked out is still kept")
	}
}

// Years refused for their number are not worked out, and a refusal, for
// years or for bytes, leaves the calendar as it was.
func TestGrowRefusesBeforeWorkingOut(t *testing.T) {
	t.Parallel()
	known := newYearBlocks(KeptZoneBytes)
	paris, kolkata := mustZone(t, "Europe/Paris"), mustZone(t, "Asia/Kolkata")
	z := describe(known, []ZoneYears{{paris, []int{2026, 2027}}})
	before, computed := written(z), known.computed.Load()
	if z.years != 3 {
		t.Fatalf("2026 and 2027 counted as %d years, want 3 (2025 opens them)", z.years)
	}
	more := []ZoneYears{{paris, []int{2028, 2030}}, {kolkata, []int{2027}}}
	var asked []string
	refuseYears := func(years, bytes int) bool {
		asked = append(asked, strconv.Itoa(years))
		return years <= 7
	}
	if z.Grow(more, refuseYears) || known.computed.Load() != computed || !slices.Equal(asked, []string{"8"}) {
		t.Fatalf("8 years refused: grown, or %d years worked out, or asked %v", known.computed.Load()-computed, asked)
	}
	refuseBytes := func(years, bytes int) bool { return bytes <= len(before) }
	if z.Grow(more, refuseBytes) {
		t.Fatal("grown past its bytes")
	}
	if !bytes.Equal(written(z), before) || z.years != 3 || z.bytes != len(before) {
		t.Fatalf("a refusal changed the calendar:\n%s", written(z))
	}
	if !z.Grow(more, always) || z.years != 8 {
		t.Fatalf("%d years, want 8: 2025 to 2030 of Paris, 2026 and 2027 of Kolkata", z.years)
	}
}

// A zone's changes found year by year are those found over the whole span.
func TestAZonesChangesAreTheSameYearByYear(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"Europe/Paris", "America/New_York", "Australia/Lord_Howe", "Asia/Tokyo"} {
		loc := mustZone(t, name)
		whole := zoneTransitions(loc, time.Date(2019, 1, 1, 0, 0, 0, 0, loc), time.Date(2031, 1, 1, 0, 0, 0, 0, loc))
		var byYear []transition
		for y := 2019; y <= 2030; y++ {
			byYear = append(byYear, zoneTransitions(loc, time.Date(y, 1, 1, 0, 0, 0, 0, loc), time.Date(y+1, 1, 1, 0, 0, 0, 0, loc))...)
		}
		if !slices.Equal(whole, byYear) {
			t.Fatalf("%s: %d changes found over the whole span, %d year by year", name, len(whole), len(byYear))
		}
	}
}

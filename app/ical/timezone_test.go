package ical

import (
	"slices"
	"testing"
	"time"
)

func TestAZonesChangesAreFoundOnceAndAreTheSameYearByYear(t *testing.T) {
	for _, name := range []string{"Europe/Paris", "America/New_York", "Australia/Lord_Howe", "Asia/Tokyo"} {
		loc, err := time.LoadLocation(name)
		if err != nil {
			t.Fatal(err)
		}
		start, end := time.Date(2019, 1, 1, 0, 0, 0, 0, loc), time.Date(2031, 1, 1, 0, 0, 0, 0, loc)
		whole := zoneTransitions(loc, start, end)
		var byYear []transition
		for y := 2019; y <= 2030; y++ {
			byYear = append(byYear, transitionsIn(loc, y)...)
		}
		if !slices.Equal(whole, byYear) {
			t.Fatalf("%s: %d changes found over the whole span, %d year by year", name, len(whole), len(byYear))
		}
		if again := transitionsIn(loc, 2026); len(again) > 0 && &again[0] != &transitionsIn(loc, 2026)[0] {
			t.Fatalf("%s: the changes of 2026 are found again on every call", name)
		}
	}
}

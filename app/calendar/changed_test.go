package calendar

import (
	"sync"
	"testing"
)

// Records made as copies of one (a series' occurrences, inserted at once)
// share its map of changed fields: each write stamps a map of its own, and
// the original keeps its stamps.
func TestCopiesOfARecordStampTheirChangesApart(t *testing.T) {
	t.Parallel()
	series := &Post{Title: "Yoga"}
	before := *series
	series.Title = "Yoga class"
	series.NoteChanges(&before)
	series.SetSeq(1)
	copies := []*Post{{}, {}}
	for i, c := range copies {
		*c = *series
		c.Title = []string{"Yoga, Tuesday", "Yoga, Thursday"}[i]
		c.NoteChanges(series)
	}
	var wg sync.WaitGroup
	for i, c := range copies {
		wg.Add(1)
		go func() { defer wg.Done(); c.SetSeq(int64(2 + i)) }()
	}
	wg.Wait()
	if series.Changed["title"] != 1 || copies[0].Changed["title"] != 2 || copies[1].Changed["title"] != 3 {
		t.Fatalf("title stamped %d on the series, %d and %d on its copies; want 1, 2 and 3",
			series.Changed["title"], copies[0].Changed["title"], copies[1].Changed["title"])
	}
}

// The same for a record's past standings: copies made of a record whose
// status changed each close that standing in a slice of their own.
func TestCopiesOfARecordCloseTheirStandingsApart(t *testing.T) {
	t.Parallel()
	draft := &Post{Status: StatusDraft, Author: 2}
	published := *draft
	published.Status = StatusPublish
	published.NoteChanges(draft)
	copies := []*Post{{}, {}}
	for _, c := range copies {
		*c = published
	}
	var wg sync.WaitGroup
	for i, c := range copies {
		wg.Add(1)
		go func() { defer wg.Done(); c.SetSeq(int64(2 + i)) }()
	}
	wg.Wait()
	if len(published.Standings) != 1 || published.Standings[0].Until != 0 ||
		copies[0].Standings[0].Until != 2 || copies[1].Standings[0].Until != 3 {
		t.Fatalf("standings closed at %v on the record, %v and %v on its copies; want 0, 2 and 3",
			published.Standings, copies[0].Standings, copies[1].Standings)
	}
}

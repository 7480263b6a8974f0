package index

import (
	"context"
	"testing"

	"github.com/blevesearch/bleve/v2"

	"calendar/app/calendar"
)

// openIndex opens the live index under dir; the test closes it.
func openIndex(t *testing.T, dir string) *Live {
	t.Helper()
	idx, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	return idx
}

func TestOpenCreatesThenReopensTheIndex(t *testing.T) {
	dir := t.TempDir()
	idx := openIndex(t, dir)
	if !idx.Fresh {
		t.Fatal("a new index is not marked fresh")
	}
	if err := idx.Ping(context.Background()); err != nil {
		t.Fatal(err)
	}
	idx.Close()
	again := openIndex(t, dir)
	defer again.Close()
	if again.Fresh {
		t.Fatal("an existing index of the current mapping version was recreated")
	}
}

// bleveOf is the bleve index the live one is now.
func bleveOf(l *Live) bleve.Index { return l.current.Load().idx.bleve }

// The languages an index stems in are part of how it was built: opened with
// others, it serves (without those stems) and is outdated, so its successor
// is built beside it; a language it cannot analyze is refused.
func TestAnIndexOfOtherLanguagesIsOutdated(t *testing.T) {
	dir := t.TempDir()
	for _, step := range []struct {
		languages       []string
		fresh, outdated bool
		why             string
	}{
		{[]string{"fr"}, true, false, "there was no index (a first start, a restore, or the index was removed)"},
		{[]string{"fr"}, false, false, ""},
		{[]string{"fr", "de"}, false, true, "the index stems in fr, the service in fr,de"},
		{nil, false, true, "the index stems in fr, the service in no language"},
	} {
		idx, err := Open(dir, step.languages...)
		if err != nil {
			t.Fatal(err)
		}
		idx.Close()
		if idx.Fresh != step.fresh || idx.Outdated != step.outdated || idx.Why != step.why {
			t.Fatalf("%v: fresh %v, outdated %v, why %q; want %q", step.languages, idx.Fresh, idx.Outdated, idx.Why, step.why)
		}
	}
	if _, err := Open(dir, "fr", "tlh"); err == nil {
		t.Fatal("a language without analysis was taken")
	}
}

// Writes return before they are on disk (unsafe batches): Close must still
// leave every one of them there, or a restart finds a partial index (or none:
// the mapping version itself is such a write).
func TestCloseRightAfterWritesKeepsEveryWrite(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	idx := openIndex(t, dir)
	const n = 100 // enough batches for some to be in memory still at Close
	for id := int64(1); id <= n; id++ {
		if err := idx.PutPosts(ctx, []*calendar.Post{{ID: id, Type: calendar.PostTypeVenue, Status: calendar.StatusPublish, Title: "Venue"}}); err != nil {
			t.Fatal(err)
		}
	}
	if err := idx.SetAppliedSeq(ctx, n); err != nil {
		t.Fatal(err)
	}
	if err := idx.Close(); err != nil {
		t.Fatal(err)
	}
	again := openIndex(t, dir)
	defer again.Close()
	if again.Fresh {
		t.Fatal("the mapping version written at creation was not on disk after Close")
	}
	if count, err := again.DocCount(ctx); err != nil || count != n {
		t.Fatalf("after Close and Open the index holds %d documents (%v), want %d", count, err, n)
	}
	if seq, err := again.AppliedSeq(ctx); err != nil || seq != n {
		t.Fatalf("after Close and Open the checkpoint is %d (%v), want %d", seq, err, n)
	}
}

// The persister retries a snapshot it cannot write forever, calling no
// batch's callback: Close must still return, with the failure, and leave the
// index to be caught up from the store at the next start.
func TestCloseReturnsWhenThePersisterCannotWrite(t *testing.T) {
	dir := t.TempDir()
	idx := openIndex(t, dir)
	if err := Remove(dir); err != nil { // the data directory gone under a running service
		t.Fatal(err)
	}
	if err := bleveOf(idx).Index("post:1", map[string]any{"title": "a segment to write"}); err != nil {
		t.Fatal(err)
	}
	closed := make(chan error, 1)
	go func() { closed <- idx.Close() }()
	if err := <-closed; err == nil { // a Close that hangs is caught by go test's -timeout
		t.Fatal("Close reported success though nothing could be written")
	}
}

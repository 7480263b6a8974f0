package index

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"calendar/app/calendar"
)

func venue(id int64) []*calendar.Post {
	return []*calendar.Post{{ID: id, Type: calendar.PostTypeVenue, Status: calendar.StatusPublish, Title: "Venue"}}
}

// indexDirs lists the index directories under dir, and what index.live says.
func indexDirs(t *testing.T, dir string) (dirs []string, live string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.IsDir() && indexName.MatchString(e.Name()) {
			dirs = append(dirs, e.Name())
		}
	}
	live, err = liveName(dir)
	if err != nil {
		t.Fatal(err)
	}
	return dirs, live
}

func TestOpenKeepsAnIndexItServesAndReplacesOneItCannot(t *testing.T) {
	ctx := context.Background()
	built := Versions{Mapping: 30, ServesFrom: 30}
	for _, c := range []struct {
		name            string
		opener          Versions
		kept, outdated  bool
		versionReported int
		why             string // what the log says of the rebuild, "" when none
	}{
		{"the same version", Versions{Mapping: 30, ServesFrom: 25}, true, false, 30, ""},
		{"an older version the release still serves", Versions{Mapping: 31, ServesFrom: 30}, true, true, 30,
			"the index is of mapping version 30, older than version 31 this release builds, which still serves versions 30 to 31"},
		{"an older version the release cannot serve", Versions{Mapping: 31, ServesFrom: 31}, false, false, 31,
			"the index is of mapping version 30, which this release does not serve: it builds version 31 and serves versions 31 to 31"},
		{"a newer version (a rollback)", Versions{Mapping: 29, ServesFrom: 20}, false, false, 29,
			"the index is of mapping version 30, which this release does not serve: it builds version 29 and serves versions 20 to 29"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			idx, err := OpenVersions(dir, built)
			if err != nil {
				t.Fatal(err)
			}
			if err := idx.PutPosts(ctx, venue(1)); err != nil {
				t.Fatal(err)
			}
			idx.Close()
			again, err := OpenVersions(dir, c.opener)
			if err != nil {
				t.Fatal(err)
			}
			defer again.Close()
			count, _ := again.DocCount(ctx)
			if kept := count == 1 && !again.Fresh; kept != c.kept || again.Outdated != c.outdated || again.Version != c.versionReported {
				t.Fatalf("kept %v (fresh %v), outdated %v, version %d; want kept %v, outdated %v, version %d",
					kept, again.Fresh, again.Outdated, again.Version, c.kept, c.outdated, c.versionReported)
			}
			if again.Found != 30 || again.Why != c.why {
				t.Fatalf("found version %d, why %q; want 30, %q", again.Found, again.Why, c.why)
			}
		})
	}
}

// An index of another store state is replaced, in its directory, by an
// empty one: the calls from then on go to it, and a restart opens it.
func TestResetEmptiesTheLiveIndexInItsDirectory(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	live := openIndex(t, dir)
	if err := live.PutPosts(ctx, venue(1)); err != nil {
		t.Fatal(err)
	}
	if err := live.SetAppliedSeq(ctx, 9); err != nil {
		t.Fatal(err)
	}
	before := live.Generation()
	if err := live.Reset("the store was restored"); err != nil {
		t.Fatal(err)
	}
	n, _ := live.DocCount(ctx)
	seq, _ := live.AppliedSeq(ctx)
	if n != 0 || seq != 0 || !live.Fresh || live.Why != "the store was restored" || live.Generation() == before {
		t.Fatalf("after Reset: %d documents, checkpoint %d, fresh %v, why %q, generation %d (before %d)", n, seq, live.Fresh, live.Why, live.Generation(), before)
	}
	if err := live.PutPosts(ctx, venue(2)); err != nil {
		t.Fatal(err)
	}
	live.Close()
	if dirs, name := indexDirs(t, dir); !slices.Equal(dirs, []string{"index"}) || name != "index" {
		t.Fatalf("index directories %v, live %s", dirs, name)
	}
	again := openIndex(t, dir)
	defer again.Close()
	if n, _ := again.DocCount(ctx); again.Fresh || n != 1 {
		t.Fatalf("reopened: fresh %v, %d documents; want the one written after Reset", again.Fresh, n)
	}
}

// A successor is invisible until promoted; then every call goes to it, the
// old directory goes, and the next Open opens the successor.
func TestAPromotedSuccessorIsTheLiveIndexFromThenOnAndAfterARestart(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	live := openIndex(t, dir)
	if err := live.PutPosts(ctx, venue(1)); err != nil {
		t.Fatal(err)
	}
	before := live.Generation()
	next, err := live.Successor()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := live.Successor(); err == nil {
		t.Fatal("a second successor was made while one is being built")
	}
	if err := next.PutPosts(ctx, append(venue(1), venue(2)...)); err != nil {
		t.Fatal(err)
	}
	if n, _ := live.DocCount(ctx); n != 1 {
		t.Fatalf("the live index holds %d documents while its successor is built, want its own 1", n)
	}
	if err := next.Flush(); err != nil {
		t.Fatal(err)
	}
	retire, err := next.Promote()
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := live.DocCount(ctx); n != 2 {
		t.Fatalf("the live index holds %d documents once the successor is promoted, want its 2", n)
	}
	if live.Generation() == before {
		t.Fatal("the generation did not change with the index: answers kept from the old one would be served")
	}
	if err := retire(); err != nil {
		t.Fatal(err)
	}
	if dirs, name := indexDirs(t, dir); !slices.Equal(dirs, []string{"index-1"}) || name != "index-1" {
		t.Fatalf("after the swap: directories %v, index.live names %q; want only index-1, named", dirs, name)
	}
	if err := live.Close(); err != nil {
		t.Fatal(err)
	}
	again := openIndex(t, dir)
	defer again.Close()
	if n, _ := again.DocCount(ctx); again.Fresh || n != 2 {
		t.Fatalf("reopened: fresh %v, %d documents; want the successor's 2", again.Fresh, n)
	}
	if got := again.Dir(); got != filepath.Join(dir, "index-1") {
		t.Fatalf("reopened %s, want index-1", got)
	}
}

// A call that began on the old index ends on it: retiring it waits for the
// call, while calls that begin after the swap go to the new one.
func TestACallOnTheReplacedIndexEndsBeforeItIsClosed(t *testing.T) {
	ctx := context.Background()
	live := openIndex(t, t.TempDir())
	defer live.Close()
	if err := live.PutPosts(ctx, venue(1)); err != nil {
		t.Fatal(err)
	}
	inFlight := live.hold() // a search that began before the swap
	next, err := live.Successor()
	if err != nil {
		t.Fatal(err)
	}
	retire, err := next.Promote()
	if err != nil {
		t.Fatal(err)
	}
	retired := make(chan error, 1)
	go func() { retired <- retire() }()
	if n, err := live.DocCount(ctx); err != nil || n != 0 {
		t.Fatalf("a call after the swap: %d documents (%v), want the new, empty index's 0", n, err)
	}
	if n, err := inFlight.idx.DocCount(ctx); err != nil || n != 1 {
		t.Fatalf("the call in flight on the old index: %d documents (%v), want its 1: it was closed under the call", n, err)
	}
	inFlight.release()
	if err := <-retired; err != nil {
		t.Fatal(err)
	}
}

// A crash at any moment of a rebuild beside the live index leaves one index
// that opens with what it held; Open removes the rest.
func TestOpenAfterACrashKeepsTheLiveIndexAndRemovesWhatTheRebuildLeft(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		name     string
		crash    func(t *testing.T, live *Live, next calendar.Successor)
		live     string
		docCount int64
	}{
		{"while the successor is built", func(t *testing.T, live *Live, next calendar.Successor) {}, "index", 1},
		{"after index.live names the successor, before the old one is removed", func(t *testing.T, live *Live, next calendar.Successor) {
			if _, err := next.Promote(); err != nil { // retire never runs
				t.Fatal(err)
			}
		}, "index-1", 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			live := openIndex(t, dir)
			if err := live.PutPosts(ctx, venue(1)); err != nil {
				t.Fatal(err)
			}
			next, err := live.Successor()
			if err != nil {
				t.Fatal(err)
			}
			if err := next.PutPosts(ctx, append(venue(1), venue(2)...)); err != nil {
				t.Fatal(err)
			}
			if err := next.Flush(); err != nil {
				t.Fatal(err)
			}
			old := live.current.Load().idx
			c.crash(t, live, next)
			// The process ends here: its indexes are closed as a kill leaves
			// them, no rebuild's clean-up runs.
			_ = next.(*Successor).Index.Close()
			_ = old.Close()
			if err := os.WriteFile(filepath.Join(dir, liveFile+".tmp"), []byte("index-9"), 0o640); err != nil {
				t.Fatal(err)
			}
			again := openIndex(t, dir)
			defer again.Close()
			if n, _ := again.DocCount(ctx); again.Fresh || n != c.docCount {
				t.Fatalf("reopened: fresh %v, %d documents; want %d", again.Fresh, n, c.docCount)
			}
			dirs, name := indexDirs(t, dir)
			if !slices.Equal(dirs, []string{c.live}) || name != c.live {
				t.Fatalf("directories %v, index.live names %q; want only %s", dirs, name, c.live)
			}
			if _, err := os.Stat(filepath.Join(dir, liveFile+".tmp")); !os.IsNotExist(err) {
				t.Fatalf("the temporary file of index.live is still there (%v)", err)
			}
		})
	}
}

func TestADiscardedSuccessorLeavesNothingAndTheNextOneStartsAfresh(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	live := openIndex(t, dir)
	defer live.Close()
	next, err := live.Successor()
	if err != nil {
		t.Fatal(err)
	}
	if err := next.PutPosts(ctx, venue(7)); err != nil {
		t.Fatal(err)
	}
	if err := next.Discard(); err != nil {
		t.Fatal(err)
	}
	if dirs, name := indexDirs(t, dir); !slices.Equal(dirs, []string{"index"}) || name != "index" {
		t.Fatalf("after a discard: directories %v, index.live names %q", dirs, name)
	}
	again, err := live.Successor()
	if err != nil {
		t.Fatal(err)
	}
	defer again.Discard()
	if n, _ := again.DocCount(ctx); n != 0 {
		t.Fatalf("the next successor starts with %d documents, want 0", n)
	}
}

func TestRemoveDeletesEveryIndexAndWhichIsLive(t *testing.T) {
	dir := t.TempDir()
	live := openIndex(t, dir)
	next, err := live.Successor()
	if err != nil {
		t.Fatal(err)
	}
	retire, err := next.Promote()
	if err != nil {
		t.Fatal(err)
	}
	if err := retire(); err != nil {
		t.Fatal(err)
	}
	live.Close()
	if err := Remove(dir); err != nil {
		t.Fatal(err)
	}
	if dirs, name := indexDirs(t, dir); len(dirs) != 0 || name != firstName {
		t.Fatalf("after Remove: directories %v, index.live names %q", dirs, name)
	}
}

// Package storetest is the contract of calendar.Store: the executable
// specification every store passes unchanged (repository/bolt and
// repository/mongo run it), and a third would have to. It holds what the
// port promises and the app relies on: IDs per collection never reused, one
// store-wide change sequence, unique keys (one value or several), lookups,
// the change feed and its tombstones, compare-and-swap writes (concurrent
// ones included), guards, uploaded files, and what a reopen keeps.
package storetest

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"calendar/app/calendar"
)

// Backend is a store under test.
type Backend struct {
	// Open opens an empty store of its own, closed when the test ends.
	Open func(t *testing.T) calendar.Store
	// Reopen closes s and opens the same data again, as a restart does;
	// nil leaves out the cases of what a reopen keeps.
	Reopen func(t *testing.T, s calendar.Store) calendar.Store
}

// Run is the storage contract: every store must pass it unchanged.
// Its cases run in parallel, each on a store of its own (Backend.Open).
func Run(t *testing.T, sut Backend) {
	ctx := context.Background()
	venue := func(slug string) *calendar.Post {
		return &calendar.Post{Type: calendar.PostTypeVenue, Slug: slug, Status: "publish", Title: "Venue " + slug,
			Date: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
	}

	t.Run("IDs are allocated 1, 2, 3 per collection and never reused", func(t *testing.T) {
		t.Parallel()
		s := sut.Open(t)
		var third *calendar.Post
		for want := int64(1); want <= 3; want++ {
			p := venue(fmt.Sprintf("v%d", want))
			if err := s.Posts().Insert(ctx, p); err != nil {
				t.Fatal(err)
			}
			if p.ID != want {
				t.Fatalf("post ID = %d, want %d", p.ID, want)
			}
			third = p
		}
		if err := s.Posts().Delete(ctx, 3, third.Seq); err != nil {
			t.Fatal(err)
		}
		p := venue("v4")
		if err := s.Posts().Insert(ctx, p); err != nil {
			t.Fatal(err)
		}
		if p.ID != 4 {
			t.Fatalf("ID after deleting 3 = %d, want 4", p.ID)
		}
		term := &calendar.Term{Taxonomy: "category", Name: "Jazz", Slug: "jazz"}
		if err := s.Terms().Insert(ctx, term); err != nil {
			t.Fatal(err)
		}
		if term.ID != 1 {
			t.Fatalf("first term ID = %d, want 1 (own sequence)", term.ID)
		}
	})

	t.Run("every write takes a higher change sequence number", func(t *testing.T) {
		t.Parallel()
		s := sut.Open(t)
		a, b := venue("a"), venue("b")
		mustInsert(t, s.Posts(), a)
		mustInsert(t, s.Posts(), b)
		u := &calendar.User{Login: "x", Role: calendar.RoleEditor, PasswordHash: "h"}
		mustInsert(t, s.Users(), u)
		a.Title = "changed"
		if err := s.Posts().Update(ctx, a); err != nil {
			t.Fatal(err)
		}
		if !(a.Seq > u.Seq && u.Seq > b.Seq && b.Seq > 0) {
			t.Fatalf("sequences not increasing store-wide: b=%d user=%d a(updated)=%d", b.Seq, u.Seq, a.Seq)
		}
	})

	t.Run("unique keys are enforced on insert and update", func(t *testing.T) {
		t.Parallel()
		s := sut.Open(t)
		mustInsert(t, s.Posts(), venue("same"))
		if err := s.Posts().Insert(ctx, venue("same")); !errors.Is(err, calendar.ErrConflict) {
			t.Fatalf("duplicate slug insert: err = %v, want ErrConflict", err)
		}
		event := &calendar.Post{Type: calendar.PostTypeEvent, Slug: "same", Status: "publish"}
		mustInsert(t, s.Posts(), event) // the slug is unique per type only
		other := venue("other")
		mustInsert(t, s.Posts(), other)
		other.Slug = "same"
		if err := s.Posts().Update(ctx, other); !errors.Is(err, calendar.ErrConflict) {
			t.Fatalf("update onto a taken slug: err = %v, want ErrConflict", err)
		}
		other.Slug = "renamed"
		if err := s.Posts().Update(ctx, other); err != nil {
			t.Fatal(err)
		}
		mustInsert(t, s.Posts(), venue("other")) // the old slug is free again
		u1 := &calendar.User{Login: "Ann", Role: calendar.RoleAuthor, PasswordHash: "h1"}
		mustInsert(t, s.Users(), u1)
		if err := s.Users().Insert(ctx, &calendar.User{Login: "ann", Role: calendar.RoleAuthor, PasswordHash: "h2"}); !errors.Is(err, calendar.ErrConflict) {
			t.Fatalf("login differing only in case: err = %v, want ErrConflict", err)
		}
	})

	t.Run("many inserts in one write: IDs and sequences in their order, one change each, a taken key stores a prefix at most", func(t *testing.T) {
		t.Parallel()
		s := sut.Open(t)
		mustInsert(t, s.Posts(), venue("first"))
		batch := []*calendar.Post{venue("b1"), venue("b2"), venue("b3")}
		if err := s.Posts().InsertMany(ctx, batch); err != nil {
			t.Fatal(err)
		}
		for i, p := range batch {
			if p.ID != int64(2+i) || i > 0 && p.Seq <= batch[i-1].Seq {
				t.Fatalf("batch[%d] = ID %d seq %d; want ID %d, sequences ascending", i, p.ID, p.Seq, 2+i)
			}
			if got, err := s.Posts().FindByKey(ctx, "type_slug", p.Type+"/"+p.Slug); err != nil || got.ID != p.ID || got.Seq != p.Seq {
				t.Fatalf("batch[%d] as stored: %+v, %v", i, got, err)
			}
		}
		feed, err := s.Changes(ctx, batch[0].Seq-1, 100)
		if err != nil || len(feed) != 3 {
			t.Fatalf("feed after the batch = %+v, %v; want its 3 inserts", feed, err)
		}
		for i, ch := range feed {
			if ch.ID != batch[i].ID || ch.Seq != batch[i].Seq || ch.Collection != calendar.CollectionPosts {
				t.Fatalf("feed[%d] = %+v; want batch[%d]'s insert", i, ch, i)
			}
		}
		if err := s.Posts().InsertMany(ctx, nil); err != nil {
			t.Fatalf("an empty batch: %v", err)
		}
		for name, refused := range map[string][]*calendar.Post{
			"a key stored before": {venue("c1"), venue("b2"), venue("c2")},
			"a key twice in it":   {venue("d1"), venue("d2"), venue("d2")},
		} {
			if err := s.Posts().InsertMany(ctx, refused); !errors.Is(err, calendar.ErrConflict) {
				t.Fatalf("%s: err = %v, want ErrConflict", name, err)
			}
			held := map[int64]bool{1: true, 2: true, 3: true, 4: true} // the posts stored before
			stored := true
			for i, p := range refused {
				got, err := s.Posts().FindByKey(ctx, "type_slug", p.Type+"/"+p.Slug)
				switch {
				case p.ID != 0 && !stored:
					t.Fatalf("%s: batch[%d] has an ID after one without", name, i)
				case p.ID != 0 && (err != nil || got.ID != p.ID):
					t.Fatalf("%s: batch[%d] has ID %d but is stored as %+v, %v", name, i, p.ID, got, err)
				case p.ID == 0 && err == nil && !held[got.ID]:
					t.Fatalf("%s: batch[%d] has no ID but is stored as %d", name, i, got.ID)
				}
				held[p.ID], stored = true, p.ID != 0
			}
		}
	})

	t.Run("a key holding several values: each is found, taken and freed", func(t *testing.T) {
		t.Parallel()
		s := sut.Open(t)
		withPasswords := func(login string, hashes ...string) *calendar.User {
			u := &calendar.User{Login: login, Role: calendar.RoleAuthor}
			for _, h := range hashes {
				u.Passwords = append(u.Passwords, calendar.ApplicationPassword{UUID: h, Name: h, Hash: h})
			}
			return u
		}
		ann := withPasswords("ann", "h1", "h2", "h3")
		mustInsert(t, s.Users(), ann)
		mustInsert(t, s.Users(), withPasswords("bob", "h4"))
		for _, h := range []string{"h1", "h2", "h3"} {
			if got, err := s.Users().FindByKey(ctx, "password", h); err != nil || got.ID != ann.ID {
				t.Fatalf("FindByKey(password, %s) = %+v, %v; want ann", h, got, err)
			}
		}
		if err := s.Users().Insert(ctx, withPasswords("cy", "h5", "h2")); !errors.Is(err, calendar.ErrConflict) {
			t.Fatalf("a user with another's second value: err = %v, want ErrConflict", err)
		}
		ann.Passwords = ann.Passwords[:1] // h2 and h3 revoked
		if err := s.Users().Update(ctx, ann); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Users().FindByKey(ctx, "password", "h3"); !errors.Is(err, calendar.ErrNotFound) {
			t.Fatalf("a value the update dropped is still found: %v", err)
		}
		bob, err := s.Users().FindByKey(ctx, "login", "bob")
		if err != nil {
			t.Fatal(err)
		}
		bob.Passwords = append(bob.Passwords, calendar.ApplicationPassword{UUID: "h1", Hash: "h1"})
		if err := s.Users().Update(ctx, bob); !errors.Is(err, calendar.ErrConflict) {
			t.Fatalf("an update onto a value ann still holds: err = %v, want ErrConflict", err)
		}
		bob.Passwords[1].Hash = "h3" // the value ann gave up is free again
		if err := s.Users().Update(ctx, bob); err != nil {
			t.Fatal(err)
		}
		for _, login := range []string{"dee", "eve"} { // users without a password keep keys of their own
			u := withPasswords(login, "tmp-"+login)
			mustInsert(t, s.Users(), u)
			u.Passwords = nil
			if err := s.Users().Update(ctx, u); err != nil {
				t.Fatalf("%s without passwords: %v", login, err)
			}
		}
	})

	t.Run("lookups by ID, by unique key and many IDs in requested order", func(t *testing.T) {
		t.Parallel()
		s := sut.Open(t)
		var ids []int64
		for _, slug := range []string{"a", "b", "c", "d"} {
			p := venue(slug)
			mustInsert(t, s.Posts(), p)
			ids = append(ids, p.ID)
		}
		got, err := s.Posts().Get(ctx, ids[1])
		if err != nil || got.Slug != "b" || got.Title != "Venue b" || !got.Date.Equal(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)) {
			t.Fatalf("Get = %+v, %v", got, err)
		}
		if _, err := s.Posts().Get(ctx, 999); !errors.Is(err, calendar.ErrNotFound) {
			t.Fatalf("Get(999) err = %v, want ErrNotFound", err)
		}
		byKey, err := s.Posts().FindByKey(ctx, "type_slug", "venue/c")
		if err != nil || byKey.ID != ids[2] {
			t.Fatalf("FindByKey = %+v, %v", byKey, err)
		}
		if _, err := s.Posts().FindByKey(ctx, "type_slug", "event/c"); !errors.Is(err, calendar.ErrNotFound) {
			t.Fatalf("FindByKey(other type) err = %v, want ErrNotFound", err)
		}
		many, err := s.Posts().GetMany(ctx, []int64{ids[3], 999, ids[0], ids[2]})
		if err != nil {
			t.Fatal(err)
		}
		var order []string
		for _, p := range many {
			order = append(order, p.Slug)
		}
		if fmt.Sprint(order) != "[d a c]" {
			t.Fatalf("GetMany order = %v, want [d a c]", order)
		}
		page, err := s.Posts().Scan(ctx, ids[0], 2)
		if err != nil || len(page) != 2 || page[0].Slug != "b" || page[1].Slug != "c" {
			t.Fatalf("Scan after first, limit 2 = %v, %v", page, err)
		}
		if n, err := s.Posts().Count(ctx); err != nil || n != 4 {
			t.Fatalf("Count = %d, %v", n, err)
		}
	})

	t.Run("delete removes the document and frees its keys", func(t *testing.T) {
		t.Parallel()
		s := sut.Open(t)
		p := venue("gone")
		mustInsert(t, s.Posts(), p)
		if err := s.Posts().Delete(ctx, p.ID, p.Seq); err != nil {
			t.Fatal(err)
		}
		if err := s.Posts().Delete(ctx, p.ID, p.Seq); !errors.Is(err, calendar.ErrNotFound) {
			t.Fatalf("second delete err = %v, want ErrNotFound", err)
		}
		if _, err := s.Posts().FindByKey(ctx, "type_slug", "venue/gone"); !errors.Is(err, calendar.ErrNotFound) {
			t.Fatalf("key of deleted doc still found: %v", err)
		}
		mustInsert(t, s.Posts(), venue("gone"))
		if err := s.Posts().Update(ctx, &calendar.Post{ID: 12345, Type: "venue", Slug: "zz"}); !errors.Is(err, calendar.ErrNotFound) {
			t.Fatalf("update of missing doc err = %v, want ErrNotFound", err)
		}
	})

	t.Run("the change feed has each live document's last write and a tombstone per delete", func(t *testing.T) {
		t.Parallel()
		s := sut.Open(t)
		a, b, c := venue("a"), venue("b"), venue("c")
		mustInsert(t, s.Posts(), a)
		mustInsert(t, s.Posts(), b)
		term := &calendar.Term{Taxonomy: "post_tag", Name: "T", Slug: "t"}
		mustInsert(t, s.Terms(), term)
		a.Title = "a again"
		if err := s.Posts().Update(ctx, a); err != nil {
			t.Fatal(err)
		}
		mustInsert(t, s.Posts(), c)
		if err := s.Posts().Delete(ctx, b.ID, b.Seq); err != nil {
			t.Fatal(err)
		}
		feed, err := s.Changes(ctx, 0, 100)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, ch := range feed {
			got = append(got, fmt.Sprintf("%s/%d deleted=%v", ch.Collection, ch.ID, ch.Deleted))
		}
		want := fmt.Sprintf("[terms/%d deleted=false posts/%d deleted=false posts/%d deleted=false posts/%d deleted=true]", term.ID, a.ID, c.ID, b.ID)
		if fmt.Sprint(got) != want {
			t.Fatalf("feed = %v\nwant %s", got, want)
		}
		for i := 1; i < len(feed); i++ {
			if feed[i].Seq <= feed[i-1].Seq {
				t.Fatalf("feed out of sequence order: %+v", feed)
			}
		}
		last, err := s.LastSeq(ctx)
		if err != nil || last != feed[len(feed)-1].Seq {
			t.Fatalf("LastSeq = %d, %v; want %d", last, err, feed[len(feed)-1].Seq)
		}
		page, err := s.Changes(ctx, feed[1].Seq, 1)
		if err != nil || len(page) != 1 || !reflect.DeepEqual(page[0], feed[2]) {
			t.Fatalf("Changes after %d, limit 1 = %+v, %v; want %+v", feed[1].Seq, page, err, feed[2])
		}
		if rest, _ := s.Changes(ctx, last, 10); len(rest) != 0 {
			t.Fatalf("changes after the last sequence: %+v", rest)
		}
	})

	t.Run("the creation sequence is kept and tombstones name the kind", func(t *testing.T) {
		t.Parallel()
		s := sut.Open(t)
		p := venue("born")
		mustInsert(t, s.Posts(), p)
		term := &calendar.Term{Taxonomy: "post_tag", Name: "T", Slug: "t"}
		mustInsert(t, s.Terms(), term)
		if p.CreatedSeq != p.Seq || term.CreatedSeq != term.Seq || p.CreatedSeq == 0 {
			t.Fatalf("on insert: post created %d seq %d, term created %d seq %d", p.CreatedSeq, p.Seq, term.CreatedSeq, term.Seq)
		}
		created := p.CreatedSeq
		loaded, err := s.Posts().Get(ctx, p.ID)
		if err != nil || loaded.CreatedSeq != created {
			t.Fatalf("stored creation sequence = %+v, %v; want %d", loaded, err, created)
		}
		loaded.Title = "changed"
		if err := s.Posts().Update(ctx, loaded); err != nil {
			t.Fatal(err)
		}
		again, err := s.Posts().Get(ctx, p.ID)
		if err != nil || again.CreatedSeq != created || again.Seq <= created {
			t.Fatalf("after update: created %d seq %d, %v; want created %d and a later seq", again.CreatedSeq, again.Seq, err, created)
		}
		gotTerm, err := s.Terms().Get(ctx, term.ID)
		if err != nil || gotTerm.CreatedSeq != term.CreatedSeq {
			t.Fatalf("stored term creation sequence = %+v, %v", gotTerm, err)
		}
		event := &calendar.Post{Type: calendar.PostTypeEvent, Slug: "e", Status: "publish"}
		mustInsert(t, s.Posts(), event)
		for _, del := range []func() error{
			func() error { return s.Posts().Delete(ctx, event.ID, event.Seq) },
			func() error { return s.Terms().Delete(ctx, term.ID, term.Seq) },
		} {
			if err := del(); err != nil {
				t.Fatal(err)
			}
		}
		feed, err := s.Changes(ctx, again.Seq, 10)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, ch := range feed {
			got = append(got, fmt.Sprintf("%s/%d %s deleted=%v", ch.Collection, ch.ID, ch.Kind, ch.Deleted))
		}
		want := fmt.Sprintf("[posts/%d event deleted=true terms/%d post_tag deleted=true]", event.ID, term.ID)
		if fmt.Sprint(got) != want {
			t.Fatalf("tombstones = %v\nwant %s", got, want)
		}
	})

	t.Run("a deleted post's tombstone keeps who could read it: its status and author, and before", func(t *testing.T) {
		t.Parallel()
		s := sut.Open(t)
		draft := &calendar.Post{Type: calendar.PostTypeEvent, Slug: "d", Status: calendar.StatusDraft, Author: 7}
		mustInsert(t, s.Posts(), draft)
		pending := *draft
		pending.Status = calendar.StatusPending
		pending.NoteChanges(draft)
		if err := s.Posts().Update(ctx, &pending); err != nil {
			t.Fatal(err)
		}
		term := &calendar.Term{Taxonomy: "post_tag", Name: "T", Slug: "t"}
		mustInsert(t, s.Terms(), term)
		if err := s.Posts().Delete(ctx, pending.ID, pending.Seq); err != nil {
			t.Fatal(err)
		}
		if err := s.Terms().Delete(ctx, term.ID, term.Seq); err != nil {
			t.Fatal(err)
		}
		feed, err := s.Changes(ctx, 0, 10)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, c := range feed {
			got = append(got, fmt.Sprintf("%s/%d %+v", c.Collection, c.ID, c.Standing))
		}
		want := fmt.Sprintf("[posts/%d {Status:pending Author:7 Before:[{Until:%d Status:draft Author:7}]} terms/%d {Status: Author:0 Before:[]}]",
			pending.ID, pending.Seq, term.ID)
		if fmt.Sprint(got) != want {
			t.Fatalf("tombstones = %v\nwant %s", got, want)
		}
	})

	t.Run("an update or a delete writes only over the revision its writer read", func(t *testing.T) {
		t.Parallel()
		s := sut.Open(t)
		p := venue("cas")
		mustInsert(t, s.Posts(), p)
		first, _ := s.Posts().Get(ctx, p.ID)
		second, _ := s.Posts().Get(ctx, p.ID)
		first.Title = "first"
		if err := s.Posts().Update(ctx, first); err != nil {
			t.Fatal(err)
		}
		read := second.Seq
		second.Title = "second"
		if err := s.Posts().Update(ctx, second); !errors.Is(err, calendar.ErrStale) {
			t.Fatalf("update from an older revision: err = %v, want ErrStale", err)
		}
		if second.Seq != read {
			t.Fatalf("a refused update left the document at revision %d, want the one read (%d)", second.Seq, read)
		}
		if err := s.Posts().Delete(ctx, p.ID, read); !errors.Is(err, calendar.ErrStale) {
			t.Fatalf("delete from an older revision: err = %v, want ErrStale", err)
		}
		stored, err := s.Posts().Get(ctx, p.ID)
		if err != nil || stored.Title != "first" || stored.Seq != first.Seq {
			t.Fatalf("stored = %+v, %v; want the first write, untouched since", stored, err)
		}
		if feed, _ := s.Changes(ctx, 0, 100); len(feed) != 1 || feed[0].Deleted || feed[0].Seq != first.Seq {
			t.Fatalf("the feed after refused writes = %+v, want only the first write", feed)
		}
		term := &calendar.Term{Taxonomy: "post_tag", Name: "T", Slug: "t"}
		mustInsert(t, s.Terms(), term)
		stale := *term
		term.Name = "renamed"
		if err := s.Terms().Update(ctx, term); err != nil {
			t.Fatal(err)
		}
		if err := s.Terms().Update(ctx, &stale); !errors.Is(err, calendar.ErrStale) {
			t.Fatalf("term update from an older revision: err = %v, want ErrStale", err)
		}
		if err := s.Posts().Delete(ctx, p.ID, first.Seq); err != nil {
			t.Fatal(err)
		}
	})

	t.Run("of concurrent compare-and-swaps from one revision exactly one wins, and retried they lose nothing", func(t *testing.T) {
		t.Parallel()
		s := sut.Open(t)
		p := venue("counted")
		p.Meta = map[string]string{"n": "0"}
		mustInsert(t, s.Posts(), p)
		const writers = 12
		var wg sync.WaitGroup
		var mu sync.Mutex
		won, stale := 0, 0
		var read sync.WaitGroup // every writer has read before any writes
		start := make(chan struct{})
		for i := range writers {
			wg.Add(1)
			read.Add(1)
			go func() {
				defer wg.Done()
				mine, err := s.Posts().Get(ctx, p.ID)
				read.Done()
				if err != nil {
					t.Error(err)
					return
				}
				<-start
				mine.Title = fmt.Sprint("writer ", i)
				err = s.Posts().Update(ctx, mine)
				mu.Lock()
				defer mu.Unlock()
				switch {
				case err == nil:
					won++
				case errors.Is(err, calendar.ErrStale):
					stale++
				default:
					t.Error(err)
				}
			}()
		}
		read.Wait()
		close(start)
		wg.Wait()
		if won != 1 || stale != writers-1 {
			t.Fatalf("%d writes won and %d were stale; want 1 and %d", won, stale, writers-1)
		}
		for range writers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for {
					cur, err := s.Posts().Get(ctx, p.ID)
					if err != nil {
						t.Error(err)
						return
					}
					n, _ := strconv.Atoi(cur.Meta["n"])
					cur.Meta["n"] = strconv.Itoa(n + 1)
					if err = s.Posts().Update(ctx, cur); !errors.Is(err, calendar.ErrStale) {
						if err != nil {
							t.Error(err)
						}
						return
					}
				}
			}()
		}
		wg.Wait()
		if got, _ := s.Posts().Get(ctx, p.ID); got.Meta["n"] != strconv.Itoa(writers) {
			t.Fatalf("after %d increments retried on stale revisions, n = %s", writers, got.Meta["n"])
		}
	})

	t.Run("a guard is one per name, found by it, and written by compare-and-swap", func(t *testing.T) {
		t.Parallel()
		s := sut.Open(t)
		g := &calendar.Guard{Name: "administrators"}
		mustInsert(t, s.Guards(), g)
		if err := s.Guards().Insert(ctx, &calendar.Guard{Name: "administrators"}); !errors.Is(err, calendar.ErrConflict) {
			t.Fatalf("a second guard of one name: err = %v, want ErrConflict", err)
		}
		found, err := s.Guards().FindByKey(ctx, "name", "administrators")
		if err != nil || found.ID != g.ID {
			t.Fatalf("found %+v, %v; want guard %d", found, err, g.ID)
		}
		stale := *found
		until := time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)
		found.Lease = &calendar.Lease{Holder: "me", Until: until}
		if err := s.Guards().Update(ctx, found); err != nil {
			t.Fatal(err)
		}
		stale.Lease = &calendar.Lease{Holder: "another"}
		if err := s.Guards().Update(ctx, &stale); !errors.Is(err, calendar.ErrStale) {
			t.Fatalf("a lease taken from an older revision: err = %v, want ErrStale", err)
		}
		if held, _ := s.Guards().Get(ctx, g.ID); held.Lease == nil || held.Lease.Holder != "me" || !held.Lease.Until.Equal(until) {
			t.Fatalf("the guard holds %+v, want the lease of the first writer", held.Lease)
		}
	})

	t.Run("a webhook keeps what it was given, its delivery state is written by compare-and-swap, and the feed skips it", func(t *testing.T) {
		t.Parallel()
		s := sut.Open(t)
		at := time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)
		w := &calendar.Webhook{Owner: 7, URL: "https://hooks.example/in", Types: []string{"event.created", "*"}, Filter: "categories=jazz",
			Active: true, Secrets: []calendar.WebhookSecret{{Key: "whsec_a"}, {Key: "whsec_b", Until: at}}, Created: at, Modified: at}
		mustInsert(t, s.Webhooks(), w)
		twin := &calendar.Webhook{Owner: 7, URL: w.URL, Types: []string{"*"}, Active: true}
		mustInsert(t, s.Webhooks(), twin) // no unique key: one URL may be subscribed twice
		read, err := s.Webhooks().Get(ctx, w.ID)
		if err != nil || read.URL != w.URL || read.Filter != w.Filter || len(read.Types) != 2 || !read.Secrets[1].Until.Equal(at) {
			t.Fatalf("read %+v, %v", read, err)
		}
		stale := *read
		read.Cursor = 42
		read.Attempts = []calendar.WebhookAttempt{{MessageID: "msg_1_42", Seq: 42, Type: "event.created", At: at, Outcome: "delivered", Code: 204, Duration: time.Millisecond}}
		read.Lease = &calendar.Lease{Holder: "replica", Until: at}
		if err := s.Webhooks().Update(ctx, read); err != nil {
			t.Fatal(err)
		}
		stale.Active = false
		if err := s.Webhooks().Update(ctx, &stale); !errors.Is(err, calendar.ErrStale) {
			t.Fatalf("an edit of an older revision: err = %v, want ErrStale", err)
		}
		if got, _ := s.Webhooks().Get(ctx, w.ID); got.Cursor != 42 || got.Attempts[0].Duration != time.Millisecond || got.Lease.Holder != "replica" || !got.Active {
			t.Fatalf("stored %+v", got)
		}
		if all, err := s.Webhooks().Scan(ctx, 0, 10); err != nil || len(all) != 2 {
			t.Fatalf("scanned %d, %v", len(all), err)
		}
		mark := &calendar.WebhookMark{Webhook: w.ID, Item: 9}
		mustInsert(t, s.WebhookMarks(), mark)
		if err := s.WebhookMarks().Insert(ctx, &calendar.WebhookMark{Webhook: w.ID, Item: 9}); !errors.Is(err, calendar.ErrConflict) {
			t.Fatalf("a second mark of one item: err = %v, want ErrConflict", err)
		}
		mustInsert(t, s.WebhookMarks(), &calendar.WebhookMark{Webhook: twin.ID, Item: 9}) // another subscription's
		found, err := s.WebhookMarks().FindByKey(ctx, calendar.WebhookMarkKey, calendar.WebhookMarkOf(w.ID, 9))
		if err != nil || found.ID != mark.ID {
			t.Fatalf("found %+v, %v", found, err)
		}
		if err := s.WebhookMarks().Delete(ctx, found.ID, found.Seq); err != nil {
			t.Fatal(err)
		}
		if _, err := s.WebhookMarks().FindByKey(ctx, calendar.WebhookMarkKey, calendar.WebhookMarkOf(w.ID, 9)); !errors.Is(err, calendar.ErrNotFound) {
			t.Fatalf("an unmarked item is found: %v", err)
		}
		changes, err := s.Changes(ctx, 0, 100)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range changes {
			if c.Collection == calendar.CollectionPosts || c.Collection == calendar.CollectionTerms {
				t.Fatalf("a webhook's write is in the feed as %+v", c)
			}
		}
	})

	t.Run("a synonym group keeps its root and words, and is written by compare-and-swap", func(t *testing.T) {
		t.Parallel()
		s := sut.Open(t)
		g := &calendar.Synonym{Root: "music", Words: []string{"jazz", "rock"}}
		mustInsert(t, s.Synonyms(), g)
		mustInsert(t, s.Synonyms(), &calendar.Synonym{Words: []string{"gig", "concert"}})
		read, err := s.Synonyms().Get(ctx, g.ID)
		if err != nil || read.Root != "music" || len(read.Words) != 2 || read.Words[1] != "rock" {
			t.Fatalf("read %+v, %v", read, err)
		}
		stale := *read
		read.Words = append(read.Words, "blues")
		if err := s.Synonyms().Update(ctx, read); err != nil {
			t.Fatal(err)
		}
		if err := s.Synonyms().Update(ctx, &stale); !errors.Is(err, calendar.ErrStale) {
			t.Fatalf("an edit of an older revision: err = %v, want ErrStale", err)
		}
		if all, err := s.Synonyms().Scan(ctx, 0, 10); err != nil || len(all) != 2 || len(all[0].Words) != 3 || all[1].Root != "" {
			t.Fatalf("scanned %+v, %v", all, err)
		}
	})

	t.Run("an import source keeps its runs, its items are one per source, kind and key, and the feed skips both", func(t *testing.T) {
		t.Parallel()
		s := sut.Open(t)
		at := time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)
		src := &calendar.ImportSource{Kind: "ical", URL: "https://feeds.example/a.ics", Schedule: "daily", Active: true, Status: "draft",
			Categories: []string{"Jazz"}, OnRemoved: "trash", Created: at, Modified: at, File: []byte("a,b\n"),
			Runs: []calendar.ImportRun{{ID: 1, Started: at, Ended: at, Trigger: "manual", Counts: map[string]int{"created": 3},
				Failed: []calendar.ImportFailed{{Key: "k", Reason: "why"}}}}}
		mustInsert(t, s.Imports(), src)
		read, err := s.Imports().Get(ctx, src.ID)
		if err != nil || read.Runs[0].Counts["created"] != 3 || read.Runs[0].Failed[0].Reason != "why" || string(read.File) != "a,b\n" || !read.Runs[0].Ended.Equal(at) {
			t.Fatalf("read %+v, %v", read, err)
		}
		stale := *read
		read.Running = &calendar.ImportRun{ID: 2, Started: at}
		if err := s.Imports().Update(ctx, read); err != nil {
			t.Fatal(err)
		}
		if err := s.Imports().Update(ctx, &stale); !errors.Is(err, calendar.ErrStale) {
			t.Fatalf("an edit of an older revision: err = %v, want ErrStale", err)
		}
		long := strings.Repeat("u", 300) // a key past an index entry's bound is named by its digest
		for _, key := range []string{"uid@example.org", long} {
			it := &calendar.ImportItem{Source: src.ID, Kind: "event", Key: key, Post: 9, Hash: "h", Revisions: 2}
			mustInsert(t, s.ImportItems(), it)
			if err := s.ImportItems().Insert(ctx, &calendar.ImportItem{Source: src.ID, Kind: "event", Key: key, Post: 10, Hash: "h"}); !errors.Is(err, calendar.ErrConflict) {
				t.Fatalf("a second item of one key: err = %v, want ErrConflict", err)
			}
			mustInsert(t, s.ImportItems(), &calendar.ImportItem{Source: src.ID, Kind: "venue", Key: key, Post: 11, Hash: "h"}) // another kind's
			found, err := s.ImportItems().FindByKey(ctx, calendar.ImportItemKey, calendar.ImportItemOf(src.ID, "event", key))
			if err != nil || found.ID != it.ID || found.Key != key || found.Revisions != 2 {
				t.Fatalf("found %+v, %v", found, err)
			}
		}
		changes, err := s.Changes(ctx, 0, 100)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range changes {
			if c.Collection == calendar.CollectionPosts || c.Collection == calendar.CollectionTerms {
				t.Fatalf("an import's record is in the feed as %+v", c)
			}
		}
	})

	t.Run("the custom field declarations are one set found by its name, written by compare-and-swap, and a post keeps its values", func(t *testing.T) {
		t.Parallel()
		s := sut.Open(t)
		at := time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)
		set := &calendar.FieldSet{Name: calendar.FieldSetName, Modified: at, Fields: []calendar.FieldDeclaration{{Key: "lang", Label: "Language",
			Type: calendar.FieldMultiselect, Options: []string{"en", "fr"}, Public: true, Filterable: true, PostTypes: []string{calendar.PostTypeEvent}, Created: at, Modified: at}}}
		mustInsert(t, s.Fields(), set)
		if err := s.Fields().Insert(ctx, &calendar.FieldSet{Name: calendar.FieldSetName}); !errors.Is(err, calendar.ErrConflict) {
			t.Fatalf("a second set: err = %v, want ErrConflict", err)
		}
		read, err := s.Fields().FindByKey(ctx, "name", calendar.FieldSetName)
		if err != nil || len(read.Fields) != 1 || read.Fields[0].Options[1] != "fr" || !read.Fields[0].Filterable || !read.Fields[0].Created.Equal(at) {
			t.Fatalf("read %+v, %v", read, err)
		}
		stale := *read
		read.Fields = append(read.Fields, calendar.FieldDeclaration{Key: "age", Label: "Age", Type: calendar.FieldNumber, PostTypes: []string{calendar.PostTypeEvent}})
		if err := s.Fields().Update(ctx, read); err != nil {
			t.Fatal(err)
		}
		if err := s.Fields().Update(ctx, &stale); !errors.Is(err, calendar.ErrStale) {
			t.Fatalf("a set written from an older revision: err = %v, want ErrStale", err)
		}
		p := venue("hall")
		p.Custom = map[string][]string{"lang": {"en", "fr"}}
		mustInsert(t, s.Posts(), p)
		if got, err := s.Posts().Get(ctx, p.ID); err != nil || len(got.Custom["lang"]) != 2 || got.Custom["lang"][1] != "fr" {
			t.Fatalf("the post keeps %v, %v", got.Custom, err)
		}
		changes, err := s.Changes(ctx, 0, 100)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range changes {
			if c.Collection != calendar.CollectionPosts && c.Collection != calendar.CollectionTerms {
				continue
			}
			if c.ID != p.ID {
				t.Fatalf("the set's write is in the feed as %+v", c)
			}
		}
	})

	t.Run("the declarations' and the synonyms' writes are in the feed, so that every replica follows them", func(t *testing.T) {
		t.Parallel()
		s := sut.Open(t)
		set := &calendar.FieldSet{Name: calendar.FieldSetName}
		mustInsert(t, s.Fields(), set)
		set.Fields = []calendar.FieldDeclaration{{Key: "age", Label: "Age", Type: calendar.FieldNumber, PostTypes: []string{calendar.PostTypeEvent}}}
		if err := s.Fields().Update(ctx, set); err != nil {
			t.Fatal(err)
		}
		g := &calendar.Synonym{Words: []string{"gig", "concert"}}
		mustInsert(t, s.Synonyms(), g)
		if err := s.Synonyms().Delete(ctx, g.ID, g.Seq); err != nil {
			t.Fatal(err)
		}
		changes, err := s.Changes(ctx, 0, 100)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, c := range changes {
			got = append(got, fmt.Sprintf("%s/%d@%d deleted=%v", c.Collection, c.ID, c.Seq, c.Deleted))
		}
		want := fmt.Sprintf("[fields/%d@%d deleted=false synonyms/%d@%d deleted=true]", set.ID, set.Seq, g.ID, g.Seq+1)
		if fmt.Sprint(got) != want {
			t.Fatalf("feed = %v\nwant %s", got, want)
		}
	})

	t.Run("tombstones older than the retention are pruned and the horizon says up to where", func(t *testing.T) {
		t.Parallel()
		s := sut.Open(t)
		if h, err := s.Horizon(ctx); err != nil || h != 0 {
			t.Fatalf("a new store's horizon: %d, %v", h, err)
		}
		a, b := venue("a"), venue("b")
		mustInsert(t, s.Posts(), a)
		mustInsert(t, s.Posts(), b)
		if err := s.Posts().Delete(ctx, a.ID, a.Seq); err != nil {
			t.Fatal(err)
		}
		tombstoneOf := func() (seq int64) {
			changes, _ := s.Changes(ctx, 0, 100)
			for _, c := range changes {
				if c.Deleted && c.ID == a.ID && c.Kind == calendar.PostTypeVenue && c.Standing.Status == "publish" { // all it keeps
					seq = c.Seq
				}
			}
			return seq
		}
		dead := tombstoneOf()
		if h, err := s.PruneChanges(ctx, time.Now().Add(-time.Hour)); err != nil || h != 0 || tombstoneOf() != dead {
			t.Fatalf("a delete within the retention: horizon %d, %v; tombstone %d, want %d kept", h, err, tombstoneOf(), dead)
		}
		if h, err := s.PruneChanges(ctx, time.Now().Add(time.Hour)); err != nil || h != dead || tombstoneOf() != 0 {
			t.Fatalf("past the retention: horizon %d, %v, want %d; tombstone %d left", h, err, dead, tombstoneOf())
		}
		if h, err := s.Horizon(ctx); err != nil || h != dead {
			t.Fatalf("the horizon kept: %d, %v", h, err)
		}
		if changes, _ := s.Changes(ctx, 0, 100); len(changes) != 1 || changes[0].ID != b.ID {
			t.Fatalf("the live document's entry stays: %+v", changes)
		}
	})

	t.Run("files", func(t *testing.T) { runFiles(t, sut) })

	if sut.Reopen != nil {
		t.Run("data persists across close and reopen", func(t *testing.T) {
			t.Parallel()
			s := sut.Open(t)
			p := venue("kept")
			mustInsert(t, s.Posts(), p)
			s = sut.Reopen(t, s)
			got, err := s.Posts().Get(ctx, p.ID)
			if err != nil || got.Slug != "kept" || got.Seq != p.Seq {
				t.Fatalf("after reopen Get = %+v, %v", got, err)
			}
			next := venue("next")
			mustInsert(t, s.Posts(), next)
			if next.ID != p.ID+1 || next.Seq <= p.Seq {
				t.Fatalf("after reopen: ID %d seq %d, want ID %d and seq above %d", next.ID, next.Seq, p.ID+1, p.Seq)
			}
		})
	}

	{
		t.Run("50 concurrent creates get 50 distinct IDs", func(t *testing.T) {
			t.Parallel()
			s := sut.Open(t)
			var wg sync.WaitGroup
			ids := make(chan int64, 50)
			for i := 0; i < 50; i++ {
				wg.Add(1)
				go func(i int) {
					defer wg.Done()
					p := venue(fmt.Sprintf("c%d", i))
					if err := s.Posts().Insert(ctx, p); err != nil {
						t.Error(err)
						return
					}
					ids <- p.ID
				}(i)
			}
			wg.Wait()
			close(ids)
			seen := map[int64]bool{}
			for id := range ids {
				if seen[id] || id < 1 || id > 50 {
					t.Fatalf("ID %d duplicated or outside 1..50", id)
				}
				seen[id] = true
			}
			if len(seen) != 50 {
				t.Fatalf("%d IDs, want 50", len(seen))
			}
		})
	}
}

func mustInsert[T calendar.Document](t *testing.T, r calendar.Repo[T], doc T) {
	t.Helper()
	if err := r.Insert(context.Background(), doc); err != nil {
		t.Fatal(err)
	}
}

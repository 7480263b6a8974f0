package app_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"calendar/app"
	"calendar/app/calendar"
	"calendar/index"
)

// batchFeed is a feed whose items take every path of a run's creates: new
// venues and categories (each written alone, after the batch held before
// it), known ones (held for a batch), titles twice (the second event's
// slug is the first's -2, the first stored before or held in the same
// batch), a series (written alone, with
// its occurrences), and an item a write refuses (its title too long) among
// held ones.
func batchFeed() string {
	var b strings.Builder
	b.WriteString("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//batch//EN\r\n")
	for i := range 11 {
		title := fmt.Sprintf("Event %d", i)
		switch i {
		case 4:
			title = "Event 3" // the title of one written alone before: event-3-2
		case 7:
			title = "Event 5" // the title of one held in the same batch: event-5-2
		case 6:
			title = strings.Repeat("x", 1001) // longer than a title may be: refused
		}
		fmt.Fprintf(&b, "BEGIN:VEVENT\r\nUID:batch-%d@example.org\r\nDTSTART:2027010%dT100000Z\r\nDTEND:2027010%[2]dT110000Z\r\nSUMMARY:%s\r\n"+
			"DESCRIPTION:About <b>%s</b>.\r\nLOCATION:Hall %d\\, Main Street\r\nCATEGORIES:Kind %d\r\n", i, 1+i%9, title, title, i%3, i%4)
		if i == 8 {
			b.WriteString("RRULE:FREQ=DAILY;COUNT=2\r\n")
		}
		b.WriteString("END:VEVENT\r\n")
	}
	b.WriteString("END:VCALENDAR\r\n")
	return b.String()
}

// importSite is an app over store whose imports fetch from f, with its
// administrator, its runs under limits (the defaults where 0).
type importSite struct {
	t     *testing.T
	ctx   context.Context
	store calendar.Store
	idx   calendar.Index
	app   *app.App
	admin app.Caller
}

func newImportSite(t *testing.T, store calendar.Store, idx calendar.Index, f *feeds, limits app.ImportLimits) *importSite {
	t.Helper()
	if idx == nil {
		live, err := index.Open(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { live.Close() })
		idx = live
	}
	a := app.New(store, idx, app.Settings{SiteURL: "http://x", Imports: app.ImportSettings{Fetcher: f, Limits: limits}})
	t.Cleanup(a.Stop)
	ctx := context.Background()
	if _, err := a.Users.EnsureAdmin(ctx, "a long enough password"); err != nil {
		t.Fatal(err)
	}
	admin, err := a.Users.Authenticate(ctx, "", "admin", "a long enough password")
	if err != nil {
		t.Fatal(err)
	}
	return &importSite{t: t, ctx: ctx, store: store, idx: idx, app: a, admin: app.Caller{User: admin}}
}

// run runs a source to its end and answers its latest run.
func (s *importSite) run(id int64) app.ImportRunView {
	s.t.Helper()
	if _, err := s.app.Imports.Run(s.ctx, s.admin, id); err != nil {
		s.t.Fatal(err)
	}
	s.app.Imports.Wait()
	runs, err := s.app.Imports.Runs(s.ctx, s.admin, id)
	if err != nil {
		s.t.Fatal(err)
	}
	return runs[0]
}

// state is what a site holds, as comparable text: each post (its ID,
// type, slug, fields, links, and whether it was written once: its sequence
// its insert's) and the events the index finds, each term, and the change
// feed of posts and terms in order (collection and ID: other records'
// writes take sequences between).
func (s *importSite) state() (posts, terms, feed []string) {
	s.t.Helper()
	all, err := s.store.Posts().Scan(s.ctx, 0, 1000)
	if err != nil {
		s.t.Fatal(err)
	}
	for _, p := range all {
		imported := ""
		if p.Imported != nil {
			imported = p.Imported.Item + "#" + p.Imported.Hash
		}
		posts = append(posts, fmt.Sprintf("%d %s %s %q %q %s %s %s venue=%d organizers=%v categories=%v tags=%v parent=%d once=%v %s",
			p.ID, p.Type, p.Slug, p.Title, p.Content, p.Status, p.Start, p.End, p.Venue, p.Organizers, p.Categories, p.Tags, p.Parent,
			p.Seq == p.CreatedSeq, imported))
	}
	all2, err := s.store.Terms().Scan(s.ctx, 0, 1000)
	if err != nil {
		s.t.Fatal(err)
	}
	for _, t := range all2 {
		terms = append(terms, fmt.Sprintf("%d %s %s %s", t.ID, t.Taxonomy, t.Slug, t.Name))
	}
	changes, err := s.store.Changes(s.ctx, 0, 1000)
	if err != nil {
		s.t.Fatal(err)
	}
	for _, c := range changes {
		if c.Collection == calendar.CollectionPosts || c.Collection == calendar.CollectionTerms {
			feed = append(feed, fmt.Sprintf("%s/%d", c.Collection, c.ID))
		}
	}
	found, err := s.idx.SearchPosts(s.ctx, calendar.PostQuery{Type: calendar.PostTypeEvent, Statuses: calendar.PostStatuses,
		Reader: calendar.ReadEverything, Limit: 100})
	if err != nil {
		s.t.Fatal(err)
	}
	slices.Sort(found.IDs)
	posts = append(posts, fmt.Sprintf("events indexed: %v", found.IDs))
	return posts, terms, feed
}

// items are what the site's import items say: each key's post, once.
func (s *importSite) items() map[string]int64 {
	s.t.Helper()
	all, err := s.store.ImportItems().Scan(s.ctx, 0, 1000)
	if err != nil {
		s.t.Fatal(err)
	}
	out := map[string]int64{}
	for _, it := range all {
		out[it.Kind+" "+it.Key] = it.Post
	}
	return out
}

func (s *importSite) source() int64 {
	s.t.Helper()
	src, err := s.app.Imports.Create(s.ctx, s.admin, app.ImportInput{Kind: ptr("ical"), URL: ptr(feedURL), Status: ptr("publish")})
	if err != nil {
		s.t.Fatal(err)
	}
	return src.ID
}

// A run that creates its events in batches stores what one writing each
// event alone stores: the same posts under the same IDs and slugs, the
// same venues, terms and links, each event written once, the change feed
// in the same order, the same items and outcomes, on either store; and its
// batches hold no more events, nor more of their text, than its limits.
func TestABatchedRunWritesWhatOneByOneWrites(t *testing.T) {
	t.Parallel()
	type limits struct{ items, bytes int }
	for _, st := range stores {
		t.Run(st.name, func(t *testing.T) {
			t.Parallel()
			fresh := st.start(t)
			f := &feeds{}
			f.set(feedURL, batchFeed())
			runs := []struct {
				limits
				batches string // the events each write of the store held
			}{
				{limits{1, 0}, "[]"},            // one by one
				{limits{3, 0}, "[3 2]"},         // events 4, 5, 7 held until the third; 9, 10 at the end
				{limits{100, 1}, "[1 1 1 1 1]"}, // each event's text is past the bytes
			}
			if st.name != "embedded" {
				runs = runs[:2] // the bounds are the app's, whatever the store
			}
			var alone struct {
				posts, terms, feed []string
				items              map[string]int64
				outcomes           string
			}
			for i, r := range runs {
				store := &faultyStore{Store: fresh()}
				store.posts = &faultyPosts{Repo: store.Store.Posts()}
				store.items = &faultyItems{Repo: store.Store.ImportItems()}
				s := newImportSite(t, store, nil, f, app.ImportLimits{BatchItems: r.items, BatchBytes: r.bytes})
				run := s.run(s.source())
				if run.Error != "" {
					t.Fatalf("%+v: %s", r.limits, run.Error)
				}
				outcomes := fmt.Sprintf("%s %v", counts(run), run.Failed)
				posts, terms, feed := s.state()
				items := s.items()
				if got := fmt.Sprint(store.posts.sizes); got != r.batches {
					t.Errorf("%+v: batches of %s, want %s", r.limits, got, r.batches)
				}
				if i == 0 {
					if !strings.HasPrefix(outcomes, "created=10 failed=1 ") {
						t.Fatalf("one by one: %s", outcomes)
					}
					alone.posts, alone.terms, alone.feed, alone.items, alone.outcomes = posts, terms, feed, items, outcomes
					continue
				}
				if outcomes != alone.outcomes {
					t.Errorf("%+v: outcomes %s\none by one: %s", r.limits, outcomes, alone.outcomes)
				}
				for _, c := range []struct {
					what           string
					batched, alone []string
				}{{"posts", posts, alone.posts}, {"terms", terms, alone.terms}, {"feed", feed, alone.feed}} {
					if !slices.Equal(c.batched, c.alone) {
						t.Errorf("%+v: %s:\n%s\none by one:\n%s", r.limits, c.what, strings.Join(c.batched, "\n"), strings.Join(c.alone, "\n"))
					}
				}
				if fmt.Sprint(items) != fmt.Sprint(alone.items) {
					t.Errorf("%+v: items %v\none by one %v", r.limits, items, alone.items)
				}
				once := 0
				for _, p := range posts {
					if strings.Contains(p, " event ") && strings.Contains(p, "once=true") {
						once++
					}
				}
				if once != 10 { // 9 events and the series' occurrence; the series is written again by its job
					t.Errorf("%+v: %d events written once, want 10:\n%s", r.limits, once, strings.Join(posts, "\n"))
				}
			}
		})
	}
}

// faultyStore counts the events of each batch; it fails the second write
// of import items made together, or stops the run in the middle of its
// second batch of events, when told.
type faultyStore struct {
	calendar.Store
	posts *faultyPosts
	items *faultyItems
}

func (s *faultyStore) Posts() calendar.Repo[*calendar.Post]             { return s.posts }
func (s *faultyStore) ImportItems() calendar.Repo[*calendar.ImportItem] { return s.items }

type faultyItems struct {
	calendar.Repo[*calendar.ImportItem]
	batches, failAt atomic.Int64
}

func (r *faultyItems) InsertMany(ctx context.Context, items []*calendar.ImportItem) error {
	if r.batches.Add(1) == r.failAt.Load() {
		return errors.New("the disk is full")
	}
	return r.Repo.InsertMany(ctx, items)
}

type faultyPosts struct {
	calendar.Repo[*calendar.Post]
	batches, stopAt atomic.Int64
	stop            func()
	mu              sync.Mutex
	sizes           []int // of each batch, in order
}

func (r *faultyPosts) InsertMany(ctx context.Context, posts []*calendar.Post) error {
	r.mu.Lock()
	r.sizes = append(r.sizes, len(posts))
	r.mu.Unlock()
	if r.batches.Add(1) == r.stopAt.Load() {
		go r.stop() // the process stops while the batch is written
		<-ctx.Done()
	}
	return r.Repo.InsertMany(ctx, posts)
}

// A run that fails between a batch's events and their items, or stops in
// the middle of a batch, leaves every event it acknowledged with its item;
// the next run finds the events stored without their items (none is made
// twice) and creates the rest, on either store.
func TestARunStoppedMidBatchIsCompletedByTheNextWithoutDuplicates(t *testing.T) {
	t.Parallel()
	// Stopping is the app's alone (the store refuses a write under a
	// context ended); a store failing between events and items is each
	// store's, whose InsertMany store all or a prefix.
	for _, c := range []struct{ store, fault string }{{"embedded", "items not written"}, {"embedded", "stopped"}, {"mongodb", "items not written"}} {
		st := stores[slices.IndexFunc(stores, func(s storeKind) bool { return s.name == c.store })]
		fault := c.fault
		t.Run(c.store+"/"+fault, func(t *testing.T) {
			t.Parallel()
			store := &faultyStore{Store: st.start(t)()}
			store.posts = &faultyPosts{Repo: store.Store.Posts()}
			store.items = &faultyItems{Repo: store.Store.ImportItems()}
			f := &feeds{}
			f.set(feedURL, batchFeed())
			s := newImportSite(t, store, nil, f, app.ImportLimits{BatchItems: 2})
			store.posts.stop = s.app.Imports.Stop
			if fault == "stopped" {
				store.posts.stopAt.Store(2)
			} else {
				store.items.failAt.Store(2)
			}
			id := s.source()
			if first := s.run(id); first.Error == "" {
				t.Fatalf("the first run did not fail: %s", counts(first))
			}
			for key, post := range s.items() { // what was acknowledged is whole
				if _, err := store.Posts().Get(s.ctx, post); err != nil {
					t.Errorf("item %s: its event %d: %v", key, post, err)
				}
			}
			if fault == "stopped" { // a new process over the same store and index
				s = newImportSite(t, store, s.idx, f, app.ImportLimits{BatchItems: 2})
			}
			second := s.run(id)
			if second.Error != "" || second.Counts[app.OutcomeCreated]+second.Counts[app.OutcomeUnchanged] != 10 {
				t.Fatalf("second run: %s %s", counts(second), second.Error)
			}
			posts, _, _ := s.state()
			titles := map[string]int{}
			events := 0
			for _, p := range posts {
				if strings.Contains(p, " event ") && strings.Contains(p, "parent=0 ") {
					events++
					titles[strings.Fields(p)[2]]++
				}
			}
			items := s.items()
			eventItems := 0
			for key := range items {
				if strings.HasPrefix(key, calendar.PostTypeEvent+" ") {
					eventItems++
				}
			}
			if events != 10 || eventItems != 10 {
				t.Errorf("%d events, %d items of events, want 10 each:\n%s\n%v", events, eventItems, strings.Join(posts, "\n"), items)
			}
			for slug, n := range titles {
				if n > 1 {
					t.Errorf("slug %s %d times", slug, n)
				}
			}
		})
	}
}

package app_test

import (
	"context"
	"crypto/sha256"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"calendar/app"
	"calendar/app/calendar"
)

// feeds is a fetcher of feeds held in memory, by URL, with ETags: what the
// egress fetcher does, without HTTP.
type feeds struct {
	mu      sync.Mutex
	bodies  map[string]string
	fetches int
	refuse  error
}

func (f *feeds) set(url, body string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.bodies == nil {
		f.bodies = map[string]string{}
	}
	f.bodies[url] = body
}

func (f *feeds) FetchSource(_ context.Context, url string, cond app.FetchConditions, maxBytes int64) (*app.Fetched, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.fetches++
	if f.refuse != nil {
		return nil, f.refuse
	}
	body, ok := f.bodies[url]
	if !ok {
		return nil, app.ErrFetchFailed
	}
	etag := fmt.Sprintf(`"%x"`, sha256.Sum256([]byte(body)))
	if cond.ETag == etag {
		return &app.Fetched{NotModified: true}, nil
	}
	return &app.Fetched{Body: []byte(body), ETag: etag}, nil
}

// importWorld is a world whose imports fetch from feeds.
func importWorld(t *testing.T) (*world, *feeds) {
	f := &feeds{}
	w := newWorld(t, func(s *app.Settings) { s.Imports.Fetcher = f })
	return w, f
}

func fixture(t *testing.T, name string) string {
	b, err := os.ReadFile("testdata/imports/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// run runs a source to its end and answers its latest run.
func (w *world) run(id int64) app.ImportRunView {
	w.t.Helper()
	_, err := w.app.Imports.Run(w.ctx, w.admin(), id)
	w.must(err)
	w.app.Imports.Wait()
	runs, err := w.app.Imports.Runs(w.ctx, w.admin(), id)
	w.must(err)
	if runs[0].Error != "" {
		w.t.Fatalf("run failed: %s", runs[0].Error)
	}
	return runs[0]
}

// postChanges are the changes of posts and terms written since seq.
func (w *world) postChanges(since int64) int {
	w.t.Helper()
	changes, err := w.store.Changes(w.ctx, since, 10000)
	w.must(err)
	n := 0
	for _, c := range changes {
		if c.Collection == calendar.CollectionPosts || c.Collection == calendar.CollectionTerms {
			n++
		}
	}
	return n
}

func counts(r app.ImportRunView) string {
	var parts []string
	for _, o := range app.ImportOutcomes {
		if r.Counts[o] > 0 {
			parts = append(parts, o+"="+itoa(int64(r.Counts[o])))
		}
	}
	return strings.Join(parts, " ")
}

const feedURL = "https://feeds.example.org/club.ics"

func TestAnICalSourceIsKeptInStep(t *testing.T) {
	t.Parallel()
	w, f := importWorld(t)
	feed := fixture(t, "nextcloud.ics") + fixture(t, "apple.ics") // two calendars: the first is read
	f.set(feedURL, feed)
	src, err := w.app.Imports.Create(w.ctx, w.admin(), app.ImportInput{Kind: ptr("ical"), URL: ptr("webcal://feeds.example.org/club.ics"),
		Status: ptr("publish"), OnRemoved: ptr("cancel"), Categories: strs("Imported")})
	w.must(err)
	if src.URL != feedURL {
		t.Fatalf("url %q: webcal is fetched over https", src.URL)
	}

	first := w.run(src.ID)
	if got := counts(first); got != "created=2" {
		t.Fatalf("first run: %s (%v)", got, first.Failed)
	}
	choir := w.findImported("Choir rehearsal")
	if choir.Status != "publish" || len(choir.Recurrence) == 0 || !hasCategory(w, choir, "Imported") || !hasCategory(w, choir, "Choir") {
		t.Errorf("choir: %+v", choir)
	}
	if concert := w.findImported("Spring concert"); concert.EventStatus != calendar.EventCanceled {
		t.Errorf("the cancelled concert is %q", concert.EventStatus)
	}

	// Unchanged: the feed answers 304, and even when it does not, nothing
	// of the calendar is written.
	seq, _ := w.store.LastSeq(w.ctx)
	if got := counts(w.run(src.ID)); got != "" {
		t.Errorf("a run on a 304: %s", got)
	}
	f.set(feedURL, feed+"\r\n") // another ETag, the same events
	if got := counts(w.run(src.ID)); got != "unchanged=2" {
		t.Errorf("second run: %s", got)
	}
	if n := w.postChanges(seq); n != 0 {
		t.Errorf("an unchanged run wrote %d changes of the calendar", n)
	}

	// An edit at the source is updated; an edit here is skipped.
	concert := w.findImported("Spring concert")
	_, err = w.app.Events.Update(w.ctx, w.admin(), app.PostRef{ID: concert.ID}, app.EventInput{PostFields: app.PostFields{Excerpt: ptr("Ours now")}})
	w.must(err)
	f.set(feedURL, strings.Replace(strings.Replace(feed, "Choir rehearsal", "Choir rehearsal (new room)", 1), "SUMMARY:Spring concert", "SUMMARY:Spring concert!", 1))
	second := w.run(src.ID)
	if got := counts(second); got != "updated=1 skipped=1" {
		t.Errorf("after edits: %s", got)
	}
	if w.findImported("Choir rehearsal (new room)").ID != choir.ID {
		t.Error("the choir was not updated in place")
	}

	// Gone from the source: on_removed (cancel); the locally edited one is skipped again.
	empty := feed[:strings.Index(feed, "BEGIN:VEVENT")] + "END:VCALENDAR\r\n"
	f.set(feedURL, empty)
	third := w.run(src.ID)
	if got := counts(third); got != "skipped=1 removed=1" {
		t.Errorf("after a removal: %s %v", got, third.Failed)
	}
	if old := w.post(choir.ID); old.EventStatus != calendar.EventCanceled {
		t.Errorf("the removed choir is %q", old.EventStatus)
	}
}

func TestOnlyAdministratorsAndEditorsManageImports(t *testing.T) {
	t.Parallel()
	w, _ := importWorld(t)
	for role, caller := range w.callers {
		_, err := w.app.Imports.Create(w.ctx, caller, app.ImportInput{Kind: ptr("ical"), URL: ptr(feedURL)})
		allowed := role == calendar.RoleAdministrator || role == calendar.RoleEditor
		if (err == nil) != allowed {
			t.Errorf("%s: %v", role, err)
		}
		if _, err := w.app.Imports.Receive(w.ctx, caller); (err == nil) != allowed { // the gate of a source's body, a file perhaps
			t.Errorf("%s: the gate answered %v", role, err)
		}
	}
	_, err := w.app.Imports.List(w.ctx, visitor)
	invalid(t, err, "rest_cannot_manage_imports")
}

func TestASourceRunsOnceAtATime(t *testing.T) {
	t.Parallel()
	w, f := importWorld(t)
	f.mu.Lock() // the fetch waits: the first run stays under way
	src, err := w.app.Imports.Create(w.ctx, w.admin(), app.ImportInput{Kind: ptr("ical"), URL: ptr(feedURL)})
	w.must(err)
	_, err = w.app.Imports.Run(w.ctx, w.admin(), src.ID)
	w.must(err)
	_, err = w.app.Imports.Run(w.ctx, w.admin(), src.ID)
	invalid(t, err, "rest_import_running")
	f.mu.Unlock()
	w.app.Imports.Wait()
	runs, _ := w.app.Imports.Runs(w.ctx, w.admin(), src.ID)
	if len(runs) != 1 || runs[0].Error == "" || runs[0].Ended == nil {
		t.Errorf("runs: %+v", runs) // the feed does not exist: the run failed, and says so
	}
	if v, _ := w.app.Imports.Get(w.ctx, w.admin(), src.ID); v.Failures != 1 || v.Running {
		t.Errorf("source after a failed run: %+v", v)
	}
}

func TestAPreviewWritesNothing(t *testing.T) {
	t.Parallel()
	w, f := importWorld(t)
	f.set(feedURL, fixture(t, "google.ics"))
	seq, _ := w.store.LastSeq(w.ctx)
	p, err := w.app.Imports.Preview(w.ctx, w.admin(), 0, app.ImportInput{Kind: ptr("ical"), URL: ptr(feedURL)})
	w.must(err)
	if p.Counts[app.OutcomeCreated] != 3 || len(p.Items) != 3 {
		t.Errorf("preview: %+v", p)
	}
	if after, _ := w.store.LastSeq(w.ctx); after != seq {
		t.Errorf("a preview wrote: %d -> %d", seq, after)
	}
}

func (w *world) findImported(title string) *calendar.Post {
	w.t.Helper()
	var found *calendar.Post
	var after int64
	for {
		page, err := w.store.Posts().Scan(w.ctx, after, 1000)
		w.must(err)
		if len(page) == 0 {
			break
		}
		for _, p := range page {
			if p.Type == calendar.PostTypeEvent && p.Title == title && p.Parent == 0 {
				found = p
			}
		}
		after = page[len(page)-1].ID
	}
	if found == nil {
		w.t.Fatalf("no event %q", title)
	}
	return found
}

func (w *world) post(id int64) *calendar.Post {
	w.t.Helper()
	p, err := w.store.Posts().Get(w.ctx, id)
	w.must(err)
	return p
}

func hasCategory(w *world, p *calendar.Post, name string) bool {
	for _, id := range p.Categories {
		if t, err := w.store.Terms().Get(w.ctx, id); err == nil && t.Name == name {
			return true
		}
	}
	return false
}

func TestScheduledSourcesRunWhenDueAndAFailingOneBacksOff(t *testing.T) {
	t.Parallel()
	w, f := importWorld(t)
	f.set(feedURL, "BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n")
	good, err := w.app.Imports.Create(w.ctx, w.admin(), app.ImportInput{Kind: ptr("ical"), URL: ptr(feedURL), Schedule: ptr("hourly")})
	w.must(err)
	bad, err := w.app.Imports.Create(w.ctx, w.admin(), app.ImportInput{Kind: ptr("ical"), URL: ptr("https://gone.example.org/x.ics"), Schedule: ptr("daily")})
	w.must(err)
	_, err = w.app.Imports.Create(w.ctx, w.admin(), app.ImportInput{Kind: ptr("ical"), URL: ptr(feedURL)}) // manual: never by itself
	w.must(err)

	began, err := w.app.Imports.RunDue(w.ctx)
	w.must(err)
	w.app.Imports.Wait()
	if began != 2 {
		t.Fatalf("began %d runs, want the two scheduled sources'", began)
	}
	again, err := w.app.Imports.RunDue(w.ctx)
	w.must(err)
	if again != 0 {
		t.Errorf("began %d runs again before they were due", again)
	}
	g, _ := w.app.Imports.Get(w.ctx, w.admin(), good.ID)
	b, _ := w.app.Imports.Get(w.ctx, w.admin(), bad.ID)
	if g.Failures != 0 || g.LastSuccess == nil || g.NextRun == nil || g.LastRun.Trigger != app.TriggerScheduled {
		t.Errorf("the good source: %+v", g)
	}
	next, _ := time.Parse(time.RFC3339, *b.NextRun)
	if b.Failures != 1 || b.LastSuccess != nil || time.Until(next) < 23*time.Hour {
		t.Errorf("the failing source: failures %d, next %s", b.Failures, *b.NextRun)
	}
	if m := w.app.Imports.Metrics(); len(m) != 2 || m[0].Runs["ok"] != 1 || m[1].Runs["failed"] != 1 {
		t.Errorf("metrics: %+v", m)
	}
}

func TestAFailingSourceBacksOffLongerEachTime(t *testing.T) {
	t.Parallel()
	for failures, want := range map[int]time.Duration{1: time.Hour, 2: 2 * time.Hour, 3: 4 * time.Hour, 30: 7 * 24 * time.Hour} {
		if got := app.ImportBackoff("hourly", failures); got != want {
			t.Errorf("after %d failures: %s, want %s", failures, got, want)
		}
	}
}

func TestAJSONLDPageAndACSVFileAreImported(t *testing.T) {
	t.Parallel()
	w, f := importWorld(t)
	f.set("https://library.example.org/events/", fixture(t, "events.html"))
	page, err := w.app.Imports.Create(w.ctx, w.admin(), app.ImportInput{Kind: ptr("jsonld"), URL: ptr("https://library.example.org/events/")})
	w.must(err)
	if got := counts(w.run(page.ID)); got != "created=3" {
		t.Errorf("the page: %s", got)
	}
	if fair := w.findImported("Book fair"); fair.EventStatus != calendar.EventCanceled || !fair.AllDay || fair.Status != "draft" {
		t.Errorf("the book fair: %+v", fair)
	}
	if poetry := w.findImported("Poetry evening"); poetry.Content != "<p>Readings and an open mic.</p>" || poetry.Venue == 0 || len(poetry.Organizers) != 1 {
		t.Errorf("the poetry evening: %q venue %d organizers %v", poetry.Content, poetry.Venue, poetry.Organizers)
	}

	file := fixture(t, "events.csv")
	sheet, err := w.app.Imports.Create(w.ctx, w.admin(), app.ImportInput{Kind: ptr("csv"), File: []byte(file), Schedule: ptr("daily")})
	w.must(err)
	if got := counts(w.run(sheet.ID)); got != "created=2" {
		t.Errorf("the file: %s", got)
	}
	pottery := w.findImported("Pottery workshop")
	if pottery.Content != "Hands-on, <b>all levels</b>" || pottery.TimeZone != "Europe/Paris" || len(pottery.Categories) != 2 {
		t.Errorf("pottery: %q %s %v", pottery.Content, pottery.TimeZone, pottery.Categories)
	}
	if studio := w.findImported("Open studio day"); !studio.AllDay || studio.Venue != pottery.Venue {
		t.Errorf("the studio day: all day %v, venue %d (pottery's %d)", studio.AllDay, studio.Venue, pottery.Venue)
	}
	if v, _ := w.app.Imports.Get(w.ctx, w.admin(), sheet.ID); v.Active {
		t.Error("a file's source stays active after its run")
	}
}

func TestAnItemAWriteRefusesFailsAloneAndSaysWhy(t *testing.T) {
	t.Parallel()
	w, f := importWorld(t)
	f.set(feedURL, "BEGIN:VCALENDAR\r\n"+
		"BEGIN:VEVENT\r\nUID:fine\r\nDTSTART:20270101T100000Z\r\nSUMMARY:Fine\r\nEND:VEVENT\r\n"+
		"BEGIN:VEVENT\r\nUID:zoned\r\nDTSTART;TZID=Mars/Olympus:20270101T100000\r\nSUMMARY:Elsewhere\r\nEND:VEVENT\r\n"+
		"BEGIN:VEVENT\r\nUID:titled\r\nDTSTART:20270101T100000Z\r\nSUMMARY:"+strings.Repeat("t", 2000)+"\r\nEND:VEVENT\r\n"+
		"END:VCALENDAR\r\n")
	p, err := w.app.Imports.Preview(w.ctx, w.admin(), 0, app.ImportInput{Kind: ptr("ical"), URL: ptr(feedURL)})
	w.must(err)
	if p.Counts[app.OutcomeFailed] != 1 || p.Items[1].Reason != `unknown time zone "Mars/Olympus"` {
		t.Errorf("preview: %+v", p)
	}
	src, err := w.app.Imports.Create(w.ctx, w.admin(), app.ImportInput{Kind: ptr("ical"), URL: ptr(feedURL)})
	w.must(err)
	run := w.run(src.ID)
	if got := counts(run); got != "created=1 failed=2" || len(run.Failed) != 2 || !strings.Contains(run.Failed[1].Reason, "title") {
		t.Errorf("run: %s %+v", got, run.Failed)
	}
}

// A run whose process stopped (a crash, a restart) holds the source no
// longer than its lease: the next run, asked for or scheduled, records it as
// stopped and goes on.
func TestARunWhoseProcessStoppedIsRecordedAndTheSourceRunsAgain(t *testing.T) {
	t.Parallel()
	w, f := importWorld(t)
	f.set(feedURL, "BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n")
	src, err := w.app.Imports.Create(w.ctx, w.admin(), app.ImportInput{Kind: ptr("ical"), URL: ptr(feedURL), Schedule: ptr("hourly")})
	w.must(err)
	stored, err := w.store.Imports().Get(w.ctx, src.ID)
	w.must(err)
	started := time.Now().Add(-time.Hour).UTC()
	stored.Running = &calendar.ImportRun{ID: 1, Started: started, Trigger: app.TriggerScheduled}
	stored.Lease = &calendar.Lease{Holder: "a process that stopped", Until: started.Add(30 * time.Second)}
	w.must(w.store.Imports().Update(w.ctx, stored))

	began, err := w.app.Imports.RunDue(w.ctx)
	w.must(err)
	w.app.Imports.Wait()
	runs, err := w.app.Imports.Runs(w.ctx, w.admin(), src.ID)
	w.must(err)
	if began != 1 || len(runs) != 2 || runs[0].ID != 2 || runs[0].Error != "" || runs[1].Error != "the process running it stopped" || runs[1].Ended == nil {
		t.Errorf("began %d; runs %+v", began, runs)
	}
}

// Venues are matched by their identity at the source, then by name and
// city: of two halls of one name, the one in each item's city.
func TestAVenueIsMatchedByNameAndCityBeforeOneIsCreated(t *testing.T) {
	t.Parallel()
	w, f := importWorld(t)
	lyon := w.venue("Town Hall", app.LinkedInput{Meta: map[string]string{"city": "Lyon"}})
	paris := w.venue("Paris hall", app.LinkedInput{Meta: map[string]string{"city": "Paris"}}) // a create of a name taken would be the first
	_, err := w.app.Venues.Update(w.ctx, w.admin(), app.PostRef{ID: paris.ID}, app.LinkedInput{PostFields: app.PostFields{Title: ptr("Town Hall")}})
	w.must(err)
	f.set("https://city.example.org/", `<script type="application/ld+json">[
		{"@type":"Event","name":"Council in Paris","startDate":"2027-02-01T18:00","location":{"@type":"Place","name":"Town hall","address":{"addressLocality":"Paris"}}},
		{"@type":"Event","name":"Council in Lyon","startDate":"2027-02-02T18:00","location":{"@type":"Place","name":"Town hall","address":{"addressLocality":"Lyon"}}}]</script>`)
	src, err := w.app.Imports.Create(w.ctx, w.admin(), app.ImportInput{Kind: ptr("jsonld"), URL: ptr("https://city.example.org/")})
	w.must(err)
	if got := counts(w.run(src.ID)); got != "created=2" {
		t.Fatalf("run: %s", got)
	}
	if got, want := []int64{w.findImported("Council in Paris").Venue, w.findImported("Council in Lyon").Venue}, []int64{paris.ID, lyon.ID}; got[0] != want[0] || got[1] != want[1] {
		t.Errorf("the councils meet at venues %v, want Paris' and Lyon's %v", got, want)
	}
}

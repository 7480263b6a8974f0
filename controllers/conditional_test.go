package controllers_test

import (
	"context"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"calendar/controllers"
)

// strongTag is a list's or a document's entity tag (a hash), or an item's
// (its revision, then a hash).
var strongTag = regexp.MustCompile(`^"([0-9a-f]{32}|[0-9]+-[0-9a-f]{16})"$`)

func TestAReadAnswersNotModifiedWhenTheClientHasItsETag(t *testing.T) {
	t.Parallel()
	s := startService(t)
	venue := s.create("venue", asAdmin(), "venue", "Hall", "city", "Lyon")
	for _, path := range []string{
		"/vendor/events/v1/venues/" + idOf(venue),
		"/vendor/events/v1/venues?search=hall",
		"/vendor/events/v1",
		"/vendor/events/v1/doc",
	} {
		t.Run(path, func(t *testing.T) {
			first := s.do("GET", path)
			first.expectStatus(t, http.StatusOK)
			etag := first.Header.Get("ETag")
			if !strongTag.MatchString(etag) {
				t.Fatalf("ETag = %q, want a strong quoted hash", etag)
			}
			if again := s.do("GET", path); again.Header.Get("ETag") != etag {
				t.Fatalf("same answer, other ETag: %q then %q", etag, again.Header.Get("ETag"))
			}
			for _, sent := range []string{etag, `"other", ` + etag, "W/" + etag, "*"} {
				res := s.do("GET", path, header("If-None-Match", sent))
				res.expectStatus(t, http.StatusNotModified)
				if len(res.Body) != 0 {
					t.Fatalf("304 with a body: %s", res.Body)
				}
				for _, name := range []string{"ETag", "Cache-Control", "Vary"} {
					if res.Header.Get(name) != first.Header.Get(name) {
						t.Fatalf("If-None-Match %s: %s = %q, want %q", sent, name, res.Header.Get(name), first.Header.Get(name))
					}
				}
			}
			other := s.do("GET", path, header("If-None-Match", `"0123", W/"4567"`))
			other.expectStatus(t, http.StatusOK)
			if string(other.Body) != string(first.Body) {
				t.Fatal("a stale ETag did not get the whole answer")
			}
		})
	}
}

func TestTheETagChangesWhenTheItemChanges(t *testing.T) {
	t.Parallel()
	s := startService(t)
	venue := s.create("venue", asAdmin(), "venue", "Hall", "city", "Lyon")
	item, list := "/vendor/events/v1/venues/"+idOf(venue), "/vendor/events/v1/venues"
	before, listBefore := s.do("GET", item).Header.Get("ETag"), s.do("GET", list).Header.Get("ETag")
	s.do("POST", item, asAdmin(), form("city", "Paris")).expectStatus(t, http.StatusOK)
	after := s.do("GET", item, header("If-None-Match", before))
	after.expectStatus(t, http.StatusOK)
	if tag := after.Header.Get("ETag"); tag == before || !strongTag.MatchString(tag) {
		t.Fatalf("ETag after the update = %q, before %q", tag, before)
	}
	if after.object(t)["city"] != "Paris" {
		t.Fatalf("not the new version: %s", after.Body)
	}
	s.do("GET", list, header("If-None-Match", listBefore)).expectStatus(t, http.StatusOK)
}

func TestIfModifiedSinceComparesWithTheItemsModificationTime(t *testing.T) {
	t.Parallel()
	s := startService(t)
	venue := s.create("venue", asAdmin(), "venue", "Hall")
	event := s.event(map[string]any{"title": "Gala", "start_date": "2030-05-01 20:00", "end_date": "2030-05-01 22:00", "venue": venue["id"]})
	for _, path := range []string{"/vendor/events/v1/venues/" + idOf(venue), eventsPath + "/" + idOf(event)} {
		t.Run(path, func(t *testing.T) {
			res := s.do("GET", path)
			modified, err := time.Parse("2006-01-02 15:04:05", res.object(t)["modified_utc"].(string))
			if err != nil {
				t.Fatal(err)
			}
			if got := res.Header.Get("Last-Modified"); got != modified.Format(http.TimeFormat) {
				t.Fatalf("Last-Modified = %q, want %q (modified_utc)", got, modified.Format(http.TimeFormat))
			}
			cases := []struct {
				name    string
				headers [][2]string
				want    int
			}{
				{"at the modification", [][2]string{{"If-Modified-Since", modified.Format(http.TimeFormat)}}, http.StatusNotModified},
				{"after it", [][2]string{{"If-Modified-Since", modified.Add(time.Hour).Format(http.TimeFormat)}}, http.StatusNotModified},
				{"before it", [][2]string{{"If-Modified-Since", modified.Add(-time.Second).Format(http.TimeFormat)}}, http.StatusOK},
				{"not a date", [][2]string{{"If-Modified-Since", "yesterday"}}, http.StatusOK},
				{"If-None-Match wins", [][2]string{{"If-Modified-Since", modified.Add(time.Hour).Format(http.TimeFormat)},
					{"If-None-Match", `"stale"`}}, http.StatusOK},
			}
			for _, c := range cases {
				var opts []option
				for _, h := range c.headers {
					opts = append(opts, header(h[0], h[1]))
				}
				if got := s.do("GET", path, opts...); got.Status != c.want {
					t.Fatalf("%s: status %d, want %d", c.name, got.Status, c.want)
				}
			}
		})
	}
	// Editing the venue changes the event's answer, so it moves the event's Last-Modified too.
	eventPath := eventsPath + "/" + idOf(event)
	lastModified := s.do("GET", eventPath).Header.Get("Last-Modified")
	time.Sleep(1100 * time.Millisecond)
	s.do("POST", "/vendor/events/v1/venues/"+idOf(venue), asAdmin(), form("city", "Lyon")).expectStatus(t, http.StatusOK)
	s.do("GET", eventPath, header("If-Modified-Since", lastModified)).expectStatus(t, http.StatusOK)
}

func TestAnonymousReadsMayBeCachedSignedInOnesMayNot(t *testing.T) {
	t.Parallel()
	s := startServiceWith(t, func(c *controllers.Config) { c.CacheMaxAge = 5 * time.Minute })
	venue := s.create("venue", asAdmin(), "venue", "Hall")
	item := "/vendor/events/v1/venues/" + idOf(venue)
	private := "no-cache, must-revalidate, max-age=0, no-store, private"
	cases := []struct {
		name, path   string
		opts         []option
		cacheControl string
		etag         bool
	}{
		{"anonymous item", item, nil, "public, max-age=300", true},
		{"anonymous list", "/vendor/events/v1/venues", nil, "public, max-age=300", true},
		{"signed-in item", item, []option{asAdmin()}, private, true},
		{"signed-in list", "/vendor/events/v1/venues", []option{asAdmin()}, private, true},
		{"anonymous error", "/vendor/events/v1/venues/999", nil, "", false},
		{"anonymous probe", "/healthz", nil, "", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := s.do("GET", c.path, c.opts...)
			if got := res.Header.Get("Cache-Control"); got != c.cacheControl {
				t.Fatalf("Cache-Control = %q, want %q", got, c.cacheControl)
			}
			if has := res.Header.Get("ETag") != ""; has != c.etag {
				t.Fatalf("ETag %q, want one: %v", res.Header.Get("ETag"), c.etag)
			}
			for _, name := range []string{"X-Powered-By", "Server-Timing", "Trailer"} {
				if res.Header.Get(name) != "" {
					t.Fatalf("the framework's %s leaked", name)
				}
			}
			vary := strings.Join(res.Header.Values("Vary"), ", ")
			if c.etag && (!strings.Contains(vary, "Authorization") || !strings.Contains(vary, "Accept")) {
				t.Fatalf("Vary = %q, want Authorization and Accept", vary)
			}
		})
	}
	if cc := startService(t).do("GET", "/vendor/events/v1").Header.Get("Cache-Control"); cc != "public, max-age=60" {
		t.Fatalf("default Cache-Control = %q", cc)
	}
}

// TestConditionalWritesGoThroughOnlyOverTheVersionTheClientRead: every item
// route honours If-Match with the ETag of a read (or of a write's answer):
// the current one writes, an older one is a 412 that changes nothing; * and
// a weakened tag name the item too.
func TestConditionalWritesGoThroughOnlyOverTheVersionTheClientRead(t *testing.T) {
	t.Parallel()
	s := startService(t)
	venue := s.create("venue", asAdmin(), "venue", "Hall")
	organizer := s.create("organizer", asAdmin(), "organizer", "Ann")
	event := s.event(at("Gala", "2030-05-01 20:00", "2030-05-01 22:00"))
	category := s.do("POST", "/vendor/events/v1/categories", asAdmin(), form("name", "Jazz")).object(t)
	tag := s.do("POST", "/vendor/events/v1/tags", asAdmin(), form("name", "Live")).object(t)
	media := s.upload("stage.png", pngImage(t, 40, 30))
	for _, r := range []struct {
		path, field string
	}{
		{eventsPath + "/" + idOf(event), "title"},
		{"/vendor/events/v1/venues/" + idOf(venue), "venue"},
		{"/vendor/events/v1/organizers/" + idOf(organizer), "organizer"},
		{"/vendor/events/v1/categories/" + idOf(category), "name"},
		{"/vendor/events/v1/tags/" + idOf(tag), "name"},
		{mediaPath + "/" + idOf(media), "alt_text"},
	} {
		t.Run(r.path, func(t *testing.T) {
			read := s.do("GET", r.path, asAdmin())
			read.expectStatus(t, http.StatusOK)
			etag := read.Header.Get("ETag")
			write := s.do("POST", r.path, asAdmin(), header("If-Match", etag), form(r.field, "first"))
			write.expectStatus(t, http.StatusOK)
			current := write.Header.Get("ETag")
			if current == "" || current == etag {
				t.Fatalf("the write's answer has ETag %q, want a new one (read: %q)", current, etag)
			}
			last, _ := s.store.LastSeq(context.Background())
			shown := s.do("GET", r.path, asAdmin()).Header.Get("ETag")
			for _, stale := range []string{etag, `"other"`, `"12345678-00"`} {
				s.do("POST", r.path, asAdmin(), header("If-Match", stale), form(r.field, "lost")).
					expectError(t, http.StatusPreconditionFailed, "rest_precondition_failed")
				s.do("DELETE", r.path+"?force=true", asAdmin(), header("If-Match", stale)).
					expectError(t, http.StatusPreconditionFailed, "rest_precondition_failed")
			}
			if now, _ := s.store.LastSeq(context.Background()); now != last {
				t.Fatalf("refused conditional writes moved the change sequence from %d to %d", last, now)
			}
			if got := s.do("GET", r.path, asAdmin()).Header.Get("ETag"); got != shown {
				t.Fatalf("the item changed under refused writes: ETag %q, want %q", got, shown)
			}
			for i, tag := range []string{`"other", ` + current, "*"} {
				res := s.do("POST", r.path, asAdmin(), header("If-Match", tag), form(r.field, fmt.Sprint("again ", i)))
				res.expectStatus(t, http.StatusOK)
				current = res.Header.Get("ETag")
			}
			s.do("POST", r.path, asAdmin(), header("If-Match", "W/"+current), form(r.field, "weak")).expectStatus(t, http.StatusOK)
		})
	}
}

// TestIfUnmodifiedSinceRefusesAWriteOfAnItemChangedAfterIt: without
// If-Match, the date of the client's copy decides.
func TestIfUnmodifiedSinceRefusesAWriteOfAnItemChangedAfterIt(t *testing.T) {
	t.Parallel()
	s := startService(t)
	event := s.event(at("Gala", "2030-05-01 20:00", "2030-05-01 22:00"))
	path := eventsPath + "/" + idOf(event)
	modified, err := http.ParseTime(s.do("GET", path).Header.Get("Last-Modified"))
	if err != nil {
		t.Fatal(err)
	}
	s.do("POST", path, asAdmin(), header("If-Unmodified-Since", modified.Add(-time.Second).Format(http.TimeFormat)),
		form("title", "lost")).expectError(t, http.StatusPreconditionFailed, "rest_precondition_failed")
	s.do("DELETE", path, asAdmin(), header("If-Unmodified-Since", modified.Add(-time.Second).Format(http.TimeFormat))).
		expectError(t, http.StatusPreconditionFailed, "rest_precondition_failed")
	if got := s.do("GET", path, asAdmin()).object(t); got["title"] != "Gala" || got["status"] != "publish" {
		t.Fatalf("refused writes changed the event: %v %v", got["title"], got["status"])
	}
	for _, since := range []string{modified.Format(http.TimeFormat), "not a date"} {
		s.do("POST", path, asAdmin(), header("If-Unmodified-Since", since), form("title", "Gala "+since)).expectStatus(t, http.StatusOK)
	}
	// If-Match, when sent, decides alone.
	etag := s.do("GET", path, asAdmin()).Header.Get("ETag")
	s.do("POST", path, asAdmin(), header("If-Match", etag), header("If-Unmodified-Since", "Mon, 01 Jan 2001 00:00:00 GMT"),
		form("title", "Kept")).expectStatus(t, http.StatusOK)
}

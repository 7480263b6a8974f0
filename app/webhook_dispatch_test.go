package app_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"calendar/app"
	"calendar/app/calendar"
)

// receiver is a fake sender: it records what it is sent, and answers as
// answer says (status, error) for the n-th attempt.
type receiver struct {
	mu       sync.Mutex
	got      []delivered
	attempts int
	answer   func(n int) (int, error)
}

type delivered struct {
	URL      string
	ID, Type string
	Seq      int64
	Item     int64
	Object   map[string]any
	Changed  []string
	Headers  map[string]string
}

func (r *receiver) Send(ctx context.Context, url string, headers map[string]string, body []byte) (int, string, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.attempts++
	status, err := 204, error(nil)
	if r.answer != nil {
		status, err = r.answer(r.attempts)
	}
	if err != nil || status >= 300 {
		return status, "not now", err
	}
	var p struct {
		Type string `json:"type"`
		Data struct {
			ID      int64          `json:"id"`
			Seq     int64          `json:"seq"`
			Object  map[string]any `json:"object"`
			Changed []string       `json:"changed"`
		} `json:"data"`
	}
	if err := json.Unmarshal(body, &p); err != nil {
		panic(err)
	}
	r.got = append(r.got, delivered{URL: url, ID: headers["webhook-id"], Type: p.Type, Seq: p.Data.Seq, Item: p.Data.ID, Object: p.Data.Object, Changed: p.Data.Changed, Headers: headers})
	return status, "", nil
}

func (r *receiver) Check(string) error { return nil }

func (r *receiver) deliveries() []delivered {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]delivered(nil), r.got...)
}

// to keeps the deliveries to one URL.
func to(url string, ds []delivered) []delivered {
	return slices.DeleteFunc(slices.Clone(ds), func(d delivered) bool { return d.URL != url })
}

// heard writes deliveries as "type #item [changed]" in order.
func heard(ds []delivered) string { return heardAs(ds, false) }

// heardAs is heard, with each change's sequence and webhook-id when verbose.
func heardAs(ds []delivered, verbose bool) string {
	var out []string
	for _, d := range ds {
		s := fmt.Sprintf("%s #%d", d.Type, d.Item)
		if verbose {
			s += fmt.Sprintf("@%d(%s)", d.Seq, d.ID)
		}
		if len(d.Changed) > 0 {
			s += " " + strings.Join(d.Changed, "+")
		}
		out = append(out, s)
	}
	return strings.Join(out, ", ")
}

// newDeliveringWorld is a world whose webhooks are delivered to r, retried
// after a millisecond, the dispatcher running until the test ends.
func newDeliveringWorld(t *testing.T, r *receiver, schedule ...time.Duration) *world {
	t.Helper()
	return newDeliveringWorldWith(t, r, func(*app.WebhookSettings) {}, schedule...)
}

// newDeliveringWorldWith is newDeliveringWorld with settings of its own.
func newDeliveringWorldWith(t *testing.T, r *receiver, tune func(*app.WebhookSettings), schedule ...time.Duration) *world {
	t.Helper()
	if schedule == nil {
		schedule = []time.Duration{time.Millisecond, time.Millisecond, time.Millisecond, time.Millisecond}
	}
	w := newWorld(t, func(s *app.Settings) {
		s.Webhooks = app.WebhookSettings{Sender: r, RetrySchedule: schedule, Poll: 20 * time.Millisecond}
		tune(&s.Webhooks)
	})
	w.app.Webhooks.UseRoutes(app.WebhookRoutes{ReadFilter: categoriesFilter, APIRoot: visitor.Root})
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); w.app.Webhooks.Run(ctx) }()
	t.Cleanup(func() { stop(); <-done })
	return w
}

// waitFor polls until cond holds, as long as the test binary allows.
func waitFor(t *testing.T, what func() string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Minute)
	if d, ok := t.Deadline(); ok && d.Add(-10*time.Second).Before(deadline) {
		deadline = d.Add(-10 * time.Second)
	}
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting for %s", what())
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestAWebhookGetsEveryChangeInOrderOnceItsReceiverRecovers: a receiver
// that fails (an error, then 503s) holds its subscription; once it answers,
// it gets what the change feed holds for its owner, in order, none missing,
// each with the fields that changed.
func TestAWebhookGetsEveryChangeInOrderOnceItsReceiverRecovers(t *testing.T) {
	t.Parallel()
	var recovered atomic.Bool
	r := &receiver{answer: func(n int) (int, error) {
		switch {
		case n == 1:
			return 0, errors.New("connection refused")
		case !recovered.Load():
			return 503, nil
		}
		return 200, nil
	}}
	w := newDeliveringWorld(t, r, slices.Repeat([]time.Duration{20 * time.Millisecond}, 1000)...)
	hook, err := w.app.Webhooks.Create(w.ctx, w.admin(), hook("https://hooks.example/"))
	w.must(err)
	kept := w.event("Kept", "2030-06-01", app.EventInput{})
	waitFor(t, func() string { return "the first failures" }, func() bool { r.mu.Lock(); defer r.mu.Unlock(); return r.attempts >= 2 })
	gone := w.event("Gone", "2030-06-02", app.EventInput{})
	v := w.venue("Hall", app.LinkedInput{})
	_, err = w.app.Events.Update(w.ctx, w.admin(), app.PostRef{ID: kept.ID}, app.EventInput{PostFields: app.PostFields{Title: ptr("Kept, renamed")}})
	w.must(err)
	_, err = w.app.Events.Delete(w.ctx, w.admin(), app.PostRef{ID: gone.ID}, true)
	w.must(err)
	recovered.Store(true)
	want := fmt.Sprintf("venue.created #%d, event.created #%d, event.deleted #%d", v.ID, kept.ID, gone.ID)
	waitFor(t, func() string { return "«" + want + "», heard «" + heardAs(r.deliveries(), true) + "»" }, func() bool { return heard(r.deliveries()) == want })
	got := r.deliveries()
	if got[1].Object["title"] != "Kept, renamed" || got[2].Object != nil {
		t.Fatalf("objects: %v, %v", got[1].Object, got[2].Object)
	}
	for i, d := range got {
		if i > 0 && d.Seq <= got[i-1].Seq {
			t.Fatalf("out of order: %s", heard(got))
		}
		if d.ID != fmt.Sprintf("msg_%d_%d", hook.ID, d.Seq) {
			t.Fatalf("webhook-id %q for change %d", d.ID, d.Seq)
		}
	}
	_, err = w.app.Events.Update(w.ctx, w.admin(), app.PostRef{ID: kept.ID}, app.EventInput{PostFields: app.PostFields{Title: ptr("Kept again")}, StartDate: ptr("2030-06-01 09:00:00")})
	w.must(err)
	want += fmt.Sprintf(", event.updated #%d start_date+title", kept.ID)
	waitFor(t, func() string { return "«" + want + "», heard «" + heardAs(r.deliveries(), true) + "»" }, func() bool { return heard(r.deliveries()) == want })
	view, err := w.app.Webhooks.Get(w.ctx, w.admin(), hook.ID)
	if err != nil || view.Status != app.WebhookActive || view.Failing != nil {
		t.Fatalf("after recovering: %+v, %v", view, err)
	}
}

// TestAnAuthorsWebhookNeverCarriesAnotherAuthorsDraft: an author's
// subscription delivers what the author may read (published events, their
// own drafts) and nothing of another's draft, until it is published; once
// unpublished again it is deleted for them.
func TestAnAuthorsWebhookNeverCarriesAnotherAuthorsDraft(t *testing.T) {
	t.Parallel()
	r := &receiver{}
	w := newDeliveringWorld(t, r)
	author, other := w.callers[calendar.RoleAuthor], w.callers[calendar.RoleEditor]
	_, err := w.app.Webhooks.Create(w.ctx, author, hook("https://hooks.example/author"))
	w.must(err)
	draft := func(c app.Caller, title string) *app.EventView {
		e, err := w.app.Events.Create(w.ctx, c, app.EventInput{PostFields: app.PostFields{Title: &title, Status: calendar.StatusDraft},
			StartDate: ptr("2030-07-01 10:00:00"), EndDate: ptr("2030-07-01 11:00:00")})
		w.must(err)
		return e
	}
	theirs := draft(other, "Their draft")
	mine := draft(author, "My draft")
	_, err = w.app.Events.Update(w.ctx, other, app.PostRef{ID: theirs.ID}, app.EventInput{PostFields: app.PostFields{Title: ptr("Their draft, edited")}})
	w.must(err)
	public := w.event("Public", "2030-07-02", app.EventInput{})
	want := fmt.Sprintf("event.created #%d, event.created #%d", mine.ID, public.ID)
	waitFor(t, func() string { return "«" + want + "», heard «" + heardAs(r.deliveries(), true) + "»" }, func() bool { return heard(r.deliveries()) == want })
	if d := r.deliveries()[0]; d.Object["status"] != "draft" || d.Object["title"] != "My draft" {
		t.Fatalf("the author's own draft: %v", d.Object)
	}
	publish := func(status string) {
		_, err := w.app.Events.Update(w.ctx, other, app.PostRef{ID: theirs.ID}, app.EventInput{PostFields: app.PostFields{Status: status}})
		w.must(err)
	}
	if heard(r.deliveries()) != want {
		t.Fatalf("the draft was heard of: %s", heardAs(r.deliveries(), true))
	}
	publish(calendar.StatusPublish) // readable to the author from now on: new to them
	want += fmt.Sprintf(", event.created #%d", theirs.ID)
	waitFor(t, func() string { return "«" + want + "», heard «" + heardAs(r.deliveries(), true) + "»" }, func() bool { return heard(r.deliveries()) == want })
	publish(calendar.StatusDraft) // no longer: gone for them, with nothing of it
	want += fmt.Sprintf(", event.deleted #%d", theirs.ID)
	waitFor(t, func() string { return "«" + want + "», heard «" + heardAs(r.deliveries(), true) + "»" }, func() bool { return heard(r.deliveries()) == want })
	if d := r.deliveries()[3]; d.Object != nil {
		t.Fatalf("an unreadable draft carried %v", d.Object)
	}
}

// TestAFilteredWebhookHearsWhatMatchesAndTheChangeThatMovesOneOut: a
// filter of the events list (categories=jazz): a matching event is
// delivered; one that starts matching is delivered as created; one that
// stops matching is delivered once more, with its new state, then no more.
func TestAFilteredWebhookHearsWhatMatchesAndTheChangeThatMovesOneOut(t *testing.T) {
	t.Parallel()
	r := &receiver{}
	w := newDeliveringWorld(t, r)
	for _, name := range []string{"Jazz", "Rock"} {
		_, err := w.app.Categories.Create(w.ctx, w.admin(), app.TermInput{Name: ptr(name)})
		w.must(err)
	}
	in := hook("https://hooks.example/jazz")
	in.Filter, in.Types = ptr("categories=jazz"), &[]string{"event.created", "event.updated", "event.deleted"}
	_, err := w.app.Webhooks.Create(w.ctx, w.callers[calendar.RoleEditor], in)
	w.must(err)
	in2 := func(cat string) app.EventInput { return app.EventInput{Categories: &[]string{cat}} }
	jazz := w.event("Jazz night", "2030-08-01", in2("jazz"))
	rock := w.event("Rock night", "2030-08-02", in2("rock"))
	want := fmt.Sprintf("event.created #%d", jazz.ID)
	waitFor(t, func() string { return "«" + want + "», heard «" + heardAs(r.deliveries(), true) + "»" }, func() bool { return heard(r.deliveries()) == want })

	move := func(id int64, cat string) {
		_, err := w.app.Events.Update(w.ctx, w.admin(), app.PostRef{ID: id}, in2(cat))
		w.must(err)
	}
	move(rock.ID, "jazz")
	want += fmt.Sprintf(", event.created #%d", rock.ID) // starts matching: created, for this subscription
	waitFor(t, func() string { return "«" + want + "», heard «" + heardAs(r.deliveries(), true) + "»" }, func() bool { return heard(r.deliveries()) == want })
	move(jazz.ID, "rock")
	want += fmt.Sprintf(", event.updated #%d categories", jazz.ID) // stops matching: once more, its new state
	waitFor(t, func() string { return "«" + want + "», heard «" + heardAs(r.deliveries(), true) + "»" }, func() bool { return heard(r.deliveries()) == want })
	if cats := r.deliveries()[2].Object["categories"].([]any); len(cats) != 1 || cats[0].(map[string]any)["slug"] != "rock" {
		t.Fatalf("the event that left carries %v", cats)
	}
	_, err = w.app.Events.Update(w.ctx, w.admin(), app.PostRef{ID: jazz.ID}, app.EventInput{PostFields: app.PostFields{Title: ptr("Rock, now")}})
	w.must(err)
	_, err = w.app.Events.Delete(w.ctx, w.admin(), app.PostRef{ID: jazz.ID}, true)
	w.must(err)
	_, err = w.app.Events.Delete(w.ctx, w.admin(), app.PostRef{ID: rock.ID}, true)
	w.must(err)
	want += fmt.Sprintf(", event.deleted #%d", rock.ID) // the one that left is heard of no more
	waitFor(t, func() string { return "«" + want + "», heard «" + heardAs(r.deliveries(), true) + "»" }, func() bool { return heard(r.deliveries()) == want })
}

// TestAFilteredWebhookHearsAnEventLeaveOrEnterItsBoxWhenItsVenueMoves: a
// geo_bounds filter reads an event's position from its venue, so a venue
// moved out of the box makes its event leave (delivered once more, with its
// new state, under the venue change's webhook-id with the event's ID), one
// moved in makes its event enter (created); the event that left is heard
// of no more. A subscription without a filter hears nothing of it.
func TestAFilteredWebhookHearsAnEventLeaveOrEnterItsBoxWhenItsVenueMoves(t *testing.T) {
	t.Parallel()
	r := &receiver{}
	w := newDeliveringWorld(t, r)
	paris, lyon := [2]float64{48.85, 2.35}, [2]float64{45.76, 4.83}
	subscribe := func(url, filter string) *app.WebhookView {
		in := hook(url)
		in.Types = &[]string{"event.created", "event.updated", "event.deleted"}
		if filter != "" {
			in.Filter = &filter
		}
		h, err := w.app.Webhooks.Create(w.ctx, w.admin(), in)
		w.must(err)
		return h
	}
	boxed := subscribe("https://hooks.example/paris", "geo_bounds=48.8,2.2,48.9,2.5")
	subscribe("https://hooks.example/all", "")
	here, there := w.venueAt("Here", paris), w.venueAt("There", lyon)
	at := func(v app.VenueView) app.EventInput { return app.EventInput{Venue: &app.LinkRef{ID: v.ID}} }
	leaves := w.event("Leaves", "2030-08-01", at(here))
	enters := w.event("Enters", "2030-08-02", at(there))
	moveTo := func(v app.VenueView, p [2]float64) {
		_, err := w.app.Venues.Update(w.ctx, w.admin(), app.PostRef{ID: v.ID}, app.LinkedInput{GeoLat: &p[0], GeoLng: &p[1]})
		w.must(err)
	}
	wantBoxed := ""
	hears := func(what string, ids ...int64) { // each, in order
		for _, id := range ids {
			wantBoxed = strings.TrimPrefix(wantBoxed+", "+fmt.Sprintf(what, id), ", ")
		}
		waitFor(t, func() string { return "«" + wantBoxed + "», heard «" + heardAs(r.deliveries(), true) + "»" }, func() bool {
			return heard(to(boxed.URL, r.deliveries())) == wantBoxed
		})
	}
	hears("event.created #%d", leaves.ID)
	moveTo(here, lyon)
	hears("event.updated #%d venue", leaves.ID)
	moveTo(there, paris)
	hears("event.created #%d", enters.ID)
	_, err := w.app.Events.Update(w.ctx, w.admin(), app.PostRef{ID: leaves.ID}, app.EventInput{PostFields: app.PostFields{Title: ptr("Left")}})
	w.must(err)
	last := w.event("Last", "2030-08-03", at(there)) // heard by both: whatever came before it did too
	wantBoxed += fmt.Sprintf(", event.created #%d", last.ID)
	wantAll := fmt.Sprintf("event.created #%d, event.created #%d, event.updated #%d title, event.created #%d", leaves.ID, enters.ID, leaves.ID, last.ID)
	waitFor(t, func() string {
		return "«" + wantBoxed + "» and «" + wantAll + "», heard «" + heardAs(r.deliveries(), true) + "»"
	}, func() bool {
		return heard(to(boxed.URL, r.deliveries())) == wantBoxed && heard(to("https://hooks.example/all", r.deliveries())) == wantAll
	})
	left := to(boxed.URL, r.deliveries())[1]
	if venue, _ := left.Object["venue"].(map[string]any); venue == nil || fmt.Sprint(venue["geo_lat"]) != fmt.Sprint(lyon[0]) {
		t.Fatalf("the event that left carries its venue %v", left.Object["venue"])
	}
	if left.ID != fmt.Sprintf("msg_%d_%d_e%d", boxed.ID, left.Seq, leaves.ID) {
		t.Fatalf("webhook-id %q for change %d", left.ID, left.Seq)
	}
	// A venue behind a password has no public position: its events leave
	// the box, both, in publication order, each under its own webhook-id.
	_, err = w.app.Venues.Update(w.ctx, w.admin(), app.PostRef{ID: there.ID}, app.LinkedInput{PostFields: app.PostFields{Password: ptr("secret")}})
	w.must(err)
	hears("event.updated #%d venue", enters.ID, last.ID)
	if hidden := to(boxed.URL, r.deliveries())[4:]; hidden[0].Seq != hidden[1].Seq || hidden[0].ID == hidden[1].ID {
		t.Fatalf("one change, two deliveries: %s", heardAs(hidden, true))
	}
}

// TestAFilteredWebhookChecksAMovedVenuesEventsOverTurnsEachHeardOnce: a turn checks
// a bounded number of a changed venue's events (here 4 batches of 1); the
// others are checked at the next turns, from where the last stopped, each
// heard of once, in publication order, under its own webhook-id.
func TestAFilteredWebhookChecksAMovedVenuesEventsOverTurnsEachHeardOnce(t *testing.T) {
	t.Parallel()
	r := &receiver{}
	w := newDeliveringWorldWith(t, r, func(s *app.WebhookSettings) { s.RecheckBatch = 1 })
	paris, lyon := [2]float64{48.85, 2.35}, [2]float64{45.76, 4.83}
	in := hook("https://hooks.example/paris")
	in.Filter, in.Types = ptr("geo_bounds=48.8,2.2,48.9,2.5"), &[]string{"event.created", "event.updated"}
	_, err := w.app.Webhooks.Create(w.ctx, w.admin(), in)
	w.must(err)
	hall := w.venueAt("Hall", paris)
	var want []string
	for i := range 6 {
		e := w.event(fmt.Sprint("Night ", i), "2030-08-01", app.EventInput{Venue: &app.LinkRef{ID: hall.ID}})
		want = append(want, fmt.Sprintf("event.created #%d", e.ID))
	}
	created := strings.Join(want, ", ")
	waitFor(t, func() string { return "«" + created + "», heard «" + heardAs(r.deliveries(), true) + "»" }, func() bool { return heard(r.deliveries()) == created })
	_, err = w.app.Venues.Update(w.ctx, w.admin(), app.PostRef{ID: hall.ID}, app.LinkedInput{GeoLat: &lyon[0], GeoLng: &lyon[1]})
	w.must(err)
	for _, d := range want[:6] { // each once more, with its new state, in publication order
		want = append(want, strings.Replace(d, "created", "updated", 1)+" venue")
	}
	left := strings.Join(want, ", ")
	waitFor(t, func() string { return "«" + left + "», heard «" + heardAs(r.deliveries(), true) + "»" }, func() bool { return heard(r.deliveries()) == left })
	ids := map[string]bool{}
	for _, d := range r.deliveries() {
		if ids[d.ID] {
			t.Fatalf("webhook-id %s twice: %s", d.ID, heardAs(r.deliveries(), true))
		}
		ids[d.ID] = true
	}
}

// TestAFilteredWebhookHearsAnEventLeaveWhenItsCategoryLeavesTheFilteredTree:
// categories=music matches the events of music's descendants too, so jazz
// reparented out of music makes a jazz event leave (its new state, once),
// and back under music makes it enter again (created).
func TestAFilteredWebhookHearsAnEventLeaveWhenItsCategoryLeavesTheFilteredTree(t *testing.T) {
	t.Parallel()
	r := &receiver{}
	w := newDeliveringWorld(t, r)
	music, err := w.app.Categories.Create(w.ctx, w.admin(), app.TermInput{Name: ptr("Music")})
	w.must(err)
	jazz, err := w.app.Categories.Create(w.ctx, w.admin(), app.TermInput{Name: ptr("Jazz"), Parent: &music.ID})
	w.must(err)
	in := hook("https://hooks.example/music")
	in.Filter, in.Types = ptr("categories=music"), &[]string{"event.created", "event.updated", "event.deleted"}
	_, err = w.app.Webhooks.Create(w.ctx, w.admin(), in)
	w.must(err)
	e := w.event("Jazz night", "2030-08-01", app.EventInput{Categories: &[]string{"jazz"}})
	reparent := func(parent int64) {
		_, err := w.app.Categories.Update(w.ctx, w.admin(), jazz.ID, app.TermInput{Parent: &parent})
		w.must(err)
	}
	want := fmt.Sprintf("event.created #%d", e.ID)
	waitFor(t, func() string { return "«" + want + "», heard «" + heardAs(r.deliveries(), true) + "»" }, func() bool { return heard(r.deliveries()) == want })
	reparent(0)
	want += fmt.Sprintf(", event.updated #%d categories", e.ID)
	waitFor(t, func() string { return "«" + want + "», heard «" + heardAs(r.deliveries(), true) + "»" }, func() bool { return heard(r.deliveries()) == want })
	reparent(music.ID)
	want += fmt.Sprintf(", event.created #%d", e.ID)
	waitFor(t, func() string { return "«" + want + "», heard «" + heardAs(r.deliveries(), true) + "»" }, func() bool { return heard(r.deliveries()) == want })
	if got := r.deliveries(); got[1].Object["title"] != "Jazz night" || got[1].Seq >= got[2].Seq {
		t.Fatalf("the event that left: %v; changes %d then %d", got[1].Object, got[1].Seq, got[2].Seq)
	}
}

// TestAWebhookIsDisabledWhenItsRetriesRunOutOrItsReceiverIsGone: a receiver
// that keeps failing disables its subscription after the last retry, with
// the reason; one that answers 410 at once.
func TestAWebhookIsDisabledWhenItsRetriesRunOutOrItsReceiverIsGone(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name     string
		status   int
		attempts int
		why      string
	}{{"retries run out", 500, 3, "Every retry failed; the last: answered 500"}, {"410", 410, 1, "The receiver answered 410 Gone."}} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			r := &receiver{answer: func(int) (int, error) { return c.status, nil }}
			w := newDeliveringWorld(t, r, time.Millisecond, time.Millisecond)
			h, err := w.app.Webhooks.Create(w.ctx, w.admin(), hook("https://hooks.example/"))
			w.must(err)
			w.event("Unheard", "2030-09-01", app.EventInput{})
			waitFor(t, func() string {
				v, _ := w.app.Webhooks.Get(w.ctx, w.admin(), h.ID)
				r.mu.Lock()
				defer r.mu.Unlock()
				return fmt.Sprintf("the subscription disabled (%d attempts): %+v %+v", r.attempts, v, v.Failing)
			}, func() bool {
				v, _ := w.app.Webhooks.Get(w.ctx, w.admin(), h.ID)
				return v.Status == app.WebhookDisabled
			})
			v, _ := w.app.Webhooks.Get(w.ctx, w.admin(), h.ID)
			if r.attempts != c.attempts || v.DisabledReason == nil || !strings.HasPrefix(*v.DisabledReason, c.why) || v.Active {
				stored, _ := w.store.Webhooks().Get(w.ctx, h.ID)
				t.Fatalf("%d attempts, %+v; attempts %+v", r.attempts, v, stored.Attempts)
			}
		})
	}
}

// TestAWebhooksLogPingAndReplay: the log keeps the attempts newest first; a
// ping is a signed test delivery logged with them; a replay delivers again
// from a point of the feed under new webhook-ids, and refuses a point the
// feed has not reached.
func TestAWebhooksLogPingAndReplay(t *testing.T) {
	t.Parallel()
	r := &receiver{}
	w := newDeliveringWorld(t, r)
	h, err := w.app.Webhooks.Create(w.ctx, w.admin(), hook("https://hooks.example/"))
	w.must(err)
	e := w.event("Once", "2030-10-01", app.EventInput{})
	want := fmt.Sprintf("event.created #%d", e.ID)
	waitFor(t, func() string { return heardAs(r.deliveries(), true) }, func() bool { return heard(r.deliveries()) == want })
	// The delivery is logged when its run ends, after the receiver heard it:
	// a ping before that, in the same millisecond (the log's precision),
	// would be logged first and so count as the older of the two.
	var log []app.WebhookAttemptView
	waitFor(t, func() string { return fmt.Sprintf("the delivery logged: %+v", log) }, func() bool {
		log, err = w.app.Webhooks.Deliveries(w.ctx, w.admin(), h.ID)
		return err != nil || len(log) >= 1
	})
	ping, err := w.app.Webhooks.Ping(w.ctx, w.admin(), h.ID)
	if err != nil || ping.Outcome != "delivered" || ping.Type != app.PingType || *ping.ResponseCode != 204 {
		t.Fatalf("ping: %+v, %v", ping, err)
	}
	first := r.deliveries()[0]
	if _, err := w.app.Webhooks.Replay(w.ctx, w.admin(), h.ID, first.Seq+1000); calendar.AsError(err).Code != "rest_invalid_param" {
		t.Fatalf("a replay from past the feed's end: %v", err)
	}
	_, err = w.app.Webhooks.Replay(w.ctx, w.admin(), h.ID, first.Seq-1)
	w.must(err)
	want += fmt.Sprintf(", webhook.ping #%d, event.created #%d", h.ID, e.ID)
	waitFor(t, func() string { return heardAs(r.deliveries(), true) }, func() bool { return heard(r.deliveries()) == want })
	if again := r.deliveries()[2]; again.ID != fmt.Sprintf("msg_%d_%d_r1", h.ID, first.Seq) {
		t.Fatalf("replayed under %s, first under %s", again.ID, first.ID)
	}
	waitFor(t, func() string { return fmt.Sprintf("three attempts logged: %+v", log) }, func() bool { // written with the run's end
		log, err = w.app.Webhooks.Deliveries(w.ctx, w.admin(), h.ID)
		return err != nil || len(log) >= 3
	})
	if err != nil || len(log) != 3 || log[0].ID != r.deliveries()[2].ID || log[1].Type != app.PingType || log[2].Outcome != "delivered" {
		t.Fatalf("log %+v, %v", log, err)
	}
}

// TestAWebhookWhoseOwnerMayNoLongerSubscribeIsDisabled: an author made a
// contributor delivers nothing more; the subscription says why.
func TestAWebhookWhoseOwnerMayNoLongerSubscribeIsDisabled(t *testing.T) {
	t.Parallel()
	r := &receiver{}
	w := newDeliveringWorld(t, r)
	author := w.callers[calendar.RoleAuthor]
	h, err := w.app.Webhooks.Create(w.ctx, author, hook("https://hooks.example/"))
	w.must(err)
	_, err = w.app.Users.SetRole(w.ctx, w.admin(), author.User.ID, calendar.RoleContributor)
	w.must(err)
	w.event("Unheard", "2030-12-01", app.EventInput{})
	waitFor(t, func() string { return "the subscription disabled" }, func() bool {
		v, _ := w.app.Webhooks.Get(w.ctx, w.admin(), h.ID)
		return v.Status == app.WebhookDisabled
	})
	if got := r.deliveries(); len(got) != 0 {
		t.Fatalf("delivered %s", heardAs(got, true))
	}
}

package controllers_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"sync"
	"testing"
	"time"

	"calendar/app"
	"calendar/app/calendar"
	"calendar/repository/ferretdbtest"
	"calendar/repository/mongo"
)

// Writes that race: what several editors, an importer and the service's own
// series jobs do to one record at once. Each test fails on the code before
// compare-and-swap writes (one of two acknowledged changes lost, a trash
// undone, two rules' occurrences side by side).

// try is do for goroutines other than the test's: it reports instead of
// failing.
func (s *service) try(method, path string, opts ...option) (*response, error) {
	req, err := http.NewRequest(method, s.URL+path, nil)
	if err != nil {
		return nil, err
	}
	for _, o := range opts {
		o(req)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	return &response{Status: res.StatusCode, Header: res.Header, Body: raw}, err
}

// together runs the writes at once, after the same starting signal, and
// returns their statuses in order.
func together(t *testing.T, writes ...func() (*response, error)) []int {
	t.Helper()
	statuses := make([]int, len(writes))
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i, write := range writes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			res, err := write()
			if err != nil {
				t.Error(err)
				return
			}
			statuses[i] = res.Status
			if res.Status != http.StatusOK && res.Status != http.StatusConflict {
				t.Errorf("a racing write answered %d: %s", res.Status, res.Body)
			}
		}()
	}
	close(start)
	wg.Wait()
	return statuses
}

func (s *service) stored(t *testing.T, id string) *calendar.Post {
	t.Helper()
	var n int64
	fmt.Sscan(id, &n)
	p, err := s.store.Posts().Get(context.Background(), n)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestConcurrentPartialUpdatesOfOneEventAllLand(t *testing.T) {
	t.Parallel()
	long(t)
	onBothStores(t, func(*app.Settings) {}, func(t *testing.T, s *service) {
		_, authorPassword := s.createUser("writer", calendar.RoleAuthor)
		_, editorPassword := s.createUser("checker", calendar.RoleEditor)
		author, editor := basic("writer", authorPassword), basic("checker", editorPassword)
		soon := time.Now().AddDate(0, 1, 0).Format("2006-01-02") // within a list's default window
		event := s.event(at("Concert", soon+" 20:00", soon+" 22:00"), author)
		path := eventsPath + "/" + idOf(event)
		// Each writer changes its own field; each field's stored value must be
		// the one its writer last had acknowledged.
		writers := []struct {
			who   option
			field string
			value func(round int) string
			got   func(p *calendar.Post) string
		}{
			{author, "title", func(r int) string { return fmt.Sprint("Concert ", r) }, func(p *calendar.Post) string { return p.Title }},
			{asAdmin(), "cost", func(r int) string { return fmt.Sprint(10 + r) }, func(p *calendar.Post) string { return fmt.Sprint(p.Cost) }},
			{editor, "excerpt", func(r int) string { return fmt.Sprint("Round ", r) }, func(p *calendar.Post) string { return p.Excerpt }},
			{asAdmin(), "website", func(r int) string { return fmt.Sprint("https://example.org/", r) },
				func(p *calendar.Post) string {
					if p.Website == nil {
						return ""
					}
					return *p.Website
				}},
		}
		want := make([]string, len(writers))
		lost, conflicts := 0, 0
		const rounds = 12
		for round := range rounds {
			var writes []func() (*response, error)
			for _, w := range writers {
				writes = append(writes, func() (*response, error) {
					return s.try("POST", path, w.who, form(w.field, w.value(round)))
				})
			}
			for i, status := range together(t, writes...) {
				if status == http.StatusOK {
					want[i] = writers[i].value(round)
					if writers[i].field == "cost" {
						want[i] = fmt.Sprint([]string{want[i]})
					}
				} else {
					conflicts++
				}
			}
			stored := s.stored(t, idOf(event))
			for i, w := range writers {
				if want[i] != "" && w.got(stored) != want[i] {
					lost++
					t.Errorf("round %d: %s is %q, want %q, acknowledged", round, w.field, w.got(stored), want[i])
				}
			}
			// The index holds the stored state too: a search finds the
			// event by the title it has, not by one an older write gave it.
			found := s.do("GET", eventsPath+"?"+url.Values{"search": {stored.Title}}.Encode(), asAdmin()).object(t)
			if found["total"] != float64(1) {
				t.Errorf("round %d: a search for the stored title %q finds %v events", round, stored.Title, found["total"])
			}
		}
		if conflicts > rounds*len(writers)/10 {
			t.Fatalf("%d of %d writes answered 409: a retried write should rarely give up", conflicts, rounds*len(writers))
		}
		t.Logf("%d writes, %d lost, %d answered 409", rounds*len(writers), lost, conflicts)
	})
}

func TestATrashedEventStaysTrashedWhateverEditRacesIt(t *testing.T) {
	t.Parallel()
	long(t)
	onBothStores(t, func(*app.Settings) {}, func(t *testing.T, s *service) {
		_, password := s.createUser("writer", calendar.RoleAuthor)
		author := basic("writer", password)
		for i := range 12 { // either order, and both at once, each several times
			event := s.event(at(fmt.Sprint("Talk ", i), "2030-05-01 20:00", "2030-05-01 22:00"), author)
			path := eventsPath + "/" + idOf(event)
			statuses := together(t,
				func() (*response, error) { return s.try("DELETE", path, asAdmin()) },
				func() (*response, error) { return s.try("POST", path, author, form("title", "Renamed")) })
			stored := s.stored(t, idOf(event))
			if statuses[0] == http.StatusOK && stored.Status != calendar.StatusTrash {
				t.Fatalf("try %d: the trash was acknowledged, the event is %s", i, stored.Status)
			}
			if statuses[1] == http.StatusOK && stored.Title != "Renamed" {
				t.Fatalf("try %d: the edit was acknowledged, the title is %q", i, stored.Title)
			}
		}
	})
}

// occurrenceStarts are the starts of a series' occurrences that are not in
// the trash, from the store itself.
func (s *service) occurrenceStarts(t *testing.T, seriesID int64) []time.Time {
	t.Helper()
	var out []time.Time
	for after := int64(0); ; {
		batch, err := s.store.Posts().Scan(context.Background(), after, 500)
		if err != nil {
			t.Fatal(err)
		}
		if len(batch) == 0 {
			break
		}
		for _, p := range batch {
			if p.Parent == seriesID && p.Status != calendar.StatusTrash {
				out = append(out, p.Start.UTC())
			}
		}
		after = batch[len(batch)-1].ID
	}
	slices.SortFunc(out, time.Time.Compare)
	return out
}

func TestTwoRuleEditsOfOneSeriesLeaveTheOccurrencesOfTheRuleThatWon(t *testing.T) {
	t.Parallel()
	long(t)
	s := startService(t) // on MongoDB, the replicas' test below
	twoRuleEdits(t, s, s)
}

// Two replicas sharing a MongoDB database (as replicas do), each with its own
// index, edit the rules of one series at once: the lease is the series
// record's, so they take turns too, and each finds the occurrences the other
// made.
func TestTwoRuleEditsOnTwoReplicasLeaveTheOccurrencesOfTheRuleThatWon(t *testing.T) {
	t.Parallel()
	t.Run("mongodb", func(t *testing.T) {
		uri := ferretdbtest.Start(t)
		shared := backend{"mongodb", func(t *testing.T, dir string) calendar.Store {
			store, err := mongo.Open(context.Background(), uri, "calendar")
			if err != nil {
				t.Fatal(err)
			}
			return store
		}}
		twoRuleEdits(t, startServiceOn(t, shared, func(*app.Settings) {}, noConfig), startServiceOn(t, shared, func(*app.Settings) {}, noConfig))
	})
}

// twoRuleEdits changes a series' rule through a and through b at once, a
// few times, and compares its occurrences with those the winning rule
// gives alone.
func twoRuleEdits(t *testing.T, a, b *service) {
	first := time.Now().UTC().AddDate(0, 0, 2).Truncate(24 * time.Hour).Add(18 * time.Hour)
	rules := map[string][]string{
		"tue-thu":     {"RRULE:FREQ=WEEKLY;BYDAY=TU,TH;COUNT=4"},
		"mon-wed-fri": {"RRULE:FREQ=WEEKLY;BYDAY=MO,WE,FR;COUNT=4"},
	}
	// What each rule alone gives, from the same start.
	alone := map[string][]time.Time{}
	for name, rule := range rules {
		ref := a.event(recurring("Reference "+name, "Europe/Paris", first, first.Add(time.Hour), rule...))
		alone[name] = a.occurrenceStarts(t, int64(ref["id"].(float64)))
	}
	for i := range 3 {
		series := a.event(recurring(fmt.Sprint("Class ", i), "Europe/Paris", first, first.Add(time.Hour),
			"RRULE:FREQ=WEEKLY;BYDAY=SA;COUNT=4"))
		path := eventsPath + "/" + idOf(series)
		together(t,
			func() (*response, error) {
				return a.try("POST", path, asAdmin(), jsonBody(map[string]any{"recurrence": rules["tue-thu"]}))
			},
			func() (*response, error) {
				return b.try("POST", path, asAdmin(), jsonBody(map[string]any{"recurrence": rules["mon-wed-fri"]}))
			})
		stored := a.stored(t, idOf(series))
		won := "tue-thu"
		if slices.Equal(stored.Recurrence, rules["mon-wed-fri"]) {
			won = "mon-wed-fri"
		}
		got := a.occurrenceStarts(t, stored.ID)
		if !slices.EqualFunc(got, alone[won], time.Time.Equal) {
			t.Fatalf("try %d: the series has rule %s and the occurrences\n%v\nwant those it gives alone\n%v", i, won, got, alone[won])
		}
		if stored.Lease != nil {
			t.Fatalf("try %d: the series' lease was not given back: %+v", i, stored.Lease)
		}
	}
}

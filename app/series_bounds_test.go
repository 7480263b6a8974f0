package app_test

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"calendar/app"
	"calendar/app/calendar"
	"calendar/index"
	"calendar/repository/bolt"
)

// Series whose work fails: each is on its own, and a create is whole or
// nothing.

func TestOneSeriesThatCannotBeExtendedDoesNotStopTheOthers(t *testing.T) {
	var clock atomic.Int64
	clock.Store(time.Now().Unix())
	w := newWorld(t, func(s *app.Settings) { s.Now = func() time.Time { return time.Unix(clock.Load(), 0) } })
	broken := w.series("Broken", "RRULE:FREQ=WEEKLY")
	fine := w.series("Fine", "RRULE:FREQ=WEEKLY")
	before := len(w.occurrencesOf(fine.ID))
	broken.Recurrence = []string{"RRULE:FREQ=NEVERLY"} // as no write would take it: stored behind the service's back
	w.must(w.store.Posts().Update(w.ctx, broken))
	if _, err := w.app.CatchUp(w.ctx); err != nil {
		t.Fatal(err)
	}
	clock.Store(time.Now().AddDate(0, 2, 0).Unix())
	n, err := w.app.Events.ExtendSeries(w.ctx)
	if err == nil || !strings.Contains(err.Error(), "series "+itoa(broken.ID)) {
		t.Fatalf("the broken series' failure is not reported: %v", err)
	}
	if after := len(w.occurrencesOf(fine.ID)); n != 1 || after <= before {
		t.Fatalf("%d series extended; the other went from %d to %d occurrences", n, before, after)
	}
}

// occurrencesOf are a series' occurrences of every status, from the store.
func (w *world) occurrencesOf(seriesID int64) []*calendar.Post {
	w.t.Helper()
	var out []*calendar.Post
	for after := int64(0); ; {
		batch, err := w.store.Posts().Scan(w.ctx, after, 500)
		w.must(err)
		if len(batch) == 0 {
			return out
		}
		for _, p := range batch {
			if p.Parent == seriesID {
				out = append(out, p)
			}
		}
		after = batch[len(batch)-1].ID
	}
}

// failingInserts fails the insert of the fifth occurrence of any series.
type failingInserts struct {
	*bolt.Store
	posts *failingPosts
}

func (s *failingInserts) Posts() calendar.Repo[*calendar.Post] { return s.posts }

type failingPosts struct {
	calendar.Repo[*calendar.Post]
	occurrences atomic.Int64
}

func (r *failingPosts) Insert(ctx context.Context, p *calendar.Post) error {
	if p.Parent != 0 && r.occurrences.Add(1) == 5 {
		return errors.New("the disk is full")
	}
	return r.Repo.Insert(ctx, p)
}

func TestASeriesCreateThatFailsHalfWayLeavesNothing(t *testing.T) {
	store, idx := openStoreAndIndex(t)
	a := app.New(&failingInserts{Store: store, posts: &failingPosts{Repo: store.Posts()}}, idx, app.Settings{SiteURL: "http://x"})
	ctx := context.Background()
	if _, err := a.Users.EnsureAdmin(ctx, "a long enough password"); err != nil {
		t.Fatal(err)
	}
	admin, err := a.Users.Authenticate(ctx, "", "admin", "a long enough password")
	if err != nil {
		t.Fatal(err)
	}
	title, start, end := "Weekly", "tomorrow 18:00", "tomorrow 19:00"
	_, err = a.Events.Create(ctx, app.Caller{User: admin}, app.EventInput{PostFields: app.PostFields{Title: &title},
		StartDate: &start, EndDate: &end, Recurrence: &[]string{"RRULE:FREQ=WEEKLY"}})
	if err == nil {
		t.Fatal("the create succeeded although an occurrence could not be stored")
	}
	left, err := store.Posts().Scan(ctx, 0, 100)
	if err != nil {
		t.Fatal(err)
	}
	if len(left) != 0 {
		t.Fatalf("a failed create left %d posts, the first %q", len(left), left[0].Title)
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

func TestAnAccountsSeriesMakeABoundedNumberOfOccurrencesAnHour(t *testing.T) {
	w := newWorld(t, func(s *app.Settings) { s.SeriesQuota = 250 })
	author := w.callers[calendar.RoleAuthor]
	create := func(caller app.Caller, title string) error {
		start, end := "tomorrow 18:00", "tomorrow 19:00"
		_, err := w.app.Events.Create(w.ctx, caller, app.EventInput{PostFields: app.PostFields{Title: &title},
			StartDate: &start, EndDate: &end, Recurrence: &[]string{"RRULE:FREQ=WEEKLY"}})
		return err
	}
	created := 0
	var refused error
	for i := range 10 {
		if refused = create(author, fmt.Sprint("Weekly ", i)); refused != nil {
			break
		}
		created++
	}
	var e *calendar.Error
	if !errors.As(refused, &e) || e.Kind != calendar.KindThrottled || e.RetryAfter <= 0 || created != 3 {
		t.Fatalf("after %d weekly series (104 occurrences each, 250 an hour): %v", created, refused)
	}
	all, err := w.store.Posts().Scan(w.ctx, 0, 10000)
	w.must(err)
	for _, p := range all {
		if p.Title == fmt.Sprint("Weekly ", created) {
			t.Fatal("the refused series was stored")
		}
	}
	for i := range 4 { // administrators spend nothing
		w.must(create(w.admin(), fmt.Sprint("Admin weekly ", i)))
	}
}

// Two replicas on one store spend from one allowance: alternating between
// them does not make twice the hour's occurrences (each counted its own
// before).
func TestTwoReplicasShareAnAccountsAllowanceOfOccurrences(t *testing.T) {
	quota := func(s *app.Settings) { s.SeriesQuota = 250 }
	w := newWorld(t, quota)
	idx, err := index.Open(t.TempDir())
	w.must(err)
	t.Cleanup(func() { idx.Close() })
	other := app.New(w.store, idx, app.Settings{SiteURL: "http://x", SearchBudget: 2 * time.Minute, SeriesQuota: 250})
	author := w.callers[calendar.RoleAuthor]
	created := 0
	var refused error
	for i, replica := range []*app.App{w.app, other, w.app, other, w.app, other} {
		title, start, end := fmt.Sprint("Weekly ", i), "tomorrow 18:00", "tomorrow 19:00"
		if _, refused = replica.Events.Create(w.ctx, author, app.EventInput{PostFields: app.PostFields{Title: &title},
			StartDate: &start, EndDate: &end, Recurrence: &[]string{"RRULE:FREQ=WEEKLY"}}); refused != nil {
			break
		}
		created++
	}
	var e *calendar.Error
	if !errors.As(refused, &e) || e.Kind != calendar.KindThrottled || created != 3 {
		t.Fatalf("after %d weekly series (104 occurrences each, 250 an hour) on two replicas in turn: %v", created, refused)
	}
}

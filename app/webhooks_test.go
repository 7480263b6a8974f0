package app_test

import (
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"calendar/app"
	"calendar/app/calendar"
)

// categoriesFilter is a reader of filters for tests without HTTP
// (categories, status, geo_bounds): the routes lend the events list's own
// (controllers.readEventFilterQuery).
func categoriesFilter(query string) (app.EventFilter, error) {
	v, err := url.ParseQuery(query)
	if err != nil {
		return app.EventFilter{}, err
	}
	var f app.EventFilter
	if c, ok := v["categories"]; ok {
		f.Categories = &c
	}
	if s, ok := v["status"]; ok {
		f.Statuses = &s
	}
	if v.Has("geo_bounds") {
		f.Near.Bounds = ptr(v.Get("geo_bounds"))
	}
	return f, nil
}

func hook(u string) app.WebhookInput { return app.WebhookInput{URL: &u} }

func TestWebhookSubscribersAreAuthorsEditorsAndAdministrators(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	for _, c := range []struct {
		name   string
		caller app.Caller
		may    bool
	}{
		{"a visitor", visitor, false}, {"a subscriber", w.callers[calendar.RoleSubscriber], false},
		{"a contributor", w.callers[calendar.RoleContributor], false}, {"an author", w.callers[calendar.RoleAuthor], true},
		{"an editor", w.callers[calendar.RoleEditor], true}, {"an administrator", w.admin(), true},
	} {
		v, err := w.app.Webhooks.Create(w.ctx, c.caller, hook("https://hooks.example/"+c.name))
		if !c.may {
			if e := calendar.AsError(err); e.Code != "rest_cannot_manage_webhooks" && e.Code != "rest_forbidden" {
				t.Errorf("%s subscribed: %v", c.name, err)
			}
			if _, err := w.app.Webhooks.List(w.ctx, c.caller); err == nil {
				t.Errorf("%s listed webhooks", c.name)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if !strings.HasPrefix(v.Secret, "whsec_") || len(v.Secret) < 40 || v.Owner != c.caller.User.ID || v.Status != app.WebhookActive {
			t.Errorf("%s: made %+v", c.name, v)
		}
		again, err := w.app.Webhooks.Get(w.ctx, c.caller, v.ID)
		if err != nil || again.Secret != "" {
			t.Errorf("%s: read again %+v, %v: the secret is shown once", c.name, again, err)
		}
	}
}

func TestAWebhookIsItsOwnersAndEveryOneIsAnAdministrators(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	author, editor := w.callers[calendar.RoleAuthor], w.callers[calendar.RoleEditor]
	mine, err := w.app.Webhooks.Create(w.ctx, author, hook("https://hooks.example/author"))
	w.must(err)
	_, err = w.app.Webhooks.Create(w.ctx, editor, hook("https://hooks.example/editor"))
	w.must(err)
	count := func(c app.Caller) int {
		l, err := w.app.Webhooks.List(w.ctx, c)
		w.must(err)
		return len(l)
	}
	if a, e, adm := count(author), count(editor), count(w.admin()); a != 1 || e != 1 || adm != 2 {
		t.Fatalf("the author lists %d, the editor %d, the administrator %d; want 1, 1, 2", a, e, adm)
	}
	paused := false
	for name, try := range map[string]func() error{
		"read": func() error { _, err := w.app.Webhooks.Get(w.ctx, editor, mine.ID); return err },
		"change": func() error {
			_, err := w.app.Webhooks.Update(w.ctx, editor, mine.ID, app.WebhookInput{Active: &paused})
			return err
		},
		"rotate": func() error { _, err := w.app.Webhooks.RotateSecret(w.ctx, editor, mine.ID); return err },
		"delete": func() error { _, err := w.app.Webhooks.Delete(w.ctx, editor, mine.ID); return err },
	} {
		if e := calendar.AsError(try()); e.Code != "rest_webhook_invalid_id" {
			t.Errorf("an editor could %s an author's webhook: %v", name, e)
		}
	}
	v, err := w.app.Webhooks.Update(w.ctx, w.admin(), mine.ID, app.WebhookInput{Active: &paused})
	if err != nil || v.Status != app.WebhookPaused || v.Owner != author.User.ID {
		t.Fatalf("the administrator paused it: %+v, %v", v, err)
	}
	if _, err := w.app.Webhooks.Delete(w.ctx, w.admin(), mine.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := w.app.Webhooks.Get(w.ctx, author, mine.ID); calendar.AsError(err).Code != "rest_webhook_invalid_id" {
		t.Fatalf("deleted, it reads as %v", err)
	}
}

func TestWebhooksAreBoundedPerUserAndInAllEvenAtOnce(t *testing.T) {
	t.Parallel()
	w := newWorld(t, func(s *app.Settings) { s.Webhooks.PerUser, s.Webhooks.Total = 2, 3 })
	author, editor := w.callers[calendar.RoleAuthor], w.callers[calendar.RoleEditor]
	var wg sync.WaitGroup
	errs := make(chan error, 3)
	for range 3 { // at once: the guard counts them one at a time
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := w.app.Webhooks.Create(w.ctx, author, hook("https://hooks.example/a"))
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	made := 0
	for err := range errs {
		if err == nil {
			made++
		} else if calendar.AsError(err).Code != "rest_webhooks_limit" {
			t.Fatal(err)
		}
	}
	if made != 2 {
		t.Fatalf("the author made %d at once, want 2", made)
	}
	_, err := w.app.Webhooks.Create(w.ctx, editor, hook("https://hooks.example/e"))
	w.must(err)
	if _, err := w.app.Webhooks.Create(w.ctx, w.admin(), hook("https://hooks.example/x")); calendar.AsError(err).Code != "rest_webhooks_limit" {
		t.Fatalf("a fourth in all: %v", err)
	}
}

func TestARotatedSecretSignsBesideTheNewOneForADay(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	now := time.Date(2030, 1, 1, 12, 0, 0, 0, time.UTC)
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	w := newWorld(t, func(s *app.Settings) { s.Now = clock })
	made, err := w.app.Webhooks.Create(w.ctx, w.admin(), hook("https://hooks.example/"))
	w.must(err)
	rotated, err := w.app.Webhooks.RotateSecret(w.ctx, w.admin(), made.ID)
	w.must(err)
	if rotated.Secret == made.Secret || !strings.HasPrefix(rotated.Secret, "whsec_") || rotated.SecretsValid != 2 {
		t.Fatalf("rotated: %+v", rotated)
	}
	mu.Lock()
	now = now.Add(24*time.Hour + time.Second)
	mu.Unlock()
	if v, _ := w.app.Webhooks.Get(w.ctx, w.admin(), made.ID); v.SecretsValid != 1 {
		t.Fatalf("a day later %d secrets sign, want the new one alone", v.SecretsValid)
	}
}

func TestAWebhookIsRefusedWhatCannotBeDelivered(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.app.Webhooks.UseRoutes(app.WebhookRoutes{ReadFilter: categoriesFilter, APIRoot: visitor.Root})
	_, err := w.app.Categories.Create(w.ctx, w.admin(), app.TermInput{Name: ptr("Jazz")})
	w.must(err)
	bad := func(name string, in app.WebhookInput, param string) {
		t.Helper()
		_, err := w.app.Webhooks.Create(w.ctx, w.callers[calendar.RoleAuthor], in)
		e := calendar.AsError(err)
		if params, _ := e.Data["params"].(map[string]string); e.Code != "rest_invalid_param" || params[param] == "" {
			t.Errorf("%s: %v, want a 400 naming %s", name, err, param)
		}
	}
	for _, u := range []string{"ftp://hooks.example/", "/relative", "https://user:pass@hooks.example/", "https://hooks.example/#x", "https://" + strings.Repeat("a", calendar.MaxURLBytes)} {
		bad(u, hook(u), "url")
	}
	in := hook("https://hooks.example/")
	in.Types = &[]string{"event.created", "event.exploded"}
	bad("an unknown type", in, "types")
	in = hook("https://hooks.example/")
	in.Filter = ptr("categories=no-such-category")
	bad("a filter naming a category that is not there", in, "filter")
	in.Filter = ptr("categories=jazz&status=exploded")
	bad("a filter of a status there is not", in, "filter")
	in.Filter = ptr("categories=jazz")
	in.Types = &[]string{"event.updated", "event.created", "event.created"}
	v, err := w.app.Webhooks.Create(w.ctx, w.callers[calendar.RoleAuthor], in)
	if err != nil || v.Filter != "categories=jazz" || strings.Join(v.Types, ",") != "event.created,event.updated" {
		t.Fatalf("a good one: %+v, %v", v, err)
	}
}

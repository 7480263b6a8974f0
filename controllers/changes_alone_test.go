package controllers_test

import (
	"context"
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"calendar/app"
	"calendar/controllers"
)

// The change feed's route on its small world: since and per_page read into
// the request, the page's wrapper and its next link, the store's sequence in
// a header. What the feed lists for each caller is app's (app/changes_test.go).

// recordedChanges is the change feed of the small world.
type recordedChanges struct {
	recorder
	page app.ChangesPage
}

func (r *recordedChanges) Changes(_ context.Context, caller app.Caller, req app.ChangesRequest) (*app.ChangesPage, error) {
	if err := r.record("Changes", caller, req); err != nil {
		return nil, err
	}
	return &r.page, nil
}

func changesAlone(t *testing.T, feed *recordedChanges) *service {
	t.Helper()
	return serveAlone(t, func(cfg controllers.Config) http.Handler { return controllers.NewChangesAlone(cfg, oneEditor{}, feed) })
}

func TestTheChangeFeedReadsWhereToStartAndSaysWhereToGoOn(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, query string
		page        app.ChangesPage
		want        app.ChangesRequest
		keys        string
		restURL     string
		nextURL     string
	}{
		{"from the beginning, one page", "", app.ChangesPage{Changes: []app.ChangeView{{Seq: 3, ID: 1, Type: "tribe_events", Action: "created"}},
			LastSeq: 3, StoreSeq: 4, PerPage: 100}, app.ChangesRequest{}, "changes last_seq more rest_url", "changes/?since=0&per_page=100", ""},
		{"more to come", "since=3&per_page=2", app.ChangesPage{Changes: []app.ChangeView{{Seq: 5}, {Seq: 8}}, LastSeq: 8, More: true, StoreSeq: 12, PerPage: 2},
			app.ChangesRequest{Since: 3, PerPage: ptr(int64(2))}, "changes last_seq more rest_url next_rest_url", "changes/?since=3&per_page=2", "changes/?since=8&per_page=2"},
	} {
		feed := &recordedChanges{page: tc.page}
		s := changesAlone(t, feed)
		res := s.do("GET", aloneAPI+"/changes?"+tc.query, bearer("editor-token"))
		res.expectStatus(t, http.StatusOK)
		if got := feed.got()[0].(app.ChangesRequest); !reflect.DeepEqual(got, tc.want) || feed.asked().User != theEditor {
			t.Errorf("%s: the feed was asked %s by %+v, want %s", tc.name, show(got), feed.asked(), show(tc.want))
		}
		if got := strings.Join(keyOrder(t, res.Body), " "); got != tc.keys {
			t.Errorf("%s: keys %s, want %s", tc.name, got, tc.keys)
		}
		m := res.object(t)
		next, _ := m["next_rest_url"].(string)
		if m["rest_url"] != s.URL+aloneAPI+"/"+tc.restURL || strings.TrimPrefix(next, s.URL+aloneAPI+"/") != tc.nextURL ||
			m["last_seq"] != float64(tc.page.LastSeq) || m["more"] != tc.page.More || len(m["changes"].([]any)) != len(tc.page.Changes) {
			t.Errorf("%s: answered %s", tc.name, res.Body)
		}
		if res.Header.Get("X-Calendar-Last-Seq") != strconv.FormatInt(tc.page.StoreSeq, 10) {
			t.Errorf("%s: X-Calendar-Last-Seq %q, want the store's sequence %d", tc.name, res.Header.Get("X-Calendar-Last-Seq"), tc.page.StoreSeq)
		}
	}
}

func TestABadChangeFeedRequestIsRefusedBeforeTheFeedIsAsked(t *testing.T) {
	t.Parallel()
	feed := &recordedChanges{}
	s := changesAlone(t, feed)
	for _, query := range []string{"since=first", "per_page=many", "since=1.5"} {
		s.do("GET", aloneAPI+"/changes?"+query).expectError(t, http.StatusBadRequest, "rest_invalid_param")
	}
	if feed.called() != "" {
		t.Errorf("the feed was asked %s", feed.called())
	}
	expectEachKind(t, &feed.recorder, s, request{"GET", aloneAPI + "/changes?since=4"})
}

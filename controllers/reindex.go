package controllers

import (
	"context"
	"net/http"

	"github.com/go-fuego/fuego"

	"calendar/app"
	"calendar/app/calendar"
)

// reindexService is what the reindex route asks of the domain (app.App).
type reindexService interface {
	Reindex(ctx context.Context, caller app.Caller) (app.ReindexStatus, error)
	ReindexStatus(ctx context.Context, caller app.Caller) (app.ReindexStatus, error)
}

// mountReindex registers {base_url}/vendor/admin/v1/reindex: a rebuild of
// the search index beside the live one, and how it goes.
func mountReindex(api *API, reindex reindexService) {
	handle(api, AdminNamespace, []string{http.MethodGet}, "/reindex", nil, func(r *Request) (app.ReindexStatus, error) {
		return reindex.ReindexStatus(r.Context(), r.Caller)
	}, fuego.OptionSummary("How the index's rebuild goes"),
		fuego.OptionDescription("The last rebuild of the search index since the service started: state (idle, building, "+
			"catching_up, done, failed), reason (requested, mapping_version, languages, no_index, store_restored), why (in words: the "+
			"index found and what this release builds), documents_done of documents_total, started_at, finished_at (UTC), "+
			"error. Administrators only."), mayAnswer(calendar.KindNotImplemented))

	handle(api, AdminNamespace, []string{http.MethodPost}, "/reindex", nil, func(r *Request) (app.ReindexStatus, error) {
		st, err := reindex.Reindex(r.Context(), r.Caller)
		if err == nil {
			r.SetStatus(http.StatusAccepted)
		}
		return st, err
	}, fuego.OptionSummary("Rebuild the search index"),
		fuego.OptionDescription("Builds a new search index from the store beside the live one, which serves every list "+
			"and takes every write meanwhile; the new one then applies the writes made during the build and replaces the "+
			"old one at once, and the old one is removed. The service stays ready throughout. Answers 202 with the "+
			"rebuild's status; GET follows it. 409 reindex_running while one runs. Administrators only."),
		fuego.OptionAddResponse(http.StatusAccepted, "The rebuild has started", fuego.Response{Type: app.ReindexStatus{}}),
		mayAnswer(calendar.KindNotImplemented))
}

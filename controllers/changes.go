package controllers

import (
	"context"
	"net/http"
	"strconv"

	"github.com/go-fuego/fuego"

	"calendar/app"
	"calendar/app/calendar"
)

// ChangeList documents the change feed's wrapper.
type ChangeList struct {
	Changes     []app.ChangeView `json:"changes"`
	LastSeq     int64            `json:"last_seq"`
	More        bool             `json:"more"`
	RestURL     string           `json:"rest_url"`
	NextRestURL string           `json:"next_rest_url,omitempty"`
}

// lastSeqHeader gives the store's latest sequence: a client that lists
// everything first can follow the feed from there.
const lastSeqHeader = "X-Calendar-Last-Seq"

// changeFeed is what the change feed's route asks of the domain (app.App).
type changeFeed interface {
	Changes(ctx context.Context, caller app.Caller, req app.ChangesRequest) (*app.ChangesPage, error)
}

// mountChanges registers GET /changes.
func mountChanges(api *API, feed changeFeed) {
	handle(api, EventsNamespace, []string{http.MethodGet}, "/changes", changesArgs, func(r *Request) (*ChangeList, error) {
		page, err := feed.Changes(r.Context(), r.Caller, readChanges(r.Values))
		if err != nil {
			return nil, err
		}
		r.Header().Set(lastSeqHeader, strconv.FormatInt(page.StoreSeq, 10))
		base := api.apiRoot(r.via, EventsNamespace) + "changes/"
		since, _ := r.Values.Int("since")
		out := &ChangeList{Changes: page.Changes, LastSeq: page.LastSeq, More: page.More,
			RestURL: changesURL(base, since, page.PerPage)}
		if page.More {
			out.NextRestURL = changesURL(base, page.LastSeq, page.PerPage)
		}
		return out, nil
	}, fuego.OptionSummary("Changes since a sequence number"),
		fuego.OptionDescription("Events, venues, organizers, categories and tags written after since, one entry each at its latest write, in sequence order. Follow next_rest_url (or since=last_seq) while more is true. Actions: created or updated (fetch the item, or embed=object), trashed, deleted (gone, or no longer readable by the caller). Deletes are kept for the feed's retention (CALENDAR_CHANGES_RETENTION, 90 days by default): a since older than that is 410 rest_sync_expired; read the lists again with modified_after, then follow the feed."),
		fuego.OptionAddResponse(http.StatusOK, "One page of changes", fuego.Response{Type: ChangeList{}}), mayAnswer(calendar.KindGone))
}

func changesURL(base string, since int64, perPage int) string {
	return base + "?since=" + strconv.FormatInt(since, 10) + "&per_page=" + strconv.Itoa(perPage)
}

// changesArgs are the parameters of GET /changes.
var changesArgs = []Arg{
	{Name: "since", Type: TypeInteger, Default: 0, Min: bound(0), Description: "The last_seq of the previous page; 0 to start from the beginning."},
	{Name: "per_page", Type: TypeInteger, Default: calendar.DefaultChangesPerPage, Min: bound(1), Max: bound(calendar.MaxChangesPerPage), Description: "Changes per page."},
	{Name: "embed", Type: TypeString, Enum: []string{"object"}, Description: "object: each entry carries the item as its route answers the caller (none for a deleted one), so a mirror needs one request a page."},
}

// readChanges reads the parameters of the change feed.
func readChanges(v Values) app.ChangesRequest {
	since, _ := v.Int("since")
	embed, _ := v.String("embed")
	return app.ChangesRequest{Since: since, PerPage: intParam(v, "per_page"), EmbedObject: embed == "object"}
}

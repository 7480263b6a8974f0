package controllers

import (
	"net/http"

	"github.com/go-fuego/fuego"

	"calendar/app"
)

// CategoryList and TagList document the term list wrappers.
type CategoryList struct {
	listLinks
	Categories []app.TermView `json:"categories"`
}

type TagList struct {
	listLinks
	Tags []app.TermView `json:"tags"`
}

// mountTerms registers the routes of categories or tags.
func mountTerms(api *API, plural string, svc *app.Terms, listDoc any) {
	base := "/" + plural
	listArgs := termListArgs(svc.Hierarchical())
	handle(api, EventsNamespace, []string{http.MethodGet}, base, listArgs, func(r *Request) (object, error) {
		f, err := readTermFilter(r.Values)
		if err != nil {
			return nil, err
		}
		page, err := svc.List(r.Context(), r.Caller, f)
		if err != nil {
			return nil, err
		}
		return termListAnswer(api, r, plural, base, listArgs, page), nil
	}, fuego.OptionSummary("List "+plural), fuego.OptionAddResponse(http.StatusOK, "One page of "+plural, fuego.Response{Type: listDoc}))

	handle(api, EventsNamespace, []string{http.MethodPost}, base, termWriteArgs(svc.Hierarchical(), true), func(r *Request) (*app.TermView, error) {
		t, err := svc.Create(r.Context(), r.Caller, readTermInput(r.Values))
		if err == nil {
			r.SetStatus(http.StatusCreated)
			r.Header().Set("Location", t.URLs.Self)
		}
		return t, err
	}, fuego.OptionSummary("Create"), fuego.OptionAddResponse(http.StatusCreated, "The new term", fuego.Response{Type: app.TermView{}}))

	path := base + "/{id}"
	id := func(r *Request) int64 {
		n, _ := r.Values.Int("id")
		return n
	}
	handle(api, EventsNamespace, []string{http.MethodGet}, path, []Arg{idArg}, func(r *Request) (*app.TermView, error) {
		return svc.Get(r.Context(), r.Caller, id(r))
	}, fuego.OptionSummary("Read"))
	handle(api, EventsNamespace, editable, path, append([]Arg{idArg}, termWriteArgs(svc.Hierarchical(), false)...), func(r *Request) (*app.TermView, error) {
		return svc.Update(r.Context(), r.Caller, id(r), readTermInput(r.Values))
	}, fuego.OptionSummary("Update the fields sent"))
	handle(api, EventsNamespace, []string{http.MethodDelete}, path, []Arg{idArg}, func(r *Request) (*app.TermView, error) {
		return svc.Delete(r.Context(), r.Caller, id(r))
	}, fuego.OptionSummary("Delete for good"), fuego.OptionDescription("Answers the term as it was; its children move up to its parent."))
}

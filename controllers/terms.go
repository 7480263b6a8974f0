package controllers

import (
	"context"
	"net/http"
	"strings"

	"github.com/go-fuego/fuego"

	"calendar/app"
	"calendar/app/calendar"
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

// termService is what the routes of categories or tags ask of the domain
// (app.Terms).
type termService interface {
	Hierarchical() bool
	List(ctx context.Context, caller app.Caller, f app.TermFilter) (*app.Page[app.TermView], error)
	Create(ctx context.Context, caller app.Caller, in app.TermInput) (*app.TermView, error)
	Get(ctx context.Context, caller app.Caller, id int64) (*app.TermView, error)
	Update(ctx context.Context, caller app.Caller, id int64, in app.TermInput) (*app.TermView, error)
	Delete(ctx context.Context, caller app.Caller, id int64) (*app.TermView, error)
}

// mountTerms registers the routes of categories or tags.
func mountTerms(api *API, plural string, svc termService, listDoc any) {
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

// termListArgs are the parameters of GET /categories and /tags.
func termListArgs(hierarchical bool) []Arg {
	args := append(append([]Arg{}, pageArgs...),
		Arg{Name: "search", Type: TypeString, Description: "Part of the name or slug, any case."},
		Arg{Name: "exclude", Type: TypeArray, Items: TypeString, Description: "Terms to leave out, by ID or slug."},
		Arg{Name: "include", Type: TypeArray, Items: TypeString, Description: "Only these terms, by ID or slug."},
		Arg{Name: "order", Type: TypeString, Description: "asc or desc, any case."},
		Arg{Name: "orderby", Type: TypeString, Enum: app.TermOrderBy, Description: "The order: by " + strings.Join(app.TermOrderBy, ", ") + " (name by default)."},
		Arg{Name: "hide_empty", Type: TypeBoolean, Default: true, Description: "Leave out terms no published event carries."},
		Arg{Name: "post", Type: TypeInteger, Description: "Only the terms of this event."},
		Arg{Name: "event", Type: TypeInteger, Description: "Only the terms of this event (wins over post)."},
		Arg{Name: "slug", Type: TypeString, Description: "Only the term with this slug."},
	)
	if hierarchical {
		args = append(args, Arg{Name: "parent", Type: TypeInteger, Description: "Only the direct children of this category; 0 for top-level ones."})
	}
	return args
}

// termWriteArgs are the parameters of a term create (name required) or update.
func termWriteArgs(hierarchical, create bool) []Arg {
	args := []Arg{
		{Name: "name", Type: TypeString, Required: create, Description: "The name."},
		{Name: "description", Type: TypeString, Description: "The description."},
		{Name: "slug", Type: TypeString, Description: "The slug; from the name when absent."},
	}
	if hierarchical {
		args = append(args, Arg{Name: "parent", Type: TypeInteger, Description: "ID of the parent category, 0 for none."})
	}
	return args
}

// readTermInput reads a term write; a parent sent to a taxonomy without
// parents is kept, for the app to refuse.
func readTermInput(v Values) app.TermInput {
	in := app.TermInput{Name: stringParam(v, "name"), Description: stringParam(v, "description"), Slug: stringParam(v, "slug")}
	if parent, ok := v.Int("parent"); ok {
		in.Parent = &parent
	} else if v.Has("parent") { // undeclared (tags): kept as sent, for the app to refuse
		parent, _ = ToInt(v["parent"])
		in.Parent = &parent
	}
	return in
}

// readTermFilter reads the parameters of a term list; event wins over post.
func readTermFilter(v Values) (app.TermFilter, error) {
	var bad calendar.InvalidParams
	f := app.TermFilter{Page: readPage(v, &bad), Search: stringParam(v, "search"), Slug: stringParam(v, "slug"),
		Include: stringsParam(v, "include"), Exclude: stringsParam(v, "exclude"), HideEmpty: boolParam(v, "hide_empty"),
		Parent: intParam(v, "parent")}
	f.Order, f.OrderBy = stringParam(v, "order"), stringParam(v, "orderby")
	for _, name := range []string{"post", "event"} {
		if id := intParam(v, name); id != nil {
			f.Event, f.EventParam = id, name
		}
	}
	return f, bad.Err()
}

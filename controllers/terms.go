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
		page, err := svc.List(r.Context(), r.Caller, readTermFilter(r.Values))
		if err != nil {
			return nil, err
		}
		return termListAnswer(api, r, plural, base, listArgs, page), nil
	}, fuego.OptionSummary("List "+plural), fuego.OptionAddResponse(http.StatusOK, "One page of "+plural, fuego.Response{Type: listDoc}))

	handle(api, EventsNamespace, []string{http.MethodPost}, base, termWriteArgs(svc.Hierarchical(), true), func(r *Request) (TermAnswer, error) {
		t, err := svc.Create(r.Context(), r.Caller, readTermInput(r.Values))
		if err == nil {
			r.SetStatus(http.StatusCreated)
			r.Header().Set("Location", t.URLs.Self)
		}
		return withTermLinks(r, plural, t, err)
	}, fuego.OptionSummary("Create"), embedDoc, fuego.OptionAddResponse(http.StatusCreated, "The new term", fuego.Response{Type: TermAnswer{}}))

	path := base + "/{id}"
	id := func(r *Request) int64 {
		n, _ := r.Values.Int("id")
		return n
	}
	handle(api, EventsNamespace, []string{http.MethodGet}, path, []Arg{idArg, termContextArg}, func(r *Request) (TermAnswer, error) {
		if context, _ := r.Values.String("context"); context == "embed" {
			r.inContext(termEmbedFields)
		}
		t, err := svc.Get(r.Context(), r.Caller, id(r))
		return withTermLinks(r, plural, t, err)
	}, fuego.OptionSummary("Read"), embedDoc)
	handle(api, EventsNamespace, editable, path, append([]Arg{idArg}, termWriteArgs(svc.Hierarchical(), false)...), func(r *Request) (TermAnswer, error) {
		t, err := svc.Update(r.Context(), r.Caller, id(r), readTermInput(r.Values))
		return withTermLinks(r, plural, t, err)
	}, fuego.OptionSummary("Update the fields sent"), embedDoc)
	handle(api, EventsNamespace, []string{http.MethodDelete}, path, []Arg{idArg}, func(r *Request) (*app.TermView, error) {
		return svc.Delete(r.Context(), r.Caller, id(r))
	}, fuego.OptionSummary("Delete for good"), fuego.OptionDescription("Answers the term as it was; its children move up to its parent."))
}

// TermAnswer is a term read, created or updated alone. The plugin answers
// these with WordPress' own term response, its data replaced by the term
// object, so they keep WordPress' _links (its lists and deletions build new
// answers, without them); here the links point at this service's routes,
// as the term's urls do.
type TermAnswer struct {
	*app.TermView
	Links TermLinks `json:"_links"`
}

// TermLinks are a term's _links in WordPress' order. up, the parent, is
// the one _embed embeds; wp:post_type lists the events that carry the term.
// WordPress' about (its taxonomy's description) has no route here.
type TermLinks struct {
	Self       []Link  `json:"self"`
	Collection []Link  `json:"collection"`
	Up         []Link  `json:"up,omitempty"`
	PostType   []Link  `json:"wp:post_type"`
	Curies     []Curie `json:"curies"`
}

// Curie is how a compact relation (wp:post_type) expands to its URI.
type Curie struct {
	Name      string `json:"name"`
	Href      string `json:"href"`
	Templated bool   `json:"templated"`
}

// wpCuries are WordPress' compact relations: wp: stands for https://api.w.org/.
var wpCuries = []Curie{{Name: "wp", Href: "https://api.w.org/{rel}", Templated: true}}

// withTermLinks adds its links to a term answered alone.
func withTermLinks(r *Request, plural string, t *app.TermView, err error) (TermAnswer, error) {
	if err != nil {
		return TermAnswer{}, err
	}
	links := TermLinks{
		Self:       []Link{{Href: t.URLs.Self}},
		Collection: []Link{{Href: t.URLs.Collection}},
		PostType:   []Link{{Href: r.Caller.Root + "events?" + plural + "=" + itoa(t.ID)}},
		Curies:     wpCuries,
	}
	if t.URLs.Up != "" {
		links.Up = []Link{{Embeddable: true, Href: t.URLs.Up}}
	}
	return TermAnswer{TermView: t, Links: links}, nil
}

// termContextArg is WordPress' context, which the plugin's term reads pass
// on to WordPress' term controller: embed keeps termEmbedFields; edit shows
// what view does, as the plugin's routes check no capability for it.
var termContextArg = Arg{Name: "context", Type: TypeString, Default: "view", Enum: []string{"view", "embed", "edit"},
	Description: "The fields shown: view (all), embed (those an embedding answer shows: id, name, slug, taxonomy, url, urls.self, urls.collection and the links) or edit (as view)."}

// termEmbedFields are a term's fields in context=embed: those WordPress'
// term schema gives that context (id, link as the plugin's url, name, slug,
// taxonomy), the urls the plugin adds to them (no up: the parent is not
// among them) and the links.
var termEmbedFields = fieldTree{"id": nil, "name": nil, "slug": nil, "taxonomy": nil, "url": nil,
	"urls": fieldTree{"self": nil, "collection": nil}, "_links": nil}

// termListArgs are the parameters of GET /categories and /tags.
func termListArgs(hierarchical bool) []Arg {
	args := append(append([]Arg{}, pageArgs...),
		Arg{Name: "search", Type: TypeString, NotEmpty: true, MaxBytes: calendar.MaxSearchLength, Description: "Part of the name or slug, any case."},
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
		{Name: "name", Type: TypeString, Required: create, MaxBytes: calendar.MaxShortBytes, Description: "The name."},
		{Name: "description", Type: TypeString, MaxBytes: calendar.MaxExcerptBytes, Description: "The description."},
		{Name: "slug", Type: TypeString, MaxBytes: calendar.MaxShortBytes, Description: "The slug; from the name when absent."},
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
func readTermFilter(v Values) app.TermFilter {
	f := app.TermFilter{Page: readPage(v), Search: stringParam(v, "search"), Slug: stringParam(v, "slug"),
		Include: stringsParam(v, "include"), Exclude: stringsParam(v, "exclude"), HideEmpty: boolParam(v, "hide_empty"),
		Parent: intParam(v, "parent")}
	f.Order, f.OrderBy = stringParam(v, "order"), stringParam(v, "orderby")
	for _, name := range []string{"post", "event"} {
		if id := intParam(v, name); id != nil {
			f.Event, f.EventParam = id, name
		}
	}
	return f
}

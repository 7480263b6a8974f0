package controllers

import (
	"context"
	"net/http"
	"slices"
	"strconv"

	"github.com/go-fuego/fuego"

	"calendar/app"
	"calendar/app/calendar"
)

// synonymService is what the synonym routes ask of the domain (app.Synonyms).
type synonymService interface {
	List(ctx context.Context, caller app.Caller) ([]app.SynonymView, error)
	Create(ctx context.Context, caller app.Caller, in app.SynonymInput) (*app.SynonymView, error)
	Get(ctx context.Context, caller app.Caller, id int64) (*app.SynonymView, error)
	Update(ctx context.Context, caller app.Caller, id int64, in app.SynonymInput) (*app.SynonymView, error)
	Delete(ctx context.Context, caller app.Caller, id int64) (*app.DeletedSynonym, error)
}

// mountSynonyms registers the groups of words searches treat alike under
// {base_url}/vendor/admin/v1/synonyms.
func mountSynonyms(api *API, synonyms synonymService) {
	const who = " Administrators."
	handle(api, AdminNamespace, []string{http.MethodGet}, "/synonyms", nil, func(r *Request) ([]app.SynonymView, error) {
		return synonyms.List(r.Context(), r.Caller)
	}, fuego.OptionSummary("List synonym groups"), fuego.OptionDescription("Every group, by ID."+who))

	handle(api, AdminNamespace, []string{http.MethodPost}, "/synonyms", synonymArgs(true), func(r *Request) (*app.SynonymView, error) {
		g, err := synonyms.Create(r.Context(), r.Caller, readSynonymInput(r.Values))
		if err == nil {
			r.SetStatus(http.StatusCreated)
		}
		return g, err
	}, fuego.OptionSummary("Add a synonym group"),
		fuego.OptionDescription("Searches apply it at once, in every order and language, without reindexing: a word of a search is also looked for as each of its synonyms (words, prefixes, one typo, stems). At most "+
			strconv.Itoa(calendar.MaxSynonymGroups)+" groups."+who),
		fuego.OptionAddResponse(http.StatusCreated, "The group", fuego.Response{Type: app.SynonymView{}}))

	handle(api, AdminNamespace, []string{http.MethodGet}, "/synonyms/{id}", synonymIDArgs, func(r *Request) (*app.SynonymView, error) {
		id, _ := r.Values.Int("id")
		return synonyms.Get(r.Context(), r.Caller, id)
	}, fuego.OptionSummary("Read a synonym group"), fuego.OptionDescription(who))

	handle(api, AdminNamespace, editable, "/synonyms/{id}", append(slices.Clone(synonymIDArgs), synonymArgs(false)...), func(r *Request) (*app.SynonymView, error) {
		id, _ := r.Values.Int("id")
		return synonyms.Update(r.Context(), r.Caller, id, readSynonymInput(r.Values))
	}, fuego.OptionSummary("Change a synonym group"), fuego.OptionDescription("The fields sent (If-Match: its ETag)."+who))

	handle(api, AdminNamespace, []string{http.MethodDelete}, "/synonyms/{id}", synonymIDArgs, func(r *Request) (*app.DeletedSynonym, error) {
		id, _ := r.Values.Int("id")
		return synonyms.Delete(r.Context(), r.Caller, id)
	}, fuego.OptionSummary("Delete a synonym group"), fuego.OptionDescription(who))
}

var synonymIDArgs = []Arg{{Name: "id", Type: TypeInteger, Required: true, Description: "Unique identifier of the synonym group."}}

// synonymArgs are the parameters of a group's create (words required) or
// update.
func synonymArgs(create bool) []Arg {
	return []Arg{
		{Name: "words", Type: TypeArray, Items: TypeString, Required: create, MaxItems: calendar.MaxSynonymWords, Example: []any{"concert", "gig"},
			Description: "Single words, folded as a search folds them (accents and case aside). Without root, each means the others (two at least); with root, a search for the root also finds them, and a search for one of them does not find the root."},
		{Name: "root", Type: TypeString, MaxBytes: calendar.MaxWordBytes, Example: "music",
			Description: "Makes the group one-way: the word whose search also finds words. Empty: a group whose words mean each other."},
	}
}

func readSynonymInput(v Values) app.SynonymInput {
	return app.SynonymInput{Root: stringParam(v, "root"), Words: stringsParam(v, "words")}
}

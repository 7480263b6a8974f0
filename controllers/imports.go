package controllers

import (
	"context"
	"net/http"
	"slices"

	"github.com/go-fuego/fuego"

	"calendar/app"
	"calendar/app/calendar"
)

// importService is what the import routes ask of the domain (app.Imports).
type importService interface {
	List(ctx context.Context, caller app.Caller) ([]app.ImportView, error)
	Create(ctx context.Context, caller app.Caller, in app.ImportInput) (*app.ImportView, error)
	Get(ctx context.Context, caller app.Caller, id int64) (*app.ImportView, error)
	Update(ctx context.Context, caller app.Caller, id int64, in app.ImportInput) (*app.ImportView, error)
	Delete(ctx context.Context, caller app.Caller, id int64) (*app.DeletedImport, error)
	Run(ctx context.Context, caller app.Caller, id int64) (*app.ImportRunView, error)
	Runs(ctx context.Context, caller app.Caller, id int64) ([]app.ImportRunView, error)
	Preview(ctx context.Context, caller app.Caller, id int64, in app.ImportInput) (*app.ImportPreview, error)
	// Receive lets a body to these routes be read (bodyGate).
	Receive(ctx context.Context, caller app.Caller) (release func(), err error)
}

// mountImports registers the sources of imported events under
// {base_url}/vendor/admin/v1/imports.
func mountImports(api *API, imports importService) {
	api.sources = imports
	const who = " Administrators and editors."
	handle(api, AdminNamespace, []string{http.MethodGet}, "/imports", nil, func(r *Request) ([]app.ImportView, error) {
		return imports.List(r.Context(), r.Caller)
	}, fuego.OptionSummary("List import sources"), fuego.OptionDescription("Every source events are imported from, with its latest run."+who))

	handle(api, AdminNamespace, []string{http.MethodPost}, "/imports", importArgs(true), func(r *Request) (*app.ImportView, error) {
		v, err := imports.Create(r.Context(), r.Caller, readImportInput(r.Values))
		if err == nil {
			r.SetStatus(http.StatusCreated)
		}
		return v, err
	}, fuego.OptionSummary("Add an import source"),
		fuego.OptionDescription("A source of events kept in step: each run creates what is new, updates what changed, leaves the unchanged unwritten, skips what was edited here since its import (unless overwrite_local_edits) and applies on_removed. At most "+
			calendar.Thousands(app.MaxImportSources)+" sources."+who),
		fuego.OptionAddResponse(http.StatusCreated, "The source", fuego.Response{Type: app.ImportView{}}))

	handle(api, AdminNamespace, []string{http.MethodPost}, "/imports/preview", importArgs(false), func(r *Request) (*app.ImportPreview, error) {
		return imports.Preview(r.Context(), r.Caller, 0, readImportInput(r.Values))
	}, fuego.OptionSummary("What a source would import"),
		fuego.OptionDescription("Reads a source given by its fields and answers, item by item, what a first run would do with it (created, failed); nothing is written."+who))

	handle(api, AdminNamespace, []string{http.MethodGet}, "/imports/{id}", importIDArgs, func(r *Request) (*app.ImportView, error) {
		id, _ := r.Values.Int("id")
		return imports.Get(r.Context(), r.Caller, id)
	}, fuego.OptionSummary("Read an import source"), fuego.OptionDescription("With its latest run."+who))

	handle(api, AdminNamespace, editable, "/imports/{id}", append(slices.Clone(importIDArgs), importArgs(false)...), func(r *Request) (*app.ImportView, error) {
		id, _ := r.Values.Int("id")
		return imports.Update(r.Context(), r.Caller, id, readImportInput(r.Values))
	}, fuego.OptionSummary("Change an import source"), fuego.OptionDescription("The fields sent; active=true on a source that kept failing makes it due at once."+who))

	handle(api, AdminNamespace, []string{http.MethodDelete}, "/imports/{id}", importIDArgs, func(r *Request) (*app.DeletedImport, error) {
		id, _ := r.Values.Int("id")
		return imports.Delete(r.Context(), r.Caller, id)
	}, fuego.OptionSummary("Delete an import source"), fuego.OptionDescription("The events it imported stay as they are; its run under way stops."+who))

	handle(api, AdminNamespace, []string{http.MethodPost}, "/imports/{id}/run", importIDArgs, func(r *Request) (*app.ImportRunView, error) {
		id, _ := r.Values.Int("id")
		v, err := imports.Run(r.Context(), r.Caller, id)
		if err == nil {
			r.SetStatus(http.StatusAccepted)
		}
		return v, err
	}, fuego.OptionSummary("Run an import source now"),
		fuego.OptionDescription("Starts a run and answers 202 with it; its outcome is in the source's runs once it ends. 409 rest_import_running while another run of the source is under way."+who),
		fuego.OptionAddResponse(http.StatusAccepted, "The run, begun", fuego.Response{Type: app.ImportRunView{}}))

	handle(api, AdminNamespace, []string{http.MethodGet}, "/imports/{id}/runs", importIDArgs, func(r *Request) ([]app.ImportRunView, error) {
		id, _ := r.Values.Int("id")
		return imports.Runs(r.Context(), r.Caller, id)
	}, fuego.OptionSummary("An import source's runs"),
		fuego.OptionDescription("The latest runs, newest first (one under way first, without its end): when each began and ended, its items by outcome (created, updated, unchanged, skipped, removed, failed), the items that failed and why, and why a run failed as a whole."+who))
}

var importIDArgs = []Arg{{Name: "id", Type: TypeInteger, Required: true, Description: "Unique identifier of the import source."}}

// importArgs are the parameters of a source's create (kind required; url
// too, but for a csv source sent with its file, which the service checks)
// or update and of a preview.
func importArgs(create bool) []Arg {
	return []Arg{
		{Name: "kind", Type: TypeString, Required: create, Enum: app.ImportKinds, Example: "ical",
			Description: "What the source is: ical (an iCalendar feed; webcal:// is read as https://), rest (another site's tribe/events/v1 or this service's vendor/events/v1 events list, its query string the filter, followed page by page), jsonld (a web page of schema.org Event objects in JSON-LD), csv (the plugin's CSV import columns, sent as file and run once; or at a url)."},
		{Name: "file", Type: TypeString, MaxBytes: app.MaxImportFileBytes,
			Description: "A csv source's content, as a text field of a JSON or form body, or as the file part \"file\" of a multipart/form-data body (beside the other fields as form fields; over " +
				calendar.Thousands(app.MaxImportFileBytes) + " bytes: 413 rest_upload_file_too_big): a header row of the plugin's CSV import columns (Event Name, Event Start Date, Event Start Time, Event End Date, Event End Time, All Day Event, Timezone, Event Category, Event Tags, Event Venue Name, Venue Address, Venue City..., Organizer Name, Organizer Email...), then a row per event."},
		{Name: "url", Type: TypeString, MaxBytes: calendar.MaxURLBytes, Example: "webcal://calendar.example.org/club.ics",
			Description: "Where the source is fetched: an absolute http(s) or webcal URL, on a public address (or in CALENDAR_OUTBOUND_ALLOWED_NETWORKS). Required but for a csv source sent with its file."},
		{Name: "schedule", Type: TypeString, Enum: app.ImportSchedules, Default: "manual", Description: "How often it runs by itself."},
		{Name: "status", Type: TypeString, Enum: []string{calendar.StatusDraft, calendar.StatusPending, calendar.StatusPublish, calendar.StatusPrivate}, Default: calendar.StatusDraft,
			Description: "The status of the events it creates."},
		{Name: "categories", Type: TypeArray, Items: TypeString, MaxItems: calendar.MaxEventTerms, Description: "Categories (IDs, slugs or names) the events it creates are given, beside their own."},
		{Name: "tags", Type: TypeArray, Items: TypeString, MaxItems: calendar.MaxEventTerms, Description: "Tags (IDs, slugs or names) the events it creates are given."},
		{Name: "author", Type: TypeInteger, Description: "The user its events are written as, under their permissions (the caller by default)."},
		{Name: "on_removed", Type: TypeString, Enum: app.ImportOnRemoved, Default: "keep",
			Description: "What happens to an event that left the source: keep it, trash it, or cancel it (event_status canceled)."},
		{Name: "overwrite_local_edits", Type: TypeBoolean, Default: false, Description: "true: a run updates events edited here since their import."},
		{Name: "active", Type: TypeBoolean, Default: true, Description: "false: scheduled runs stop (a run may still be asked for)."},
		{Name: "description", Type: TypeString, MaxBytes: calendar.MaxWebhookDescriptionBytes, Description: "What the source is."},
	}
}

func readImportInput(v Values) app.ImportInput {
	return app.ImportInput{Kind: stringParam(v, "kind"), URL: stringParam(v, "url"), Schedule: stringParam(v, "schedule"),
		Status: stringParam(v, "status"), OnRemoved: stringParam(v, "on_removed"), Description: stringParam(v, "description"),
		Categories: stringsParam(v, "categories"), Tags: stringsParam(v, "tags"), Author: intParam(v, "author"),
		Active: boolParam(v, "active"), OverwriteLocalEdits: boolParam(v, "overwrite_local_edits"), File: fileParam(v)}
}

// fileParam is a csv source's content as sent (nil: none).
func fileParam(v Values) []byte {
	if f := stringParam(v, "file"); f != nil {
		return []byte(*f)
	}
	return nil
}

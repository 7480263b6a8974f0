package app

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"calendar/app/calendar"
)

// Imports keep events in step with open sources of them (an open Event
// Aggregator): an iCalendar feed, another site's events API (the plugin's
// or this service's), a page of schema.org events in JSON-LD, an uploaded
// CSV file of the plugin's columns. A run creates what is new, updates what
// changed, leaves the unchanged untouched (no write, so no change, webhook
// or feed entry), applies the source's on_removed to what left it, and
// skips what was edited here since its import. Every event it writes goes
// through the events service as the source's author would write it.
// Administrators and editors manage sources.

// Imports is the service of import sources and their runs.
type Imports struct {
	store    calendar.Store
	events   *Events
	users    *Users
	settings ImportSettings
	site     *time.Location
	now      func() time.Time
	// running are the runs under way in this process, by source: the
	// source's own Running field keeps one run at a time across replicas.
	mu      sync.Mutex
	running map[int64]context.CancelFunc
	metrics map[int64]*ImportMetric
	wg      sync.WaitGroup
	base    context.Context
	stop    context.CancelFunc
}

// ImportFetcher fetches a source under the egress policy (public addresses
// only, unless the operator opened networks; every connection and redirect
// checked), with the validators of the last fetch, within maxBytes and the
// fetcher's timeout. Implemented by the HTTP layer (controllers).
type ImportFetcher interface {
	FetchSource(ctx context.Context, rawURL string, cond FetchConditions, maxBytes int64) (*Fetched, error)
}

// FetchConditions are the validators a fetch sends back (If-None-Match,
// If-Modified-Since) and what it accepts.
type FetchConditions struct {
	ETag, LastModified string
	Accept             string
}

// Fetched is a source's answer: NotModified when the validators held (no
// Body then), and the validators to send next time.
type Fetched struct {
	NotModified        bool
	Body               []byte
	ETag, LastModified string
	ContentType        string
}

// ImportSettings configure imports.
type ImportSettings struct {
	// Fetcher fetches sources (nil: runs of URL sources fail).
	Fetcher ImportFetcher
	Limits  ImportLimits
	// Log, when set, hears what the scheduler could not do.
	Log func(format string, args ...any)
}

// ImportLimits bound one run: the bytes fetched, the items read, and the
// shape of an iCalendar text (a line unfolded, its components, their
// nesting, one component's properties, one zone's rules); the pages a rest
// source is followed through.
type ImportLimits struct {
	FetchBytes int64
	Items      int
	LineBytes  int
	Components int
	Depth      int
	Properties int
	ZoneRules  int
	Pages      int
	// Time bounds a whole run.
	Time time.Duration
	// BatchItems and BatchBytes bound the events a run creates together,
	// in one write of the store (import_batch.go): how many, and the bytes
	// of their text (title, description, excerpt; one event alone may
	// hold more). BatchItems 1 creates each event alone.
	BatchItems int
	BatchBytes int
}

// DefaultImportLimits: a run reads at most 16 MiB and 10,000 events (a
// year of a busy site's feed) in 10 minutes, and creates events 250 or
// 1 MiB of text at a time.
var DefaultImportLimits = ImportLimits{FetchBytes: 16 << 20, Items: 10_000, LineBytes: 64 << 10, Components: 25_000,
	Depth: 8, Properties: 500, ZoneRules: 200, Pages: 100, Time: 10 * time.Minute, BatchItems: 250, BatchBytes: 1 << 20}

// The kinds of source, their schedules and what happens to what left one.
var (
	ImportKinds     = []string{"ical", "rest", "jsonld", "csv"}
	ImportSchedules = []string{"manual", "hourly", "daily", "weekly"}
	ImportOnRemoved = []string{"keep", "trash", "cancel"}
)

// Outcomes of an item in a run.
const (
	OutcomeCreated   = "created"
	OutcomeUpdated   = "updated"
	OutcomeUnchanged = "unchanged"
	OutcomeSkipped   = "skipped"
	OutcomeRemoved   = "removed"
	OutcomeFailed    = "failed"
)

// ImportOutcomes are every outcome, in the order runs list them.
var ImportOutcomes = []string{OutcomeCreated, OutcomeUpdated, OutcomeUnchanged, OutcomeSkipped, OutcomeRemoved, OutcomeFailed}

const (
	// maxImportRunsKept is how many runs a source keeps, newest first;
	// maxImportFailuresKept how many failed items a run lists.
	maxImportRunsKept     = 20
	maxImportFailuresKept = 100
	// MaxImportSources bounds the sources of a site.
	MaxImportSources = 200
	// MaxImportFileBytes bounds a CSV file sent with its source (within
	// a request body's megabyte).
	MaxImportFileBytes = 512 << 10
	importPage         = 1000
)

func newImports(store calendar.Store, a *App, settings ImportSettings, now func() time.Time) *Imports {
	l, d := &settings.Limits, DefaultImportLimits
	orDefault(&l.FetchBytes, d.FetchBytes)
	orDefault(&l.Items, d.Items)
	orDefault(&l.LineBytes, d.LineBytes)
	orDefault(&l.Components, d.Components)
	orDefault(&l.Depth, d.Depth)
	orDefault(&l.Properties, d.Properties)
	orDefault(&l.ZoneRules, d.ZoneRules)
	orDefault(&l.Pages, d.Pages)
	orDefault(&l.Time, d.Time)
	orDefault(&l.BatchItems, d.BatchItems)
	orDefault(&l.BatchBytes, d.BatchBytes)
	base, stop := context.WithCancel(context.Background())
	return &Imports{store: store, events: a.Events, users: a.Users, settings: settings, site: a.settings.TimeZone, now: now,
		running: map[int64]context.CancelFunc{}, base: base, stop: stop}
}

// ImportInput is a source's create or update: nil was not sent.
type ImportInput struct {
	Kind, URL, Schedule, Status, OnRemoved, Description *string
	Categories, Tags                                    *[]string
	Author                                              *int64
	Active, OverwriteLocalEdits                         *bool
	// File is an uploaded file's content (csv).
	File []byte
}

// ImportView is a source as its routes answer it.
type ImportView struct {
	ID                  int64    `json:"id"`
	Kind                string   `json:"kind"`
	URL                 string   `json:"url"`
	HasFile             bool     `json:"has_file"`
	Schedule            string   `json:"schedule"`
	Active              bool     `json:"active"`
	Status              string   `json:"status"`
	Categories          []string `json:"categories"`
	Tags                []string `json:"tags"`
	Author              int64    `json:"author"`
	OnRemoved           string   `json:"on_removed"`
	OverwriteLocalEdits bool     `json:"overwrite_local_edits"`
	Description         string   `json:"description"`
	Created             string   `json:"created"`
	Modified            string   `json:"modified"`
	// Running says a run is under way; LastRun is the latest ended one.
	Running     bool           `json:"running"`
	LastRun     *ImportRunView `json:"last_run"`
	LastSuccess *string        `json:"last_success"`
	NextRun     *string        `json:"next_run"`
	Failures    int            `json:"failures"`
	revision    int64
}

// Revision is the source's revision: its ETag, and what If-Match names.
func (v *ImportView) Revision() int64 { return v.revision }

// ImportRunView is one run as its route answers it.
type ImportRunView struct {
	ID      int64              `json:"id"`
	Trigger string             `json:"trigger"`
	Started string             `json:"started"`
	Ended   *string            `json:"ended"`
	Counts  map[string]int     `json:"counts"`
	Failed  []ImportFailedView `json:"failed"`
	Error   string             `json:"error"`
}

// ImportFailedView is an item a run could not write, and why.
type ImportFailedView struct {
	Key    string `json:"key"`
	Title  string `json:"title"`
	Reason string `json:"reason"`
}

// DeletedImport is the answer to a delete.
type DeletedImport struct {
	Deleted  bool       `json:"deleted"`
	Previous ImportView `json:"previous"`
}

func (s *Imports) view(src *calendar.ImportSource) ImportView {
	v := ImportView{ID: src.ID, Kind: src.Kind, URL: src.URL, HasFile: len(src.File) > 0, Schedule: src.Schedule, Active: src.Active,
		Status: src.Status, Categories: orEmpty(src.Categories), Tags: orEmpty(src.Tags), Author: src.Author, OnRemoved: src.OnRemoved,
		OverwriteLocalEdits: src.OverwriteLocalEdits, Description: src.Description, Created: rfc3339(src.Created),
		Modified: rfc3339(src.Modified), Running: src.Running != nil, Failures: src.Failures, revision: src.Seq}
	if len(src.Runs) > 0 {
		r := runView(src.Runs[0])
		v.LastRun = &r
	}
	if !src.LastSuccess.IsZero() {
		t := rfc3339(src.LastSuccess)
		v.LastSuccess = &t
	}
	if src.Active && src.Schedule != "manual" && !src.Next.IsZero() {
		t := rfc3339(src.Next)
		v.NextRun = &t
	}
	return v
}

func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return slices.Clone(s)
}

func runView(r calendar.ImportRun) ImportRunView {
	v := ImportRunView{ID: r.ID, Trigger: r.Trigger, Started: rfc3339(r.Started), Counts: map[string]int{},
		Failed: []ImportFailedView{}, Error: r.Error}
	for _, o := range ImportOutcomes {
		v.Counts[o] = r.Counts[o]
	}
	if !r.Ended.IsZero() {
		t := rfc3339(r.Ended)
		v.Ended = &t
	}
	for _, f := range r.Failed {
		v.Failed = append(v.Failed, ImportFailedView{Key: f.Key, Title: f.Title, Reason: f.Reason})
	}
	return v
}

func errCannotImport(actor *calendar.User) *calendar.Error {
	return calendar.ForbiddenAs(actor, "rest_cannot_manage_imports", "Sorry, you are not allowed to manage imports.")
}

// mayImport: administrators and editors (who edit others' events) manage
// every source.
func mayImport(caller Caller) error {
	if !caller.Can(calendar.CapEditOthersPosts) {
		return errCannotImport(caller.User)
	}
	return nil
}

// Receive is asked before a body sent to the routes of sources is read (a
// source's fields, a csv file perhaps): only from those who manage imports.
func (s *Imports) Receive(_ context.Context, caller Caller) (release func(), err error) {
	if err := mayImport(caller); err != nil {
		return nil, err
	}
	return func() {}, nil
}

func (s *Imports) load(ctx context.Context, caller Caller, id int64) (*calendar.ImportSource, error) {
	if err := mayImport(caller); err != nil {
		return nil, err
	}
	src, err := s.store.Imports().Get(ctx, id)
	switch {
	case errors.Is(err, calendar.ErrNotFound):
		return nil, errImportMissing()
	case err != nil:
		return nil, err
	}
	return src, nil
}

func errImportMissing() *calendar.Error {
	return calendar.NewError(calendar.KindNotFound, "rest_import_invalid_id", "Invalid import ID.")
}

// each reads every source in ID order, a page at a time.
func (s *Imports) each(ctx context.Context, visit func(*calendar.ImportSource)) error {
	var after int64
	for {
		page, err := s.store.Imports().Scan(ctx, after, importPage)
		if err != nil || len(page) == 0 {
			return err
		}
		for _, src := range page {
			visit(src)
		}
		after = page[len(page)-1].ID
	}
}

// List answers every source, by ID.
func (s *Imports) List(ctx context.Context, caller Caller) ([]ImportView, error) {
	if err := mayImport(caller); err != nil {
		return nil, err
	}
	out := []ImportView{}
	err := s.each(ctx, func(src *calendar.ImportSource) { out = append(out, s.view(src)) })
	return out, err
}

// Get answers one source.
func (s *Imports) Get(ctx context.Context, caller Caller, id int64) (*ImportView, error) {
	src, err := s.load(ctx, caller, id)
	if err != nil {
		return nil, err
	}
	v := s.view(src)
	return &v, nil
}

// guardOfImports names the guard creations take to count sources.
const guardOfImports = "imports"

// Create makes a source; a scheduled one is due at once.
func (s *Imports) Create(ctx context.Context, caller Caller, in ImportInput) (*ImportView, error) {
	if err := mayImport(caller); err != nil {
		return nil, err
	}
	if in.Kind == nil {
		return nil, calendar.ErrMissingParams([]string{"kind"})
	}
	now := s.now().UTC().Truncate(time.Second)
	src := &calendar.ImportSource{Owner: caller.User.ID, Author: caller.User.ID, Schedule: "manual", Active: true,
		Status: calendar.StatusDraft, OnRemoved: "keep", Created: now, Modified: now}
	if err := s.apply(ctx, caller, src, in); err != nil {
		return nil, err
	}
	if err := s.complete(src); err != nil {
		return nil, err
	}
	src.Next = now
	guard := &guardHold{guards: s.store.Guards(), name: guardOfImports, clock: leaseClock}
	defer guard.release(ctx)
	if err := guard.take(ctx); err != nil {
		return nil, err
	}
	n, err := s.store.Imports().Count(ctx)
	if err != nil {
		return nil, err
	}
	if n >= MaxImportSources {
		return nil, calendar.NewError(calendar.KindForbidden, "rest_imports_limit",
			fmt.Sprintf("The site has %d import sources, as many as it takes; delete one first.", MaxImportSources))
	}
	if err := guard.keep(ctx); err != nil {
		return nil, err
	}
	if err := s.store.Imports().Insert(ctx, src); err != nil {
		return nil, err
	}
	v := s.view(src)
	return &v, nil
}

// complete refuses a source its kind cannot run: a URL for the fetched
// kinds, a file for csv.
func (s *Imports) complete(src *calendar.ImportSource) error {
	switch {
	case src.Kind == "csv" && len(src.File) == 0 && src.URL == "":
		return calendar.ErrInvalidParam("file", "a csv source needs its file (or a url).")
	case src.Kind != "csv" && src.URL == "":
		return calendar.ErrMissingParams([]string{"url"})
	}
	return nil
}

// Update changes what a source says (the fields sent).
func (s *Imports) Update(ctx context.Context, caller Caller, id int64, in ImportInput) (*ImportView, error) {
	src, err := s.load(ctx, caller, id)
	if err != nil {
		return nil, err
	}
	// Checked once, before the write; the loop applies what is checked.
	checked := cloneImport(src)
	if err := s.apply(ctx, caller, checked, in); err != nil {
		return nil, err
	}
	if err := s.complete(checked); err != nil {
		return nil, err
	}
	err = s.editImport(ctx, src, caller.Expect, func(cur *calendar.ImportSource) error {
		keep := cur.Seq
		running, runs, etag, lm, fails, next, last, lease := cur.Running, cur.Runs, cur.ETag, cur.LastModified, cur.Failures, cur.Next, cur.LastSuccess, cur.Lease
		*cur = *cloneImport(checked)
		cur.Seq, cur.Running, cur.Runs, cur.Failures, cur.Next, cur.LastSuccess, cur.Lease = keep, running, runs, fails, next, last, lease
		if cur.URL == checked.URL && cur.Kind == src.Kind { // the same source: its validators hold
			cur.ETag, cur.LastModified = etag, lm
		}
		if in.Active != nil && *in.Active { // resumed: due at once, without back-off
			cur.Failures, cur.Next = 0, s.now().UTC()
		}
		cur.Modified = s.now().UTC().Truncate(time.Second)
		return nil
	})
	if err != nil {
		return nil, err
	}
	v := s.view(src)
	return &v, nil
}

// Delete removes a source; the events it made stay, as they are.
func (s *Imports) Delete(ctx context.Context, caller Caller, id int64) (*DeletedImport, error) {
	src, err := s.load(ctx, caller, id)
	if err != nil {
		return nil, err
	}
	s.cancelRun(id)
	src, err = s.discardImport(ctx, src, caller.Expect)
	if err != nil {
		return nil, err
	}
	if err := s.forgetItems(ctx, id); err != nil {
		return nil, err
	}
	return &DeletedImport{Deleted: true, Previous: s.view(src)}, nil
}

// apply checks the fields sent and sets them on src.
func (s *Imports) apply(ctx context.Context, caller Caller, src *calendar.ImportSource, in ImportInput) error {
	var bad calendar.InvalidParams
	oneOf := func(name string, v *string, allowed []string, set *string) {
		if v == nil {
			return
		}
		x := strings.ToLower(strings.TrimSpace(*v))
		if !slices.Contains(allowed, x) {
			bad.Add(name, name+" must be one of "+strings.Join(allowed, ", ")+".", nil)
		}
		*set = x
	}
	oneOf("kind", in.Kind, ImportKinds, &src.Kind)
	oneOf("schedule", in.Schedule, ImportSchedules, &src.Schedule)
	oneOf("on_removed", in.OnRemoved, ImportOnRemoved, &src.OnRemoved)
	oneOf("status", in.Status, []string{calendar.StatusDraft, calendar.StatusPending, calendar.StatusPublish, calendar.StatusPrivate}, &src.Status)
	if in.URL != nil {
		u := strings.TrimSpace(*in.URL)
		if strings.HasPrefix(strings.ToLower(u), "webcal://") { // as calendars publish feeds
			u = "https://" + u[len("webcal://"):]
		}
		if reason := checkSourceURL(u); reason != "" {
			bad.Add("url", reason, nil)
		}
		src.URL = u
	}
	if in.File != nil {
		if len(in.File) > MaxImportFileBytes {
			bad.AddTooLong("file", MaxImportFileBytes)
		}
		src.File = in.File
	}
	for _, list := range []struct {
		name string
		v    *[]string
		set  *[]string
	}{{"categories", in.Categories, &src.Categories}, {"tags", in.Tags, &src.Tags}} {
		if list.v == nil {
			continue
		}
		if len(*list.v) > calendar.MaxEventTerms {
			bad.AddTooManyItems(list.name, calendar.MaxEventTerms)
		}
		*list.set = slices.Clone(*list.v)
	}
	if in.Description != nil {
		d := strings.TrimSpace(*in.Description)
		if len(d) > calendar.MaxWebhookDescriptionBytes {
			bad.AddTooLong("description", calendar.MaxWebhookDescriptionBytes)
		} else if strings.ContainsFunc(d, isControl) || !utf8.ValidString(d) {
			bad.Add("description", "description must be text without control characters.", nil)
		}
		src.Description = d
	}
	if in.Author != nil && *in.Author != src.Author {
		author, err := s.store.Users().Get(ctx, *in.Author)
		switch {
		case errors.Is(err, calendar.ErrNotFound):
			bad.Add("author", "author must be the ID of a user.", nil)
		case err != nil:
			return err
		case !author.Can(calendar.CapEditPosts):
			bad.Add("author", "author must be a user who may write events.", nil)
		default:
			src.Author = author.ID
		}
	}
	if in.Active != nil {
		src.Active = *in.Active
	}
	if in.OverwriteLocalEdits != nil {
		src.OverwriteLocalEdits = *in.OverwriteLocalEdits
	}
	return bad.Err()
}

// checkSourceURL is why a URL cannot be a source's ("" when it can): an
// absolute http(s) URL, within its bound. The egress policy decides, at
// each fetch, whether its address may be reached.
func checkSourceURL(raw string) string {
	u, err := url.Parse(raw)
	switch {
	case len(raw) > calendar.MaxURLBytes:
		return fmt.Sprintf("url must be at most %s bytes long.", calendar.Thousands(calendar.MaxURLBytes))
	case err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "":
		return "url must be an absolute http, https or webcal URL."
	}
	return ""
}

// forgetItems removes what a deleted source's items became here (the
// records of the import, not the events).
func (s *Imports) forgetItems(ctx context.Context, source int64) error {
	return s.eachItem(ctx, source, func(it *calendar.ImportItem) error {
		err := s.store.ImportItems().Delete(ctx, it.ID, it.Seq)
		if errors.Is(err, calendar.ErrNotFound) || errors.Is(err, calendar.ErrStale) {
			return nil
		}
		return err
	})
}

// eachItem visits a source's items.
func (s *Imports) eachItem(ctx context.Context, source int64, visit func(*calendar.ImportItem) error) error {
	var after int64
	for {
		page, err := s.store.ImportItems().Scan(ctx, after, importPage)
		if err != nil || len(page) == 0 {
			return err
		}
		for _, it := range page {
			if it.Source == source {
				if err := visit(it); err != nil {
					return err
				}
			}
		}
		after = page[len(page)-1].ID
	}
}

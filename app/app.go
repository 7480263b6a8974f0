// Package app is the domain of the calendar service: its records, the rules
// that govern them (validation, dates, permissions, rendering) and the services
// that coordinate the Store and the Index it declares. It knows nothing of HTTP,
// MongoDB or bleve.
package app

import (
	"context"
	"fmt"
	"time"

	"calendar/app/calendar"
	"calendar/app/throttle"
)

// Settings are the site settings the rules depend on.
type Settings struct {
	// SiteURL is the home URL without a trailing slash.
	SiteURL string
	// SiteName is the site's name as people know it (an iCalendar feed's
	// X-WR-CALNAME); the site URL's host when empty.
	SiteName string
	TimeZone *time.Location
	// PerPage is the default page size of lists.
	PerPage int
	// ResultCacheSize is how many list answers the index cache keeps (0: the
	// default, negative: neither that cache nor the one of rendered events).
	ResultCacheSize int
	// FeedLimit caps the events of one iCalendar feed (0: DefaultFeedLimit),
	// FeedMaxBytes its size (0: DefaultFeedMaxBytes), FeedZoneYears the
	// years of zones it describes (0: DefaultFeedZoneYears).
	FeedLimit     int
	FeedMaxBytes  int
	FeedZoneYears int
	// SearchBudget bounds the time of one index search (0: DefaultSearchBudget).
	SearchBudget time.Duration
	// Throttle limits the guessing of passwords (throttle.DefaultLimits when zero).
	Throttle throttle.Limits
	// MaxUpload bounds an uploaded file in bytes, MaxPixels an image's width
	// times height (DefaultMaxUpload, DefaultMaxPixels when 0).
	MaxUpload, MaxPixels int64
	// UploadMemory is the memory decoding uploads may take at once, and
	// so the most one image may need; UploadsInFlight how many uploads are
	// received at once; UploadWait how long an upload waits for room
	// before a 503; DecodeTime how long one image may take to decode
	// (DefaultUploadMemory... when 0).
	UploadMemory    int64
	UploadsInFlight int
	UploadWait      time.Duration
	DecodeTime      time.Duration
	// SeriesQuota is how many occurrences one account's series writes may
	// make an hour (DefaultSeriesQuota when 0, none when negative).
	SeriesQuota int
	// Languages are those the index stems in (the site's first): a
	// relevance search stems in the one a request's address names, else
	// in the first.
	Languages []string
	// Sideload, when set, fetches foreign image URLs into the media library.
	Sideload Fetcher
	// Webhooks configures subscriptions to the change feed and their delivery.
	Webhooks WebhookSettings
	// Imports configures the import of events from other sources.
	Imports ImportSettings
	// ChangesRetention is how long the change feed keeps the tombstones of
	// deletes (DefaultChangesRetention when 0): a sync from an older point
	// is answered 410 rest_sync_expired.
	ChangesRetention time.Duration
	// Now is the clock (time.Now when nil): tests move it to see series
	// extended as time passes.
	Now func() time.Time
	// OnReindex, when set, hears how a rebuild of the index goes: at each
	// change of its state and after each batch (the service logs it).
	OnReindex func(ReindexStatus)
	// ReindexPace, when set, is called before each batch a rebuild writes
	// (in place or beside the live index), on the rebuild's context: tests
	// hold a rebuild there to act while it runs.
	ReindexPace func(context.Context)
	// FieldsBatch is how many posts a change of the custom field
	// declarations brings in line at a time (0: calendar.MaxFieldReindexBatch;
	// tests make it small to stop a job between batches).
	FieldsBatch int
}

// defaultResultCacheSize bounds the list cache: a few MB of IDs.
const defaultResultCacheSize = 10000

// App holds the services the HTTP layer calls.
type App struct {
	store      calendar.Store
	index      calendar.Index
	settings   Settings
	Users      *Users
	Venues     *LinkedPosts[VenueView]
	Organizers *LinkedPosts[OrganizerView]
	Categories *Terms
	Tags       *Terms
	Events     *Events
	Media      *Media
	Webhooks   *Webhooks
	Synonyms   *Synonyms
	Imports    *Imports
	Fields     *Fields
	sync       *indexSync
	reindex    *reindexer
	items      items
}

// TimeZone is the site's time zone.
func (a *App) TimeZone() *time.Location { return a.settings.TimeZone }

// SiteName is the site's name (the setting, else the site URL's host).
func (a *App) SiteName() string { return a.Events.siteName() }

// New wires the services over a store and an index.
func New(store calendar.Store, index calendar.Index, settings Settings) *App {
	if settings.TimeZone == nil {
		settings.TimeZone = time.UTC
	}
	if settings.PerPage == 0 {
		settings.PerPage = 10
	}
	orDefault(&settings.FeedLimit, DefaultFeedLimit)
	orDefault(&settings.FeedMaxBytes, DefaultFeedMaxBytes)
	orDefault(&settings.FeedZoneYears, DefaultFeedZoneYears)
	orDefault(&settings.MaxUpload, DefaultMaxUpload)
	orDefault(&settings.MaxPixels, DefaultMaxPixels)
	orDefault(&settings.UploadMemory, DefaultUploadMemory)
	orDefault(&settings.UploadsInFlight, DefaultUploadsInFlight)
	orDefault(&settings.UploadWait, DefaultUploadWait)
	orDefault(&settings.DecodeTime, DefaultDecodeTime)
	orDefault(&settings.ChangesRetention, DefaultChangesRetention)
	if settings.SeriesQuota == 0 { // negative: no bound
		settings.SeriesQuota = DefaultSeriesQuota
	}
	throttle := throttle.New(settings.Throttle)
	rebuilds := newReindexer(settings.OnReindex)
	a := &App{store: store, index: index, settings: settings, Users: NewUsers(store, throttle),
		sync: &indexSync{store: store, index: index, rebuilds: rebuilds}, reindex: rebuilds}
	if settings.ResultCacheSize == 0 {
		settings.ResultCacheSize = defaultResultCacheSize
	}
	// What answers requests: nothing while the index is not whole, then
	// answers kept per index generation, then a time budget on the searches
	// that run; writes and syncs are not bounded.
	searched := wholeIndex{Index: newCachedIndex(newBudgetedIndex(index, settings.SearchBudget), max(settings.ResultCacheSize, 0)), rebuilds: rebuilds}
	if settings.Now == nil {
		settings.Now = time.Now
	}
	orDefault(&settings.FieldsBatch, calendar.MaxFieldReindexBatch)
	a.Fields = &Fields{store: store, sync: a.sync, now: settings.Now, batch: settings.FieldsBatch, kicks: make(chan struct{}, 1)}
	a.sync.fields = a.Fields
	posts := postService{store: store, index: searched, settings: settings, now: settings.Now, sync: a.sync, fields: a.Fields,
		views: newViewCache(defaultViewCacheSize), contents: newContentCache(), throttle: throttle, heavy: newHeavySlots()}
	if settings.ResultCacheSize < 0 {
		posts.views = newViewCache(0)
	}
	// Each use case is given what it needs of the others: the media
	// library's images to the writes of posts; how events are edited (a
	// series' occurrences follow) to the services that unlink what they
	// remove. Events is made last, on the services it links, at the address
	// the others were given.
	a.Fields.posts = &posts
	a.Events = &Events{}
	a.Synonyms = newSynonyms(store, settings.Now)
	a.sync.synonyms = a.Synonyms
	editEvent := a.Events.editEvent
	a.Media = &Media{postService: posts, budget: newUploadBudget(settings), editEvent: editEvent}
	a.Venues = &LinkedPosts[VenueView]{postService: posts, kind: venueKind, render: posts.renderVenue, images: a.Media, editEvent: editEvent}
	a.Organizers = &LinkedPosts[OrganizerView]{postService: posts, kind: organizerKind, render: posts.renderOrganizer, images: a.Media, editEvent: editEvent}
	a.Categories = &Terms{store: store, index: searched, posts: posts, kind: categoryKind, editEvent: editEvent}
	a.Tags = &Terms{store: store, index: searched, posts: posts, kind: tagKind, editEvent: editEvent}
	*a.Events = Events{postService: posts, images: a.Media, venues: a.Venues, organizers: a.Organizers, categories: a.Categories, tags: a.Tags,
		quota: newSeriesQuota(settings.SeriesQuota, time.Now, a.Users), synonyms: a.Synonyms}
	a.items = items{events: a.Events, venues: a.Venues, organizers: a.Organizers, media: a.Media,
		terms: map[string]*Terms{calendar.TaxonomyCategory: a.Categories, calendar.TaxonomyTag: a.Tags}}
	a.Webhooks = newWebhooks(store, index, a, settings.Webhooks, settings.Now)
	a.sync.written = a.Webhooks.Written
	a.Imports = newImports(store, a, settings.Imports, settings.Now)
	return a
}

// orDefault sets a setting left at zero (or below) to its default.
func orDefault[T int | int64 | time.Duration](v *T, def T) {
	if *v <= 0 {
		*v = def
	}
}

// Ready reports whether the store and the index answer.
func (a *App) Ready(ctx context.Context) error {
	if err := a.store.Ping(ctx); err != nil {
		return fmt.Errorf("store: %w", err)
	}
	if err := a.index.Ping(ctx); err != nil {
		return fmt.Errorf("index: %w", err)
	}
	return a.rebuildState()
}

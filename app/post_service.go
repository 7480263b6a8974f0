package app

import (
	"context"
	"errors"
	"net/url"
	"runtime"
	"strconv"
	"strings"
	"time"

	"calendar/app/calendar"
	"calendar/app/lru"
	"calendar/app/strtotime"
	"calendar/app/throttle"
	"calendar/app/wordpress"
)

// postService holds the mechanics every post resource (venues, organizers,
// events, attachments) shares: loading by ID or slug, saving to the store
// then the index, slugs, dates, URLs. It holds no other service: what a use
// case needs of another (the media library's images, how events are
// edited) it is given in New.
type postService struct {
	store    calendar.Store
	index    calendar.Index
	settings Settings
	now      func() time.Time
	sync     *indexSync
	// fields are the custom field declarations writes check and answers
	// render (fields.go).
	fields   *Fields
	views    *viewCache
	contents *lru.Cache[contentKey, renderedTexts]
	throttle *throttle.Throttle
	// heavy are the slots of the work that takes a core for long (decoding
	// an image, a series job): one fewer than the machine has, so that
	// readers always have one.
	heavy chan struct{}
}

// newHeavySlots makes the slots of heavy work for this machine.
func newHeavySlots() chan struct{} { return make(chan struct{}, max(1, runtime.GOMAXPROCS(0)-1)) }

// takeHeavy waits for a slot of heavy work, or until ctx ends; release
// gives it back.
func (s *postService) takeHeavy(ctx context.Context) (release func(), err error) {
	select {
	case s.heavy <- struct{}{}:
		return func() { <-s.heavy }, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// PostRef names a post by ID or, when ID is 0, by slug.
type PostRef struct {
	ID   int64
	Slug string
}

// bySlug: a ref names its post by ID when it has one (a path's ID wins over
// a slug sent beside it), by slug otherwise.
func (r PostRef) bySlug() bool { return r.ID == 0 && r.Slug != "" }

// load finds a post of the type; a missing one, or one of another type, is a
// 400 on the parameter that named it, as the plugin's validators answer. By
// slug, another's post the caller may not read is answered as a missing one
// too: a slug is guessed from a title, and a 403 would confirm the guess
// (IDs are counted, so the plugin's 403 by ID tells nothing).
func (s *postService) load(ctx context.Context, actor *calendar.User, postType string, ref PostRef) (*calendar.Post, error) {
	var p *calendar.Post
	var err error
	param := "id"
	switch {
	case ref.bySlug():
		param = "slug"
		p, err = s.store.Posts().FindByKey(ctx, "type_slug", postType+"/"+ref.Slug)
	case ref.ID == 0: // IDs start at 1: the plugin's tests answer /0 with a 404
		return nil, itemErrors.postZero(postType)
	default:
		p, err = s.store.Posts().Get(ctx, ref.ID)
	}
	if errors.Is(err, calendar.ErrNotFound) || (err == nil && p.Type != postType) || (err == nil && ref.bySlug() && !calendar.CanRead(actor, p) && !ownedBy(p, actor)) {
		return nil, itemErrors.byRefNotFound(param)
	}
	return p, err
}

func ownedBy(p *calendar.Post, actor *calendar.User) bool {
	return actor != nil && p.Author == actor.ID
}

// loadReadable is load for a post a caller names as a filter or a link: one
// the caller may not read is answered as a missing one, so its existence is
// not told either.
func (s *postService) loadReadable(ctx context.Context, actor *calendar.User, postType string, id int64) (*calendar.Post, error) {
	p, err := s.load(ctx, actor, postType, PostRef{ID: id})
	if err == nil && !calendar.CanRead(actor, p) {
		return nil, itemErrors.byRefNotFound("id")
	}
	return p, err
}

// insert stores a new post under a unique slug derived from base, then indexes it.
func (s *postService) insert(ctx context.Context, p *calendar.Post, base string) error {
	taken := func(ctx context.Context, slug string) (bool, error) {
		_, err := s.store.Posts().FindByKey(ctx, "type_slug", p.Type+"/"+slug)
		if errors.Is(err, calendar.ErrNotFound) {
			return false, nil
		}
		return err == nil, err
	}
	for from := 1; ; {
		slug, n, err := wordpress.UniqueSlug(ctx, base, from, taken)
		if err != nil {
			return err
		}
		p.Slug = slug
		err = s.insertAs(ctx, p)
		if !errors.Is(err, calendar.ErrConflict) {
			return err
		}
		from = n + 1 // another writer took the slug between the check and the insert
	}
}

// insertAs stores a new post under the slug it has, then indexes it.
func (s *postService) insertAs(ctx context.Context, p *calendar.Post) error {
	return s.sync.writeThrough(calendar.CollectionPosts, p, false, func() error { return s.store.Posts().Insert(ctx, p) },
		func() error { return s.sync.putPosts(ctx, s.index, []*calendar.Post{p}) })
}

// paging is the page asked for, and its size: the site's default when not
// given (the route clamps a larger one to calendar.MaxPerPage).
func (s *postService) paging(p PageRequest) (page, perPage int) {
	page, perPage = max(p.Page, 1), s.settings.PerPage
	if p.PerPage > 0 {
		perPage = p.PerPage
	}
	return page, perPage
}

// Page is one page of a list, with what the HTTP layer needs for its links.
type Page[V any] struct {
	Items      []V
	Page       int
	PerPage    int
	Total      int
	TotalPages int
	// Facets are the counts asked for with facets= (nil when not asked).
	Facets []Facet
	// Grid is the map's clusters asked for with facets=geo_grid.
	Grid *GeoGrid
	// Days are the matches per day asked for with facets=days.
	Days []DayCount
}

func newPage[V any](items []V, page, perPage, total int) *Page[V] {
	return &Page[V]{Items: items, Page: page, PerPage: perPage, Total: total, TotalPages: (total + perPage - 1) / perPage}
}

// formatLocal and formatUTC write a stored instant as the API shows dates.
func (s *postService) formatLocal(t time.Time) string {
	return t.In(s.settings.TimeZone).Format(DateFormat)
}
func formatUTC(t time.Time) string { return t.UTC().Format(DateFormat) }

// globalID is the plugin's site-independent identifier: host and path of the
// home URL, without scheme or port, then ?id=N.
func (s *postService) globalID(id int64) string {
	u, err := url.Parse(s.settings.SiteURL)
	if err != nil {
		return ""
	}
	return u.Hostname() + strings.TrimSuffix(u.Path, "/") + "?id=" + itoa(id)
}

// home is the home URL the caller's links start with: the site's, with the
// language segment the request came in with.
func (s *postService) home(caller Caller) string {
	if caller.Site != "" {
		return caller.Site
	}
	return s.settings.SiteURL
}

// permalink is the public URL of a published post, or its plain link
// otherwise, under home.
func permalink(p *calendar.Post, home string) string {
	if p.Status == calendar.StatusPublish {
		return home + "/" + p.Type + "/" + p.Slug + "/"
	}
	return home + "/?post_type=" + wordpressPostType[p.Type] + "&p=" + itoa(p.ID)
}

// wordpressPostType is each post type's name in WordPress, which plain links
// (an unpublished post's) carry; pretty permalinks use the short rewrite slug.
var wordpressPostType = map[string]string{
	calendar.PostTypeEvent: "tribe_events", calendar.PostTypeVenue: "tribe_venue",
	calendar.PostTypeOrganizer: "tribe_organizer", calendar.PostTypeAttachment: "attachment",
}

// errInTrash is the plugin's 410 for deleting what is already in the trash.
func errInTrash(kind string) *calendar.Error {
	return calendar.NewError(calendar.KindGone, kind+"-is-in-trash", "The "+kind+" is already trashed")
}

// Deleted is the answer to a permanent delete.
type Deleted[V any] struct {
	Deleted  bool `json:"deleted"`
	Previous V    `json:"previous"`
}

// Removal is what a delete of a post that has a trash (an event, a venue,
// an organizer) did: it moved the post to the trash (Trashed, the post as it
// is there), or, with force, deleted it for good (ForGood, not nil).
type Removal[V any] struct {
	Trashed V
	ForGood *Deleted[V]
}

// eventEditor edits an event as events are edited (Events.editEvent: a
// series' occurrences follow it). The services that change the events
// linking what they remove are given it in New.
type eventEditor func(ctx context.Context, p *calendar.Post, w postWrite, change func(*calendar.Post) error) error

// forEachPost changes every post (any status) that where selects, events
// unless it sets another type ("" for every type): it finds them all through
// the index first, then edits each (an event with editEvent, so a series'
// occurrences follow). change runs on each post as stored, again after a
// lost race: it must check that the post still is one it changes
// (errUnchanged otherwise). Used to unlink a removed venue, organizer, term
// or image, and to move events with their venue.
func (s *postService) forEachPost(ctx context.Context, editEvent eventEditor, where func(*calendar.PostQuery), change func(*calendar.Post) error) error {
	q := calendar.PostQuery{Type: calendar.PostTypeEvent}
	where(&q)
	posts, err := s.findPosts(ctx, q)
	for _, p := range posts {
		edit := s.edit
		if p.Type == calendar.PostTypeEvent {
			edit = editEvent
		}
		if err := ignoreMissing(edit(ctx, p, postWrite{}, change)); err != nil {
			return err
		}
	}
	return err
}

// findPosts loads every post q selects, whatever its status and whoever
// wrote it unless q says otherwise, found through the index.
func (s *postService) findPosts(ctx context.Context, q calendar.PostQuery) ([]*calendar.Post, error) {
	if q.Statuses == nil {
		q.Statuses = calendar.PostStatuses
	}
	q.Reader, q.Offset, q.Limit = calendar.ReadEverything, 0, 1000
	var ids []int64
	for {
		found, err := s.index.SearchPosts(ctx, q)
		if err != nil {
			return nil, err
		}
		ids = append(ids, found.IDs...)
		if len(found.IDs) < q.Limit {
			break
		}
		q.Offset += q.Limit
	}
	var posts []*calendar.Post
	for start := 0; start < len(ids); start += 500 {
		batch, err := s.store.Posts().GetMany(ctx, ids[start:min(start+500, len(ids))])
		if err != nil {
			return nil, err
		}
		posts = append(posts, batch...)
	}
	return posts, nil
}

func withoutID(ids []int64, id int64) []int64 {
	out := ids[:0:0]
	for _, x := range ids {
		if x != id {
			out = append(out, x)
		}
	}
	return out
}

// postFields are the write fields every post resource takes; nil pointers were
// not sent.
type postFields struct {
	title, description, excerpt, password *string
	image                                 *imageChoice
	status                                string
	author                                int64
	// date and dateUTC are the instants date and date_utc name: WordPress'
	// post_date (in the site's zone) and post_date_gmt, each as sent.
	date, dateUTC *time.Time
	// custom are the custom field values sent, checked (a nil one clears
	// its field).
	custom map[string][]string
}

// checkPostFields checks the common fields: the name under titleParam (venue,
// organizer or title), the bounds of each text, then the HTML of the name,
// description and excerpt through the writer's filter, the image (read by images),
// the author, and the publication dates: date read in loc (an event's zone)
// and its wall time there taken as the site's, as the plugin writes
// post_date; date_utc in UTC.
func (s *postService) checkPostFields(ctx context.Context, in PostFields, titleParam string, loc *time.Location, images postImages, html htmlFilter, bad *calendar.InvalidParams) postFields {
	checkLengths(bad, map[string]*string{titleParam: in.Title, "description": in.Description, "excerpt": in.Excerpt,
		"password": in.Password, "image": in.Image, "date": in.Date, "date_utc": in.DateUTC})
	f := postFields{description: html.post(in.Description), excerpt: html.post(in.Excerpt), password: in.Password, status: in.Status}
	if in.Title != nil {
		title := strings.TrimSpace(*html.title(in.Title))
		if title == "" {
			bad.Add(titleParam, titleParam+" must not be empty.", nil)
		}
		f.title = &title
	}
	if in.Image != nil {
		f.image = images.checkImage(ctx, *in.Image, bad)
	}
	if in.Author != nil {
		if _, err := s.store.Users().Get(ctx, *in.Author); err != nil {
			bad.Add("author", "author must be the ID of an existing user.", nil)
		}
		f.author = *in.Author
	}
	for _, d := range []struct {
		name string
		raw  *string
		zone *time.Location
		dst  **time.Time
	}{{"date", in.Date, loc, &f.date}, {"date_utc", in.DateUTC, time.UTC, &f.dateUTC}} {
		if d.raw == nil {
			continue
		}
		t, err := strtotime.Parse(*d.raw, s.now(), d.zone)
		if err != nil {
			bad.Add(d.name, d.name+" is not a date.", nil)
			continue
		}
		if d.zone != time.UTC { // the wall time in the post's zone is the site's
			l := t.In(d.zone)
			t = time.Date(l.Year(), l.Month(), l.Day(), l.Hour(), l.Minute(), l.Second(), 0, s.settings.TimeZone)
		}
		t = t.UTC().Truncate(time.Second)
		*d.dst = &t
	}
	return f
}

// applyPostFields writes the sent common fields onto p; an empty string
// clears one.
func (f *postFields) applyPostFields(p *calendar.Post) {
	for dst, src := range map[*string]*string{&p.Title: f.title, &p.Content: f.description, &p.Excerpt: f.excerpt, &p.Password: f.password} {
		if src != nil {
			*dst = *src
		}
	}
	if f.image != nil {
		f.image.applyImage(p)
	}
	applyCustomValues(p, f.custom)
	if f.author != 0 {
		p.Author = f.author
	}
	// A write that sends a date sets both: date_utc is its own value when
	// sent with date (and unlike it), else the one sent stands for both.
	switch {
	case f.date != nil && f.dateUTC != nil && !f.dateUTC.Equal(*f.date):
		p.Date, p.DateUTC = *f.date, f.dateUTC
	case f.date != nil:
		p.Date, p.DateUTC = *f.date, nil
	case f.dateUTC != nil:
		p.Date, p.DateUTC = *f.dateUTC, nil
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

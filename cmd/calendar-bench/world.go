package main

import (
	"context"
	"flag"
	"fmt"
	"math"
	"math/rand"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"calendar/app"
	"calendar/app/calendar"
	"calendar/repository/bolt"
)

var words = strings.Fields(`jazz rock blues folk opera ballet theatre cinema comedy poetry lecture workshop
market fair festival concert recital exhibition gallery tour tasting dinner brunch picnic parade
marathon yoga dance salsa tango choir orchestra quartet trio piano guitar violin drums vinyl
science history art design photo craft garden wine beer coffee cheese bread chocolate vegan
family kids night morning summer winter spring autumn open free charity community local city
river park square hall club cellar rooftop harbour castle museum library school church barn`)

var cities = [][2]float64{{45.764, 4.8357}, {48.8566, 2.3522}, {51.5074, -0.1278}, {40.7128, -74.006}, {52.52, 13.405}}

// world is the seeded data and the queries run against it.
type world struct {
	rng                                  *rand.Rand
	venues, organizers, categories, tags []int64
	categorySlugs                        []string
	events                               []int64
	// series are the published series whose last occurrence starts after
	// the world is made (the default list window holds some of them), for
	// the post_parent queries; seriesCount is every series made.
	series      []int64
	seriesCount int
}

// A seeded series: weekly, the series itself and 19 further occurrences.
const (
	seriesRule        = "RRULE:FREQ=WEEKLY;COUNT=20"
	seriesOccurrences = 20
)

// layout is how the n events split: plain events first, then the series,
// each followed by its further occurrences (IDs in the order the service
// gives them: the series, then its occurrences as it makes them).
func layout(n int, recurring float64) (plain, series int) {
	series = int(math.Round(recurring * float64(n) / seriesOccurrences))
	return n - series*seriesOccurrences, series
}

// newWorld seeds the store in bulk mode, with a fixed seed so every run
// measures the same data. A store seeded by an earlier run (-dir) is reused:
// the same generation is replayed without writing, and gives the IDs the store
// gave (1, 2, 3... per collection), without reading the store back.
func newWorld(ctx context.Context, store *bolt.Store, n int, recurring float64) (*world, error) {
	// Whether and how the store was seeded is read off its first posts after
	// the last one this n would make, not counted: counting reads every page
	// of the store, which then stays in the server's resident memory.
	first, err := store.Posts().Scan(ctx, 0, 1)
	if err != nil {
		return nil, err
	}
	if len(first) > 0 {
		last := int64(n + venueCount + organizerCount)
		beyond, err := store.Posts().Scan(ctx, last-1, 2)
		if err != nil {
			return nil, err
		}
		if len(beyond) != 1 || beyond[0].ID != last {
			return nil, fmt.Errorf("the directory was seeded with another -n than %d", n)
		}
		if err := checkRecurring(ctx, store, n, recurring); err != nil {
			return nil, err
		}
		var terms, posts int64
		w, err := generate(n, recurring, func(t *calendar.Term) error { terms++; t.ID = terms; return nil },
			func(p *calendar.Post) error { posts++; p.ID = posts; return nil }, func(*calendar.Post) error { return nil })
		if err == nil {
			fmt.Printf("reusing the %d events (%d series) seeded by an earlier run\n", n, w.seriesCount)
		}
		return w, err
	}
	if err := store.BulkLoad(true); err != nil {
		return nil, err
	}
	defer store.BulkLoad(false)
	start := time.Now()
	w, err := generate(n, recurring, func(t *calendar.Term) error { return store.Terms().Insert(ctx, t) },
		func(p *calendar.Post) error { return store.Posts().Insert(ctx, p) },
		func(p *calendar.Post) error { return store.Posts().Update(ctx, p) })
	if err != nil {
		return nil, err
	}
	fmt.Printf("seeded %d events (%d series of %d) into the store in %v\n", n, w.seriesCount, seriesOccurrences,
		time.Since(start).Round(time.Millisecond))
	if *customFields {
		return w, store.Fields().Insert(ctx, benchFields())
	}
	return w, nil
}

// checkRecurring refuses a store seeded with another -recurring: the post
// where this fraction's first series would be must be one (and the post
// before it a plain event), or, with no series, the last post must be a
// plain event.
func checkRecurring(ctx context.Context, store *bolt.Store, n int, recurring float64) error {
	plain, series := layout(n, recurring)
	base := int64(venueCount + organizerCount)
	plainEvent := func(id int64) (bool, error) {
		p, err := store.Posts().Get(ctx, id)
		if err != nil {
			return false, err
		}
		return p.Parent == 0 && len(p.Recurrence) == 0, nil
	}
	var ok bool
	var err error
	if series == 0 {
		ok, err = plainEvent(base + int64(n))
	} else {
		var first *calendar.Post
		if first, err = store.Posts().Get(ctx, base+int64(plain)+1); err == nil && len(first.Recurrence) > 0 {
			ok, err = plainEvent(base + int64(plain))
		}
	}
	if err != nil {
		return err
	}
	if !ok {
		return fmt.Errorf("the directory was seeded with another -recurring than %v", recurring)
	}
	return nil
}

const venueCount, organizerCount = 200, 50

// generate makes the world, handing every term and post to the insert
// functions, which give them their IDs, and a series to updatePost once its
// occurrences are made (as the service records how far they go).
func generate(n int, recurring float64, insertTerm func(*calendar.Term) error, insertPost, updatePost func(*calendar.Post) error) (*world, error) {
	w := &world{rng: rand.New(rand.NewSource(1))}
	start := time.Now()
	for i := 0; i < 30; i++ {
		t := &calendar.Term{Taxonomy: calendar.TaxonomyCategory, Name: fmt.Sprintf("Category %d", i), Slug: fmt.Sprintf("category-%d", i)}
		if err := insertTerm(t); err != nil {
			return nil, err
		}
		w.categories, w.categorySlugs = append(w.categories, t.ID), append(w.categorySlugs, t.Slug)
	}
	for i := 0; i < 100; i++ {
		t := &calendar.Term{Taxonomy: calendar.TaxonomyTag, Name: fmt.Sprintf("Tag %d", i), Slug: fmt.Sprintf("tag-%d", i)}
		if err := insertTerm(t); err != nil {
			return nil, err
		}
		w.tags = append(w.tags, t.ID)
	}
	now := time.Now().UTC().Truncate(time.Second)
	post := func(typ string, i int, title string) *calendar.Post {
		return &calendar.Post{Type: typ, Slug: fmt.Sprintf("%s-%d", typ, i), Status: calendar.StatusPublish, Author: 1, Title: title, Date: now, Modified: now}
	}
	for i := 0; i < venueCount; i++ {
		c := cities[i%len(cities)]
		p := post(calendar.PostTypeVenue, i, "Venue "+w.word()+" "+w.word())
		p.Geo = &calendar.Geo{Lat: c[0] + w.rng.Float64()*0.4 - 0.2, Lng: c[1] + w.rng.Float64()*0.4 - 0.2, Source: calendar.GeoExact}
		if err := insertPost(p); err != nil {
			return nil, err
		}
		w.venues = append(w.venues, p.ID)
	}
	for i := 0; i < organizerCount; i++ {
		p := post(calendar.PostTypeOrganizer, i, "Organizer "+w.word())
		if err := insertPost(p); err != nil {
			return nil, err
		}
		w.organizers = append(w.organizers, p.ID)
	}
	first := time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC)
	crng := rand.New(rand.NewSource(6)) // a generator of its own: the world is the same with and without custom fields
	plain, seriesCount := layout(n, recurring)
	w.seriesCount = seriesCount
	made := 0
	progress := func() {
		if made++; made%100000 == 0 {
			fmt.Printf("%d events (%.0f/s)\n", made, float64(made)/time.Since(start).Seconds())
		}
	}
	// event is a plain event or a series, its start within the three years
	// less span (a series' occurrences all fall within them).
	event := func(i int, span time.Duration) *calendar.Post {
		p := post(calendar.PostTypeEvent, i, capitalize(w.word()+" "+w.word()+" "+w.word()))
		p.Content = w.sentence(20)
		p.Start = first.Add(time.Duration(w.rng.Int63n(int64(3*365*24*time.Hour - span)))).Truncate(15 * time.Minute)
		p.End = p.Start.Add(time.Duration(1+w.rng.Intn(4)) * time.Hour)
		p.TimeZone = "UTC"
		v := w.rng.Intn(len(w.venues))
		p.Venue = w.venues[v] // placed by the index build, from the venue
		p.Organizers = []int64{w.organizers[w.rng.Intn(len(w.organizers))]}
		p.Categories = []int64{w.categories[w.rng.Intn(len(w.categories))]}
		p.Tags = []int64{w.tags[w.rng.Intn(len(w.tags))], w.tags[w.rng.Intn(len(w.tags))]}
		p.Featured = w.rng.Intn(10) == 0
		if w.rng.Intn(10) == 0 {
			p.Status = calendar.StatusDraft
		}
		if *customFields {
			p.Custom = map[string][]string{"age_min": {strconv.Itoa(crng.Intn(22))}, "language": {benchLanguages[crng.Intn(len(benchLanguages))]}}
		}
		return p
	}
	insertEvent := func(p *calendar.Post) error {
		if err := insertPost(p); err != nil {
			return err
		}
		if p.Status == calendar.StatusPublish {
			w.events = append(w.events, p.ID)
		}
		progress()
		return nil
	}
	for i := 0; i < plain; i++ {
		if err := insertEvent(event(i, 0)); err != nil {
			return nil, err
		}
	}
	const week = 7 * 24 * time.Hour
	for s := 0; s < seriesCount; s++ {
		series := event(plain+s*seriesOccurrences, (seriesOccurrences-1)*week)
		series.Recurrence = []string{seriesRule}
		if err := insertEvent(series); err != nil {
			return nil, err
		}
		for k := 1; k < seriesOccurrences; k++ {
			if err := insertEvent(occurrence(series, series.Start.Add(time.Duration(k)*week))); err != nil {
				return nil, err
			}
		}
		series.MaterializedUntil = time.Now().Add(app.SeriesHorizon).UTC().Truncate(time.Second)
		if err := updatePost(series); err != nil {
			return nil, err
		}
		if series.Status == calendar.StatusPublish && series.Start.Add((seriesOccurrences-1)*week).After(time.Now()) {
			w.series = append(w.series, series.ID)
		}
	}
	return w, nil
}

// occurrence is the series' occurrence at t as the service makes it
// (app.Events.occurrenceAt and insertOccurrence, for a series in UTC): a
// copy of the series moved to t, without its rules, Parent the series,
// Occurrence its start, slug <series slug>-<yyyy-mm-dd>.
func occurrence(series *calendar.Post, t time.Time) *calendar.Post {
	o := *series
	o.ID, o.Seq, o.CreatedSeq = 0, 0, 0
	o.Slug = series.Slug + "-" + t.UTC().Format("2006-01-02")
	o.Recurrence, o.Excluded, o.MaterializedUntil = nil, nil, time.Time{}
	o.Parent, o.Occurrence, o.Detached = series.ID, t.UTC(), false
	o.Categories, o.Tags, o.Organizers = slices.Clone(series.Categories), slices.Clone(series.Tags), slices.Clone(series.Organizers)
	o.Cost = slices.Clone(series.Cost)
	o.Start, o.End = t.UTC(), t.Add(series.End.Sub(series.Start)).UTC()
	return &o
}

func capitalize(s string) string { return strings.ToUpper(s[:1]) + s[1:] }

func (w *world) word() string { return words[w.rng.Intn(len(words))] }

func (w *world) sentence(n int) string {
	parts := make([]string, n)
	for i := range parts {
		parts[i] = w.word()
	}
	return strings.Join(parts, " ")
}

type queryKind struct {
	name  string
	paths []string
}

// searchMix adds the kinds of a search page's front-end to the mix: the
// relevance search, two words, a search with its sidebar's facets filtered on
// one of them, and the relevance search with highlights (a build without
// highlights ignores the parameter, so the difference is their cost).
var searchMix = flag.Bool("searchmix", false, "add a search page's queries to the mix: relevance, two words, search with facets, relevance with highlights")

// searchUIMix adds the kinds of a calendar's search UI: a date-ordered
// search with a typo (one letter doubled), a facet search, a month grid's
// per-day counts and a suggestion.
var searchUIMix = flag.Bool("searchui", false, "add a calendar UI's queries to the mix: a date-ordered search with a typo, a facet search, facets=days over a month, a suggestion")

// misspelt is word with one of its letters doubled: one typo away.
func misspelt(word string, rng *rand.Rand) string {
	k := 1 + rng.Intn(len(word)-1)
	return word[:k] + word[k-1:k] + word[k:]
}

// mix is the fixed query mix of the issue, 50 variants of each kind.
func (w *world) mix() []queryKind {
	rng := rand.New(rand.NewSource(2))
	window := func() string {
		from := time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC).AddDate(0, rng.Intn(34), 0)
		return fmt.Sprintf("start_date=%s&end_date=%s", from.Format("2006-01-02"), from.AddDate(0, 0, 60).Format("2006-01-02"))
	}
	kinds := []queryKind{{name: "default list"}, {name: "date window (60 days)"}, {name: "search + window"},
		{name: "category + window"}, {name: "venue"}, {name: "near me (10 km)"}, {name: "page 5 of a broad query"}}
	for i := 0; i < 50; i++ {
		c := cities[rng.Intn(len(cities))]
		kinds[0].paths = append(kinds[0].paths, "/vendor/events/v1/events")
		kinds[1].paths = append(kinds[1].paths, "/vendor/events/v1/events?"+window())
		kinds[2].paths = append(kinds[2].paths, "/vendor/events/v1/events?search="+url.QueryEscape(words[rng.Intn(len(words))])+"&"+window())
		kinds[3].paths = append(kinds[3].paths, "/vendor/events/v1/events?categories="+w.categorySlugs[rng.Intn(len(w.categorySlugs))]+"&"+window())
		kinds[4].paths = append(kinds[4].paths, fmt.Sprintf("/vendor/events/v1/events?venue=%d", w.venues[rng.Intn(len(w.venues))]))
		kinds[5].paths = append(kinds[5].paths, fmt.Sprintf("/vendor/events/v1/events?geoloc_lat=%v&geoloc_lng=%v&geoloc_radius=10&geoloc_unit=km", c[0], c[1]))
		kinds[6].paths = append(kinds[6].paths, "/vendor/events/v1/events?page=5&start_date=2025-06-01&end_date=2028-06-01")
	}
	if *searchMix { // a generator of its own: the kinds above stay the same
		search := []queryKind{{name: "relevance search"}, {name: "two words + window"}, {name: "search + facets, filtered"}, {name: "relevance + highlight"}}
		srng := rand.New(rand.NewSource(4))
		word := func() string { return url.QueryEscape(words[srng.Intn(len(words))]) }
		for i := 0; i < 50; i++ {
			search[0].paths = append(search[0].paths, "/vendor/events/v1/events?orderby=relevance&search="+word())
			search[1].paths = append(search[1].paths, "/vendor/events/v1/events?search="+word()+"+"+word()+"&"+window())
			search[2].paths = append(search[2].paths, "/vendor/events/v1/events?search="+word()+"&facets=categories,venue,featured&categories="+w.categorySlugs[srng.Intn(len(w.categorySlugs))])
			search[3].paths = append(search[3].paths, "/vendor/events/v1/events?orderby=relevance&highlight=true&search="+word())
		}
		kinds = append(kinds, search...)
	}
	if *searchUIMix { // a generator of its own: the kinds above stay the same
		ui := []queryKind{{name: "date-ordered search with a typo + window"}, {name: "facet search (venue, 3 letters)"},
			{name: "facets=days over a month"}, {name: "a suggestion (3 letters)"}}
		urng := rand.New(rand.NewSource(6))
		for i := 0; i < 50; i++ {
			typo := misspelt(words[urng.Intn(len(words))], urng)
			ui[0].paths = append(ui[0].paths, "/vendor/events/v1/events?search="+url.QueryEscape(typo)+"&"+window())
			ui[1].paths = append(ui[1].paths, "/vendor/events/v1/events/facets/venue?q="+url.QueryEscape(words[urng.Intn(len(words))][:3]))
			month := time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC).AddDate(0, urng.Intn(34), 0)
			ui[2].paths = append(ui[2].paths, fmt.Sprintf("/vendor/events/v1/events?facets=days&start_date=%s&end_date=%s",
				month.Format("2006-01-02"), month.AddDate(0, 1, -1).Format("2006-01-02")))
			ui[3].paths = append(ui[3].paths, "/vendor/events/v1/suggest?q="+url.QueryEscape(words[urng.Intn(len(words))][:3]))
		}
		kinds = append(kinds, ui...)
	}
	if len(w.series) > 0 { // a generator of its own: the kinds above stay the same with and without series
		series := queryKind{name: "a series' occurrences (post_parent)"}
		srng := rand.New(rand.NewSource(3))
		for i := 0; i < 50; i++ {
			series.paths = append(series.paths, fmt.Sprintf("/vendor/events/v1/events?post_parent=%d", w.series[srng.Intn(len(w.series))]))
		}
		kinds = append(kinds, series)
		// The same 60-day windows, every occurrence and each series once
		// (a series of 20 weekly occurrences has 8 or 9 in a window).
		every, once := queryKind{name: "window, every occurrence"}, queryKind{name: "window, each series once (hide_subsequent_recurrences)"}
		orng := rand.New(rand.NewSource(5))
		for i := 0; i < 50; i++ {
			from := time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC).AddDate(0, orng.Intn(34), 0)
			q := fmt.Sprintf("/vendor/events/v1/events?start_date=%s&end_date=%s", from.Format("2006-01-02"), from.AddDate(0, 0, 60).Format("2006-01-02"))
			every.paths = append(every.paths, q)
			once.paths = append(once.paths, q+"&hide_subsequent_recurrences=true")
		}
		kinds = append(kinds, every, once, queryKind{name: "default list, each series once", paths: []string{"/vendor/events/v1/events?hide_subsequent_recurrences=true"}})
	}
	if *customFields { // a generator of its own: the kinds above stay the same
		one, some, ranged, facet := queryKind{name: "custom field, one value (cf[language]=x)"}, queryKind{name: "custom field, two values + window"},
			queryKind{name: "custom field, number range + window (cf[age_min][gte])"}, queryKind{name: "custom field, facet + window (facets=cf.language)"}
		frng := rand.New(rand.NewSource(7))
		language := func() string { return benchLanguages[frng.Intn(len(benchLanguages))] }
		for i := 0; i < 50; i++ {
			one.paths = append(one.paths, "/vendor/events/v1/events?cf%5Blanguage%5D="+language())
			some.paths = append(some.paths, "/vendor/events/v1/events?cf%5Blanguage%5D="+language()+","+language()+"&"+window())
			ranged.paths = append(ranged.paths, fmt.Sprintf("/vendor/events/v1/events?cf%%5Bage_min%%5D%%5Bgte%%5D=%d&%s", 12+frng.Intn(10), window()))
			facet.paths = append(facet.paths, "/vendor/events/v1/events?facets=cf.language&"+window())
		}
		kinds = append(kinds, one, some, ranged, facet)
	}
	if *only != "" {
		kinds = slices.DeleteFunc(kinds, func(k queryKind) bool { return !strings.Contains(k.name, *only) })
	}
	return kinds
}

// customFields gives every event two custom fields, declared public and
// filterable, and adds their kinds to the mix.
var customFields = flag.Bool("customfields", false, "give every event two custom fields (age_min, a number from 0 to 21; language, one of 5) declared public and filterable, and add the custom field kinds to the mix (seed a fresh -dir)")

var benchLanguages = []string{"en", "fr", "de", "es", "it"}

// benchFields are the declarations of -customfields.
func benchFields() *calendar.FieldSet {
	now := time.Now().UTC().Truncate(time.Second)
	return &calendar.FieldSet{Name: calendar.FieldSetName, Modified: now, Fields: []calendar.FieldDeclaration{
		{Key: "age_min", Label: "Minimum age", Type: calendar.FieldNumber, Public: true, Filterable: true, PostTypes: []string{calendar.PostTypeEvent}, Created: now, Modified: now},
		{Key: "language", Label: "Language", Type: calendar.FieldSelect, Options: benchLanguages, Public: true, Filterable: true, PostTypes: []string{calendar.PostTypeEvent}, Created: now, Modified: now},
	}}
}

// only keeps the kinds whose name holds it, and leaves out the runs of the
// whole mix, single reads and the ceiling: a short run of a few kinds.
var only = flag.String("only", "", "measure only the query kinds whose name contains this (no mix, single reads or ceiling runs)")

// singles are single-event reads.
func (w *world) singles() []string {
	var out []string
	for i := 0; i < 200; i++ {
		out = append(out, fmt.Sprintf("/vendor/events/v1/events/%d", w.events[w.rng.Intn(len(w.events))]))
	}
	return out
}

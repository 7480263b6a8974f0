package app

import (
	"cmp"
	"context"
	"encoding/json"
	"slices"
	"time"

	"calendar/app/calendar"
)

// DateFormat is how the API writes dates: local or UTC wall time to the second.
const DateFormat = "2006-01-02 15:04:05"

// EventView is the event object, keys in the plugin's order.
type EventView struct {
	ID                  int64           `json:"id"`
	GlobalID            string          `json:"global_id"`
	GlobalIDLineage     []string        `json:"global_id_lineage"`
	Author              string          `json:"author"`
	Status              string          `json:"status"`
	Date                string          `json:"date"`
	DateUTC             string          `json:"date_utc"`
	Modified            string          `json:"modified"`
	ModifiedUTC         string          `json:"modified_utc"`
	URL                 string          `json:"url"`
	RestURL             string          `json:"rest_url"`
	Title               string          `json:"title"`
	Description         string          `json:"description"`
	Excerpt             string          `json:"excerpt"`
	Slug                string          `json:"slug"`
	Image               any             `json:"image"` // false or ImageView
	AllDay              *bool           `json:"all_day"`
	StartDate           string          `json:"start_date"`
	StartDateDetails    DateDetails     `json:"start_date_details"`
	EndDate             string          `json:"end_date"`
	EndDateDetails      DateDetails     `json:"end_date_details"`
	UTCStartDate        string          `json:"utc_start_date"`
	UTCStartDateDetails DateDetails     `json:"utc_start_date_details"`
	UTCEndDate          string          `json:"utc_end_date"`
	UTCEndDateDetails   DateDetails     `json:"utc_end_date_details"`
	TimeZone            string          `json:"timezone"`
	TimeZoneAbbr        string          `json:"timezone_abbr"`
	Cost                string          `json:"cost"`
	CostDetails         CostDetails     `json:"cost_details"`
	Website             string          `json:"website"`
	ShowMap             *bool           `json:"show_map"`
	ShowMapLink         *bool           `json:"show_map_link"`
	HideFromListings    *bool           `json:"hide_from_listings"`
	Sticky              *bool           `json:"sticky"`
	Featured            *bool           `json:"featured"`
	Categories          []EventTerm     `json:"categories"`
	Tags                []EventTerm     `json:"tags"`
	Venue               any             `json:"venue"` // one VenueView, or [] when none
	Organizer           []OrganizerView `json:"organizer"`
	CustomFields        any             `json:"custom_fields"`
	// Whether and how the event takes place, by the names of the plugin's
	// Event Status and Virtual Events features (event_status.go):
	// previous_start_date is a rescheduled event's start before it moved
	// ("" otherwise), online_url the link to join ("" when none).
	EventStatus       string `json:"event_status"`
	EventStatusReason string `json:"event_status_reason"`
	PreviousStartDate string `json:"previous_start_date"`
	AttendanceMode    string `json:"attendance_mode"`
	OnlineURL         string `json:"online_url"`
	// CalendarLinks are what an "add to calendar" button opens.
	CalendarLinks *CalendarLinks  `json:"calendar_links,omitempty"`
	JSONLD        json.RawMessage `json:"json_ld,omitempty"`
	// Distance from the point of a "near me" list, in its unit.
	Distance *float64 `json:"distance,omitempty"`
	// Highlight is there when a list with a search asks for it (highlight=true).
	Highlight *EventHighlight `json:"highlight,omitempty"`
	// Recurrence is a series' rules; PostParent an occurrence's series.
	Recurrence []string `json:"recurrence,omitempty"`
	PostParent int64    `json:"post_parent,omitempty"`
	// RecurrenceSummary is on every event of a series the caller may read:
	// the series' rules in words and its dates to come.
	RecurrenceSummary *RecurrenceSummary `json:"recurrence_summary,omitempty"`
	modifiedAt        time.Time
	revision          int64
}

// DateDetails are a date's parts as zero-padded strings.
type DateDetails struct {
	Year    string `json:"year"`
	Month   string `json:"month"`
	Day     string `json:"day"`
	Hour    string `json:"hour"`
	Minutes string `json:"minutes"`
	Seconds string `json:"seconds"`
}

// CostDetails are the parts of an event's cost.
type CostDetails struct {
	CurrencySymbol   string   `json:"currency_symbol"`
	CurrencyCode     string   `json:"currency_code"`
	CurrencyPosition string   `json:"currency_position"`
	Values           []string `json:"values"`
}

// EventTerm is a term as an event embeds it (WordPress' raw term keys).
type EventTerm struct {
	Name           string   `json:"name"`
	Slug           string   `json:"slug"`
	TermGroup      int      `json:"term_group"`
	TermTaxonomyID int64    `json:"term_taxonomy_id"`
	Taxonomy       string   `json:"taxonomy"`
	Description    string   `json:"description"`
	Parent         int64    `json:"parent"`
	Count          int      `json:"count"`
	Filter         string   `json:"filter"`
	ID             int64    `json:"id"`
	URLs           TermURLs `json:"urls"`
}

func details(t time.Time) DateDetails {
	f := t.Format("2006 01 02 15 04 05")
	return DateDetails{f[0:4], f[5:7], f[8:10], f[11:13], f[14:16], f[17:19]}
}

// render turns a page of events into objects, loading their venues and
// organizers in one store query and their terms in another. single adds
// json_ld; password is the one the caller sent, which unmasks the posts it
// protects.
func (s *Events) render(ctx context.Context, caller Caller, events []*calendar.Post, password string, single bool) ([]EventView, error) {
	root, home := caller.Root, s.home(caller)
	gen := s.index.Generation() // before reading what the views embed
	out := make([]EventView, len(events))
	var missing []int
	for i, e := range events {
		view, ok := s.views.get(viewKey{e.ID, e.Seq, single, root}, gen)
		if !ok {
			missing = append(missing, i)
		}
		out[i] = view
	}
	if err := s.renderMissing(ctx, events, missing, out, single, root, home, gen); err != nil {
		return nil, err
	}
	for i, e := range events {
		s.showTo(caller, &out[i], e, password)
	}
	if err := s.addCustomFields(ctx, caller, events, out, password); err != nil {
		return nil, err
	}
	return out, s.addSummaries(ctx, caller, events, out, password)
}

// addSummaries gives each event of a series that its caller is shown its
// series' recurrence_summary, worked out once per series and answer (it
// depends on the time, so it is not kept with the views); the series of
// occurrences listed without it are read in one query, and an occurrence
// whose series the caller may not read has none.
func (s *Events) addSummaries(ctx context.Context, caller Caller, events []*calendar.Post, views []EventView, password string) error {
	series := map[int64]*calendar.Post{}
	for _, e := range events {
		if e.Parent == 0 && isSeries(e) {
			series[e.ID] = e
		}
	}
	var missing []int64
	for _, e := range events {
		if e.Parent != 0 && series[e.Parent] == nil && !slices.Contains(missing, e.Parent) {
			missing = append(missing, e.Parent)
		}
	}
	if len(missing) > 0 {
		parents, err := s.store.Posts().GetMany(ctx, missing)
		if err != nil {
			return err
		}
		for _, p := range parents {
			if p.Type == calendar.PostTypeEvent && p.Parent == 0 && isSeries(p) && p.Status != calendar.StatusTrash && calendar.CanRead(caller.User, p) {
				series[p.ID] = p
			}
		}
	}
	budget, summaries := newSummaryBudget(), map[int64]*RecurrenceSummary{}
	for i, e := range events {
		id := cmp.Or(e.Parent, e.ID)
		p := series[id]
		if p == nil || !s.shown(caller, e, password) {
			continue
		}
		summary, done := summaries[id]
		if !done {
			var err error
			if summary, err = summarize(p.Recurrence, p.Excluded, p.Start, s.eventZone(p), s.now(), s.settings.Languages, budget); err != nil {
				summary = nil // rules stored before a stricter check: the event is answered without
			}
			summaries[id] = summary
		}
		views[i].RecurrenceSummary = summary
	}
	return nil
}

// showTo fits a rendered event to its caller, as the read rule and the
// passwords ask: without its password, a protected event is masked; a venue
// or an organizer the caller may not read is left out, and a protected one
// masked. Kept views are shared, so what changes is copied first.
func (s *Events) showTo(caller Caller, view *EventView, e *calendar.Post, password string) {
	if !s.shown(caller, e, password) {
		mask(view)
		return
	}
	rule := calendar.ReadRuleOf(caller.User)
	changed := false
	if venue, ok := view.Venue.(VenueView); ok {
		switch a := venue.access; {
		case !rule.Allows(a.Status, a.Author):
			view.Venue, changed = []any{}, true
		case !s.shown(caller, a, password):
			view.Venue, changed = maskVenue(venue), true
		}
	}
	organizers := view.Organizer[:0:0]
	for _, o := range view.Organizer {
		switch a := o.access; {
		case !rule.Allows(a.Status, a.Author):
			changed = true
		case !s.shown(caller, a, password):
			organizers, changed = append(organizers, maskOrganizer(o)), true
		default:
			organizers = append(organizers, o)
		}
	}
	if changed {
		view.Organizer = organizers
	}
	if changed && view.JSONLD != nil { // it describes the venue and the first organizer
		zone := s.eventZone(e)
		view.JSONLD = encodeLD(eventJSONLD(*view, e.Start.In(zone), e.End.In(zone)))
	}
	if changed && view.CalendarLinks != nil { // they name the venue
		view.CalendarLinks = calendarLinks(view, e, caller.Root)
	}
}

// renderMissing renders events[i] into out[i] for each i of missing, reading
// their venues, organizers and terms once for all, and caches the views.
func (s *Events) renderMissing(ctx context.Context, events []*calendar.Post, missing []int, out []EventView, single bool, root, home string, gen uint64) error {
	if len(missing) == 0 {
		return nil
	}
	var linkedIDs, termIDs []int64
	for _, i := range missing {
		e := events[i]
		if e.Venue != 0 {
			linkedIDs = append(linkedIDs, e.Venue)
		}
		linkedIDs = append(linkedIDs, e.Organizers...)
		termIDs = append(append(termIDs, e.Categories...), e.Tags...)
	}
	linked, err := s.store.Posts().GetMany(ctx, linkedIDs)
	if err != nil {
		return err
	}
	posts := map[int64]*calendar.Post{}
	for _, p := range linked {
		posts[p.ID] = p
	}
	terms, err := s.store.Terms().GetMany(ctx, termIDs)
	if err != nil {
		return err
	}
	termByID := map[int64]*calendar.Term{}
	for _, t := range terms {
		termByID[t.ID] = t
	}
	counts := map[int64]int{}
	if len(terms) > 0 {
		if counts, err = s.index.CountLinks(ctx, calendar.LinkTerms, publishedEvents); err != nil {
			return err
		}
	}
	for _, i := range missing {
		e := events[i]
		out[i] = s.renderEvent(e, posts, termByID, counts, single, root, home)
		s.views.put(viewKey{e.ID, e.Seq, single, root}, gen, out[i])
	}
	return nil
}

// root is the API root the request came in on ("{api}/"), home the home URL
// (both keep its language segment; the kept views are keyed by root, which
// tells home too).
func (s *Events) renderEvent(e *calendar.Post, posts map[int64]*calendar.Post, terms map[int64]*calendar.Term, counts map[int64]int, single bool, root, home string) EventView {
	zone, err := calendar.ParseZone(e.TimeZone)
	if err != nil {
		zone = s.settings.TimeZone
	}
	c := s.common(e, home)
	start, end := e.Start.In(zone), e.End.In(zone)
	cost, values := costText(e)
	website := c.url
	if e.Website != nil {
		website = *e.Website
	}
	v := EventView{
		ID: e.ID, GlobalID: c.globalID, GlobalIDLineage: []string{c.globalID}, Author: itoa(e.Author), Status: e.Status,
		Date: c.date, DateUTC: c.dateUTC, Modified: c.modified, ModifiedUTC: c.modifiedUTC,
		URL: c.url, RestURL: root + "events/" + itoa(e.ID),
		Title: e.Title, Description: c.description, Excerpt: c.excerpt, Slug: e.Slug, Image: false,
		AllDay: boolPtr(e.AllDay), StartDate: start.Format(DateFormat), StartDateDetails: details(start),
		EndDate: end.Format(DateFormat), EndDateDetails: details(end),
		UTCStartDate: formatUTC(e.Start), UTCStartDateDetails: details(e.Start.UTC()),
		UTCEndDate: formatUTC(e.End), UTCEndDateDetails: details(e.End.UTC()),
		TimeZone: e.TimeZone, TimeZoneAbbr: calendar.ZoneAbbr(zone, e.Start), Cost: cost,
		CostDetails: CostDetails{CurrencySymbol: e.CostSymbol, CurrencyPosition: e.CostPosition, Values: values},
		Website:     website, ShowMap: boolPtr(e.ShowMap == nil || *e.ShowMap), ShowMapLink: boolPtr(e.ShowMapLink == nil || *e.ShowMapLink),
		HideFromListings: boolPtr(e.HideFromListings), Sticky: boolPtr(e.Sticky), Featured: boolPtr(e.Featured),
		Categories: eventTerms(e.Categories, terms, counts, s.categories, root), Tags: eventTerms(e.Tags, terms, counts, s.tags, root),
		Venue: []any{}, Organizer: []OrganizerView{}, CustomFields: []any{}, modifiedAt: e.Modified, revision: e.Seq,
		Recurrence: e.Recurrence, PostParent: e.Parent,
		EventStatus: e.EventStatusOf(), EventStatusReason: e.EventStatusReason, AttendanceMode: e.AttendanceOf(), OnlineURL: e.OnlineURL,
	}
	if e.PreviousStart != nil && e.EventStatusOf() == calendar.EventRescheduled {
		v.PreviousStartDate = e.PreviousStart.In(zone).Format(DateFormat)
	}
	if c.image != nil {
		v.Image = c.image
	}
	if p := posts[e.Venue]; p != nil && p.Type == calendar.PostTypeVenue {
		v.Venue = s.renderVenue(p, renderAs{single: single, home: home})
	}
	for _, id := range e.Organizers {
		if p := posts[id]; p != nil && p.Type == calendar.PostTypeOrganizer {
			v.Organizer = append(v.Organizer, s.renderOrganizer(p, renderAs{single: single, home: home}))
		}
	}
	v.CalendarLinks = calendarLinks(&v, e, root)
	if single {
		v.JSONLD = encodeLD(eventJSONLD(v, start, end))
	}
	return v
}

func eventTerms(ids []int64, terms map[int64]*calendar.Term, counts map[int64]int, svc *Terms, root string) []EventTerm {
	out := []EventTerm{}
	for _, id := range ids {
		t := terms[id]
		if t == nil {
			continue
		}
		name, slug := termName(t)
		out = append(out, EventTerm{
			Name: name, Slug: slug, TermTaxonomyID: t.ID, Taxonomy: t.Taxonomy, Description: t.Description,
			Parent: t.Parent, Count: counts[id], Filter: "raw", ID: t.ID, URLs: svc.urls(t, root),
		})
	}
	return out
}

// mask hides what a password protects, as the plugin does in lists.
func mask(v *EventView) {
	v.Description, v.Excerpt, v.Cost, v.Website = "", "", "", ""
	v.Image = false
	v.AllDay, v.ShowMap, v.ShowMapLink, v.HideFromListings, v.Sticky, v.Featured = nil, nil, nil, nil, nil, nil
	v.CostDetails = CostDetails{Values: []string{}}
	v.Categories, v.Tags, v.Organizer, v.Venue, v.CustomFields = []EventTerm{}, []EventTerm{}, []OrganizerView{}, []any{}, []any{}
	v.EventStatusReason, v.OnlineURL = "", ""
	if v.CalendarLinks != nil { // the others carry the place and the link to join
		v.CalendarLinks = &CalendarLinks{ICal: v.CalendarLinks.ICal}
	}
}

func eventJSONLD(v EventView, start, end time.Time) map[string]any {
	ld := map[string]any{
		"@context": "http://schema.org", "@type": "Event", "name": v.Title, "description": stripTags(v.Excerpt),
		"url": v.URL, "startDate": start.Format(time.RFC3339), "endDate": end.Format(time.RFC3339),
		"eventAttendanceMode": schemaAttendance[v.AttendanceMode],
		"eventStatus":         schemaEventStatus[v.EventStatus],
	}
	switch v.EventStatus {
	case calendar.EventRescheduled:
		if v.PreviousStartDate != "" {
			if prev, err := time.ParseInLocation(DateFormat, v.PreviousStartDate, start.Location()); err == nil {
				ld["previousStartDate"] = prev.Format(time.RFC3339)
			}
		}
	case calendar.EventPostponed: // no new date yet: the one it had
		ld["previousStartDate"] = start.Format(time.RFC3339)
	}
	if img, ok := v.Image.(*ImageView); ok {
		ld["image"] = img.URL
	}
	// An online event is at its link alone; a mixed one at its venue and
	// its link; neither has a placeholder place.
	var locations []any
	if venue, ok := v.Venue.(VenueView); ok && v.AttendanceMode != calendar.AttendanceOnline {
		locations = append(locations, venueJSONLD(venue))
	}
	if v.OnlineURL != "" && v.AttendanceMode != calendar.AttendanceOffline {
		locations = append(locations, map[string]any{"@type": "VirtualLocation", "url": v.OnlineURL})
	}
	switch len(locations) {
	case 1:
		ld["location"] = locations[0]
	case 2:
		ld["location"] = locations
	}
	// The organizers are those the caller may read (showTo left the others
	// out): the plugin's performer, a placeholder "Organization" on every
	// event, goes with them, so that an event whose organizers are hidden
	// reads as one that has none.
	if len(v.Organizer) > 0 {
		o := v.Organizer[0]
		ld["organizer"] = withoutEmpty(map[string]any{"@type": "Person", "name": o.Organizer, "url": o.Website, "telephone": o.Phone, "email": o.Email})
		ld["performer"] = "Organization"
	}
	if v.Cost != "" {
		ld["offers"] = map[string]any{"@type": "Offer", "price": v.CostDetails.Values, "priceCurrency": "USD", "url": v.URL,
			"category": "primary", "availability": "inStock", "validFrom": v.DateUTC}
	}
	return ld
}

// schema.org's names of the event's status and attendance.
var (
	schemaEventStatus = map[string]string{
		calendar.EventScheduled: "https://schema.org/EventScheduled", calendar.EventCanceled: "https://schema.org/EventCancelled",
		calendar.EventPostponed: "https://schema.org/EventPostponed", calendar.EventRescheduled: "https://schema.org/EventRescheduled",
		calendar.EventMovedOnline: "https://schema.org/EventMovedOnline",
	}
	schemaAttendance = map[string]string{
		calendar.AttendanceOffline: "https://schema.org/OfflineEventAttendanceMode",
		calendar.AttendanceOnline:  "https://schema.org/OnlineEventAttendanceMode",
		calendar.AttendanceMixed:   "https://schema.org/MixedEventAttendanceMode",
	}
)

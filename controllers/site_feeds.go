package controllers

import (
	"net/http"
	"regexp"
	"strings"

	"calendar/app"
)

// The plugin's export URLs, on the site's own paths (the permalinks' and
// the event pages' paths under the service's root, as CALENDAR_SITE_URL
// writes them): ?ical=1 (or ?outlook-ical=1) on the events page (/events/),
// the list page (/events/list/), the month view (/events/month/[YYYY-MM/],
// or /events/?tribe_display=month) and a single event's permalink
// (/event/<slug>/). They answer what app.Events.SiteFeed writes; without
// ical, they are no route, as before.
var (
	sitePagePath  = regexp.MustCompile(`^/events(?:/(list|month)(?:/([0-9]{4}-[0-9]{2}))?)?$`)
	permalinkPath = regexp.MustCompile(`^/event/([^/]+)$`)
)

// sitePageFeed serves a site page's export, and tells whether the path was
// one (r's path has no trailing slash: serve trimmed it).
func (api *API) sitePageFeed(w http.ResponseWriter, r *http.Request, v via) bool {
	if api.siteEvents == nil || v.lang != "" || v.wpJSON || v.restRoute {
		return false
	}
	page, permalink := sitePagePath.FindStringSubmatch(r.URL.Path), permalinkPath.FindStringSubmatch(r.URL.Path)
	if page == nil && permalink == nil {
		return false
	}
	query := r.URL.Query()
	if !query.Has("ical") && !query.Has("outlook-ical") || (r.Method != http.MethodGet && r.Method != http.MethodHead) {
		api.writeError(w, r, errNoRoute())
		return true
	}
	info := infoOf(r.Context())
	caller := app.Caller{User: info.actor, Client: clientOf(r), Root: api.apiRoot(v, EventsNamespace),
		Site: strings.TrimSuffix(api.siteRoot(v), "/")}
	var feed *app.Feed
	var err error
	if permalink != nil {
		feed, err = api.siteEvents.EventFeed(r.Context(), caller, app.PostRef{Slug: permalink[1]}, "")
	} else {
		req := app.SiteFeedRequest{Page: app.SitePageList, Month: cmpOr(page[2], query.Get("eventDate")), BarDate: query.Get("tribe-bar-date")}
		if page[1] == "month" || query.Get("tribe_display") == "month" || query.Get("eventDisplay") == "month" {
			req.Page = app.SitePageMonth
		}
		if cat := query.Get("tribe_events_cat"); cat != "" {
			req.Categories = &[]string{cat}
		}
		feed, err = api.siteEvents.SiteFeed(r.Context(), caller, req)
	}
	if err != nil {
		api.writeError(w, r, err)
		return true
	}
	w.Header().Set("Content-Type", calendarType+"; charset=utf-8")
	w.Header().Set("Content-Disposition", `attachment; filename="`+siteFileName(api.siteName)+`.ics"`)
	_, _ = w.Write(feed.Body)
	return true
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// siteFileName is the site's name as a file name.
func siteFileName(name string) string {
	out := strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '-':
			return r
		case r >= 'A' && r <= 'Z':
			return r + 'a' - 'A'
		}
		return '-'
	}, name)
	return cmpOr(strings.Trim(out, "-"), "events")
}

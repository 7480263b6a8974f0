package controllers

import (
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/go-fuego/fuego"
)

const calendarType = "text/calendar"

// mountEventFeed registers GET /events.ics: the event list as iCalendar, with
// the list's parameters; /events answers the same to Accept: text/calendar.
func mountEventFeed(api *API, events eventService) {
	// A feed has no pages; per_page stays, as it sets the X-*-TotalPages the list would report.
	args := slices.DeleteFunc(slices.Clone(eventListArgs), func(a Arg) bool { return a.Name == "page" })
	args = append(args, Arg{Name: "expand", Type: TypeBoolean, Default: false,
		Description: "true: each occurrence of a series is a VEVENT of its own, without RRULE, RDATE or EXDATE (for importers that cannot read rules); at most 1,000 events, as without it."})
	handle(api, EventsNamespace, []string{http.MethodGet}, "/events.ics", args, func(r *Request) (rawBody, error) {
		return eventFeedBody(api, events, r)
	}, fuego.OptionSummary("The events as an iCalendar feed (RFC 5545)"),
		fuego.OptionDescription("Every event the list's filters select, up to 1,000 (no pages); X-WP-Total tells the real total."),
		fuego.OptionAddResponse(http.StatusOK, "The iCalendar document", fuego.Response{Type: "", ContentTypes: []string{calendarType}}))
}

func eventFeedBody(api *API, events eventService, r *Request) (rawBody, error) {
	f, err := readEventFilter(r.Values)
	if err != nil {
		return rawBody{}, err
	}
	f.Page.Page = 1 // a feed has no pages
	f.Expand, _ = r.Values.Bool("expand")
	feed, err := events.Feed(r.Context(), r.Caller, f)
	if err != nil {
		return rawBody{}, err
	}
	setTotals(r.Header(), feed.Total, feed.TotalPages)
	return rawBody{contentType: calendarType + "; charset=utf-8", body: feed.Body}, nil
}

// eventFileBody is one event as an iCalendar file.
func eventFileBody(events eventService, r *Request, password string) (rawBody, error) {
	feed, err := events.EventFeed(r.Context(), r.Caller, postRef(r), password)
	if err != nil {
		return rawBody{}, err
	}
	return rawBody{contentType: calendarType + "; charset=utf-8", body: feed.Body}, nil
}

// wantsCalendar reads the Accept header: iCalendar only when the client names
// text/calendar and ranks it above JSON, or equal to a JSON it accepts only
// through a wildcard. No Accept, */* and application/json keep JSON.
func wantsCalendar(accept []string) bool {
	calQ, calExact := acceptQuality(accept, "text", "calendar")
	jsonQ, jsonExact := acceptQuality(accept, "application", "json")
	return calExact && calQ > 0 && (calQ > jsonQ || (calQ == jsonQ && !jsonExact))
}

// acceptQuality is the q of the most specific media range matching
// kind/sub, and whether that range names the type exactly.
func acceptQuality(accept []string, kind, sub string) (q float64, exact bool) {
	best := -1
	for _, r := range strings.Split(strings.Join(accept, ","), ",") {
		fields := strings.Split(r, ";")
		k, s, _ := strings.Cut(strings.ToLower(strings.TrimSpace(fields[0])), "/")
		rank := -1
		switch {
		case k == kind && s == sub:
			rank = 2
		case k == kind && s == "*":
			rank = 1
		case k == "*" && s == "*":
			rank = 0
		}
		if rank <= best {
			continue
		}
		best, q = rank, 1
		for _, p := range fields[1:] {
			name, value, _ := strings.Cut(strings.TrimSpace(p), "=")
			if strings.EqualFold(name, "q") {
				if f, err := strconv.ParseFloat(value, 64); err == nil {
					q = f
				}
			}
		}
	}
	return q, best == 2
}

package app

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"calendar/app/calendar"
	"calendar/app/strtotime"
	"calendar/app/wordpress"
)

// eventInput is a checked event write; nil fields were not sent.
type eventInput struct {
	postFields
	// creating counts the venues, organizers and terms the write creates
	// (checkCreates); linkOnly refuses a write that would create any
	// (errWouldCreate).
	creating         int
	linkOnly         bool
	slug, website    *string
	zone             *time.Location
	zoneName         *string
	allDay           *bool
	start, end       *time.Time
	cost             *[]string
	flags            map[string]bool
	venue            *LinkRef // ID 0 and no New: unlink
	organizers       *[]LinkRef
	categories, tags *[]string
	recurrence       *[]string
	parent           *int64
	eventStatus      *string
	statusReason     *string
	attendance       *string
	onlineURL        *string
}

// EventFlags are the flags an event write takes, by their API names.
var EventFlags = []string{"show_map", "show_map_link", "hide_from_listings", "sticky", "featured"}

// checkEventInput checks every sent field of the writer's; existing is nil on create.
func (s *Events) checkEventInput(ctx context.Context, writer *calendar.User, raw EventInput, existing *calendar.Post) (*eventInput, error) {
	in := &eventInput{slug: raw.Slug, website: raw.Website, allDay: raw.AllDay, cost: raw.Cost, flags: map[string]bool{},
		venue: raw.Venue, categories: raw.Categories, tags: raw.Tags, recurrence: raw.Recurrence, parent: raw.Parent,
		eventStatus: raw.EventStatus, statusReason: raw.EventStatusReason, attendance: raw.AttendanceMode, onlineURL: raw.OnlineURL}
	var bad calendar.InvalidParams
	checkEventStatus(&bad, in)
	checkLengths(&bad, map[string]*string{"slug": raw.Slug, "website": raw.Website, "timezone": raw.Timezone,
		"start_date": raw.StartDate, "end_date": raw.EndDate})
	if in.recurrence != nil {
		for _, line := range *in.recurrence {
			if len(line) > MaxRecurrenceLineBytes {
				bad.Add("recurrence", fmt.Sprintf("a recurrence line must not be longer than %d bytes.", MaxRecurrenceLineBytes), nil)
			}
		}
	}
	if in.slug != nil && wordpress.SanitizeTitle(*in.slug) == "" {
		bad.Add("slug", "slug has no usable character.", nil)
	}
	if in.website != nil && *in.website != "" && !isURL(*in.website) {
		bad.Add("website", "website must be a URL with a scheme.", nil)
	}
	for _, f := range EventFlags {
		if b, ok := raw.Flags[f]; ok {
			in.flags[f] = b
		}
	}

	zone := s.settings.TimeZone
	if existing != nil && existing.TimeZone != "" {
		if z, err := calendar.ParseZone(existing.TimeZone); err == nil {
			zone = z
		}
	}
	if name := raw.Timezone; name != nil {
		if *name == "" {
			zone = s.settings.TimeZone
			siteName := zone.String()
			in.zoneName = &siteName
		} else if z, err := calendar.ParseZone(*name); err != nil {
			bad.Add("timezone", "timezone must be an IANA zone name, UTC, or UTC+N / UTC-N.", nil)
		} else {
			zone, in.zoneName = z, name
		}
	}
	in.zone = zone
	now := s.now()
	for _, d := range []struct {
		name string
		raw  *string
		dst  **time.Time
	}{{"start_date", raw.StartDate, &in.start}, {"end_date", raw.EndDate, &in.end}} {
		if d.raw != nil {
			t, err := strtotime.Parse(*d.raw, now, zone)
			if err != nil {
				bad.Add(d.name, d.name+" is not a date.", nil)
				continue
			}
			*d.dst = &t
		}
	}
	in.postFields = s.checkPostFields(ctx, raw.PostFields, "title", zone, s.images, htmlFilterFor(writer), &bad)
	custom, err := s.checkCustom(ctx, calendar.PostTypeEvent, raw.CustomFields, existing == nil, &bad)
	if err != nil {
		return nil, err
	}
	in.custom = custom
	if in.cost != nil && len(strings.Join(*in.cost, "")) > calendar.MaxCostBytes {
		bad.Add("cost", fmt.Sprintf("cost must not be longer than %d bytes.", calendar.MaxCostBytes), nil)
	}
	if raw.Organizers != nil {
		organizers := distinctRefs(*raw.Organizers)
		if len(organizers) > calendar.MaxOrganizers {
			bad.AddTooManyItems("organizer", calendar.MaxOrganizers)
		}
		in.organizers = &organizers
	}
	for name, list := range map[string]*[]string{"categories": raw.Categories, "tags": raw.Tags} {
		if list != nil && len(*list) > calendar.MaxEventTerms {
			bad.AddTooManyItems(name, calendar.MaxEventTerms)
		}
	}
	return in, bad.Err()
}

// checkEventStatus checks the event's status and attendance: values of
// their lists ("" is the default), a reason of bounded length (kept as
// text, tags stripped), and a link to join that is an http(s) URL.
func checkEventStatus(bad *calendar.InvalidParams, in *eventInput) {
	for _, f := range []struct {
		name   string
		value  *string
		values []string
	}{{"event_status", in.eventStatus, calendar.EventStatuses}, {"attendance_mode", in.attendance, calendar.AttendanceModes}} {
		if f.value != nil && *f.value != "" && !slices.Contains(f.values, *f.value) {
			bad.Add(f.name, f.name+" is not one of "+strings.Join(f.values, ", ")+".", nil)
		}
	}
	if r := in.statusReason; r != nil {
		if len(*r) > calendar.MaxStatusReasonBytes {
			bad.Add("event_status_reason", fmt.Sprintf("event_status_reason must not be longer than %d bytes.", calendar.MaxStatusReasonBytes), nil)
		}
		reason := sanitizeText(*r)
		in.statusReason = &reason
	}
	if u := in.onlineURL; u != nil && *u != "" && (len(*u) > calendar.MaxURLBytes || !isHTTPURL(*u)) {
		bad.Add("online_url", "online_url must be an http or https URL.", nil)
	}
}

// distinctRefs keeps the order of the refs and drops repeated IDs.
func distinctRefs(refs []LinkRef) []LinkRef {
	out := []LinkRef{}
	seen := map[int64]bool{}
	for _, ref := range refs {
		if ref.ID != 0 && seen[ref.ID] {
			continue
		}
		seen[ref.ID] = ref.ID != 0
		out = append(out, ref)
	}
	return out
}

// permitEvent is permit, and WordPress' rule for sticky events: only
// those who may publish or edit others' events make one sticky.
func permitEvent(actor *calendar.User, in *eventInput, creating bool) (string, error) {
	if in.flags["sticky"] && !actor.Can(calendar.CapPublishPosts) && !actor.Can(calendar.CapEditOthersPosts) {
		return "", calendar.NewError(calendar.KindForbidden, "rest_cannot_assign_sticky", "Sorry, you are not allowed to make posts sticky.")
	}
	return permit(actor, &in.postFields, creating)
}

// resolveLink returns the ID of an existing venue or organizer the caller may
// read, or creates one from the sent fields (an identical existing one is
// reused).
func resolveLink[V any](ctx context.Context, caller Caller, svc *LinkedPosts[V], ref LinkRef, param string) (int64, error) {
	if ref.New == nil {
		// One the caller may not read is refused as a missing one: linking it
		// would show it inside the event.
		p, err := svc.store.Posts().Get(ctx, ref.ID)
		if err == nil && p.Type == svc.kind.postType && calendar.CanRead(caller.User, p) {
			return p.ID, nil
		}
		if err != nil && !errors.Is(err, calendar.ErrNotFound) {
			return 0, err
		}
		if ref.FromObject {
			return 0, calendar.NewError(calendar.KindInvalid, "invalid-linked-post-id", "The provided linked post ID is not valid")
		}
		return 0, calendar.ErrInvalidParam(param, param+" must name an existing "+svc.kind.postType+".")
	}
	p, err := svc.create(ctx, caller, *ref.New)
	if err != nil {
		return 0, err
	}
	return p.ID, nil
}

// resolveTerms turns IDs, slugs or names into term IDs, creating unknown names
// when the caller may manage the taxonomy.
func (s *Events) resolveTerms(ctx context.Context, actor *calendar.User, terms *Terms, refs []string, param string) ([]int64, error) {
	ids := []int64{}
	seen := map[int64]bool{}
	for _, ref := range refs {
		ref = strings.TrimSpace(ref)
		t, err := terms.find(ctx, ref)
		if errors.Is(err, errUnknownTerm) {
			if _, numeric := wordpress.WholeNumber(ref); numeric || terms.mayManage(actor) != nil {
				return nil, calendar.ErrInvalidParam(param, "unknown term "+strconv.Quote(ref)+"; only those who manage terms may create them.")
			}
			var in TermInput
			if in, err = terms.checkTermInput(ctx, TermInput{Name: &ref}, 0); err == nil {
				t, err = terms.create(ctx, in, true)
			}
		}
		if err != nil {
			return nil, err
		}
		if !seen[t.ID] {
			seen[t.ID] = true
			ids = append(ids, t.ID)
		}
	}
	return ids, nil
}

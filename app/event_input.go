package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
)

// eventInput is a checked event write; nil fields were not sent.
type eventInput struct {
	postFields
	slug, website    *string
	zone             *time.Location
	zoneName         *string
	allDay           *bool
	start, end       *time.Time
	cost             *[]string
	flags            map[string]bool
	venue            *linkRef // ID 0: unlink
	organizers       *[]linkRef
	categories, tags *[]string
}

// linkRef names a venue or organizer: an existing ID, or the fields of a new one.
type linkRef struct {
	id       int64
	fromData bool // {id: N}: a wrong type is invalid-linked-post-id
	data     Values
}

var eventFlags = []string{"show_map", "show_map_link", "hide_from_listings", "sticky", "featured"}

// readEventInput checks every sent field; existing is nil on create.
func (s *Events) readEventInput(ctx context.Context, actor *User, v Values, existing *Post) (*eventInput, error) {
	in := &eventInput{flags: map[string]bool{}}
	var bad InvalidParams
	str := func(name string) *string {
		if x, ok := v.String(name); ok {
			return &x
		}
		return nil
	}
	if in.slug = str("slug"); in.slug != nil && SanitizeTitle(*in.slug) == "" {
		bad.Add("slug", "slug has no usable character.", nil)
	}
	if in.website = str("website"); in.website != nil && *in.website != "" && !isURL(*in.website) {
		bad.Add("website", "website must be a URL with a scheme.", nil)
	}
	for _, f := range eventFlags {
		if b, ok := v.Bool(f); ok {
			in.flags[f] = b
		}
	}
	if b, ok := v.Bool("all_day"); ok {
		in.allDay = &b
	}

	zone := s.settings.TimeZone
	if existing != nil && existing.TimeZone != "" {
		if z, err := ParseZone(existing.TimeZone); err == nil {
			zone = z
		}
	}
	if name := str("timezone"); name != nil {
		if *name == "" {
			zone = s.settings.TimeZone
			siteName := zone.String()
			in.zoneName = &siteName
		} else if z, err := ParseZone(*name); err != nil {
			bad.Add("timezone", "timezone must be an IANA zone name, UTC, or UTC+N / UTC-N.", nil)
		} else {
			zone, in.zoneName = z, name
		}
	}
	in.zone = zone
	now := s.now()
	for _, d := range []struct {
		name string
		dst  **time.Time
	}{{"start_date", &in.start}, {"end_date", &in.end}} {
		name, dst := d.name, d.dst
		if raw := str(name); raw != nil {
			t, err := ParseDate(*raw, now, zone)
			if err != nil {
				bad.Add(name, name+" is not a date.", nil)
				continue
			}
			*dst = &t
		}
	}
	in.postFields = s.readPostFields(ctx, v, "title", zone, &bad)
	if v.Has("cost") {
		cost, ok := costValues(v["cost"])
		switch {
		case !ok:
			bad.Add("cost", "cost must be a string, a number or a list of them.", nil)
		case len(strings.Join(cost, "")) > MaxCostBytes:
			bad.Add("cost", fmt.Sprintf("cost must not be longer than %d bytes.", MaxCostBytes), nil)
		}
		in.cost = &cost
	}
	if v.Has("venue") {
		ref, err := readVenueRef(v["venue"])
		if err != nil {
			bad.Add("venue", err.Error(), nil)
		}
		in.venue = ref
	}
	if v.Has("organizer") {
		refs, err := readOrganizerRefs(v["organizer"])
		if err != nil {
			bad.Add("organizer", err.Error(), nil)
		}
		in.organizers = &refs
	}
	for name, dst := range map[string]**[]string{"categories": &in.categories, "tags": &in.tags} {
		if list, ok := v.Strings(name); ok {
			if len(list) > MaxEventTerms {
				bad.Add(name, fmt.Sprintf("an event has at most %d %s.", MaxEventTerms, name), nil)
			}
			*dst = &list
		}
	}
	return in, bad.Err()
}

// permit is postFields.permit, and WordPress' rule for sticky events: only
// those who may publish or edit others' events make one sticky.
func (in *eventInput) permit(actor *User, creating bool) (string, error) {
	if in.flags["sticky"] && !actor.Can(CapPublishPosts) && !actor.Can(CapEditOthersPosts) {
		return "", NewError(KindForbidden, "rest_cannot_assign_sticky", "Sorry, you are not allowed to make posts sticky.")
	}
	return in.postFields.permit(actor, creating)
}

// costValues reads a cost sent as a string, a number or a list of them.
func costValues(raw any) ([]string, bool) {
	switch x := raw.(type) {
	case string:
		if strings.TrimSpace(x) == "" {
			return []string{}, true
		}
		return []string{strings.TrimSpace(x)}, true
	case json.Number:
		return []string{x.String()}, true
	case []any:
		out := []string{}
		for _, item := range x {
			one, ok := costValues(item)
			if !ok || len(x) > MaxListLength {
				return nil, false
			}
			out = append(out, one...)
		}
		return out, true
	case map[string]any: // cost[0]=..&cost[1]=.. in a form
		list, ok := ToList(x)
		if !ok {
			return nil, false
		}
		return costValues(list)
	}
	return nil, false
}

var errLinkShape = errors.New("must be an ID, an object of fields, or a list of one of them")

// readVenueRef reads a venue as an ID, an object (fields or {id}), or a list
// of one of them; empty means no venue.
func readVenueRef(raw any) (*linkRef, error) {
	if list, ok := raw.([]any); ok {
		switch len(list) {
		case 0:
			return &linkRef{}, nil
		case 1:
			return readVenueRef(list[0])
		}
		return nil, errors.New("an event has one venue")
	}
	if s, ok := raw.(string); ok && (strings.TrimSpace(s) == "" || s == "0") {
		return &linkRef{}, nil
	}
	ref, err := readLinkRef(raw)
	return &ref, err
}

// readOrganizerRefs reads organizers as an ID, "5,6", an object, or a list of
// IDs and objects; order kept, repeats dropped.
func readOrganizerRefs(raw any) ([]linkRef, error) {
	var items []any
	switch x := raw.(type) {
	case []any:
		items = x
	case map[string]any:
		if list, ok := ToList(x); ok && len(x) > 0 {
			items = list
		} else {
			items = []any{x}
		}
	default:
		list, ok := ToList(raw)
		if !ok {
			return nil, errLinkShape
		}
		items = list
	}
	if len(items) > MaxOrganizers {
		return nil, fmt.Errorf("an event has at most %d organizers", MaxOrganizers)
	}
	refs := []linkRef{}
	seen := map[int64]bool{}
	for _, item := range items {
		ref, err := readLinkRef(item)
		if err != nil {
			return nil, err
		}
		if ref.id != 0 && seen[ref.id] {
			continue
		}
		seen[ref.id] = ref.id != 0
		refs = append(refs, ref)
	}
	return refs, nil
}

func readLinkRef(raw any) (linkRef, error) {
	if m, ok := raw.(map[string]any); ok {
		if idRaw, has := m["id"]; has && idRaw != nil {
			id, ok := ToInt(idRaw)
			if !ok || id <= 0 {
				return linkRef{}, errors.New("id must be a positive integer")
			}
			return linkRef{id: id, fromData: true}, nil
		}
		return linkRef{data: Values(m)}, nil
	}
	id, ok := ToInt(raw)
	if !ok || id <= 0 {
		return linkRef{}, errLinkShape
	}
	return linkRef{id: id}, nil
}

// resolveLink returns the ID of an existing venue or organizer, or creates one
// from the sent fields (an identical existing one is reused).
func resolveLink[V any](ctx context.Context, actor *User, svc *LinkedPosts[V], ref linkRef, param string) (int64, error) {
	if ref.data == nil {
		// One the caller may not read is refused as a missing one: linking it
		// would show it inside the event.
		p, err := svc.store.Posts().Get(ctx, ref.id)
		if err == nil && p.Type == svc.kind.postType && canRead(actor, p) {
			return p.ID, nil
		}
		if err != nil && !errors.Is(err, ErrNotFound) {
			return 0, err
		}
		if ref.fromData {
			return 0, NewError(KindInvalid, "invalid-linked-post-id", "The provided linked post ID is not valid")
		}
		return 0, ErrInvalidParam(param, param+" must name an existing "+svc.kind.postType+".")
	}
	data := Values{}
	for k, v := range ref.data {
		data[k] = v
	}
	if err := CheckArgs(data, svc.WriteArgs(true)); err != nil {
		return 0, err
	}
	p, err := svc.create(ctx, actor, data)
	if err != nil {
		return 0, err
	}
	return p.ID, nil
}

// resolveTerms turns IDs, slugs or names into term IDs, creating unknown names
// when the caller may manage the taxonomy.
func (s *Events) resolveTerms(ctx context.Context, actor *User, terms *Terms, refs []string, param string) ([]int64, error) {
	ids := []int64{}
	seen := map[int64]bool{}
	for _, ref := range refs {
		ref = strings.TrimSpace(ref)
		t, err := terms.find(ctx, ref)
		if errors.Is(err, errUnknownTerm) {
			if _, numeric := ToInt(ref); numeric || terms.mayManage(actor) != nil {
				return nil, ErrInvalidParam(param, "unknown term "+strconv.Quote(ref)+"; only those who manage terms may create them.")
			}
			created, cerr := terms.Create(ctx, actor, Values{"name": ref}, "")
			if cerr != nil {
				return nil, cerr
			}
			t = &Term{ID: created.ID}
			err = nil
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

var costNumber = regexp.MustCompile(`\d+(?:[.,]\d+)*`)

// inferCurrency finds the symbol around the numbers of the cost values: the
// same non-numeric remainder in every value, before or after the number.
func inferCurrency(values []string) (symbol, position string) {
	for i, v := range values {
		loc := costNumber.FindStringIndex(v)
		if loc == nil {
			return "", ""
		}
		before, after := strings.TrimSpace(v[:loc[0]]), strings.TrimSpace(v[loc[1]:])
		sym, pos := after, "postfix"
		if before != "" {
			sym, pos = before, "prefix"
		}
		if i > 0 && (sym != symbol || pos != position) {
			return "", ""
		}
		symbol, position = sym, pos
	}
	if symbol == "" {
		return "", ""
	}
	return symbol, position
}

// costText is the plugin's cost: the lowest and highest amounts with the
// symbol, "Free" for zero, joined by an en dash; text without numbers verbatim.
func costText(p *Post) (string, []string) {
	type amount struct {
		text  string
		value float64
	}
	var amounts []amount
	for _, v := range p.Cost {
		for _, n := range costNumber.FindAllString(v, -1) {
			f, err := strconv.ParseFloat(strings.ReplaceAll(n, ",", ""), 64)
			if err == nil {
				amounts = append(amounts, amount{n, f})
			}
		}
	}
	if len(amounts) == 0 {
		return strings.Join(p.Cost, ", "), []string{}
	}
	sort.SliceStable(amounts, func(i, j int) bool { return amounts[i].value < amounts[j].value })
	values := make([]string, len(amounts))
	for i, a := range amounts {
		values[i] = a.text
	}
	show := func(a amount) string {
		switch {
		case a.value == 0:
			return "Free"
		case p.CostPosition == "prefix":
			return p.CostSymbol + a.text
		}
		return a.text + p.CostSymbol
	}
	lo, hi := amounts[0], amounts[len(amounts)-1]
	if lo.value == hi.value {
		return show(lo), values
	}
	return show(lo) + " – " + show(hi), values
}

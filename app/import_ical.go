package app

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"calendar/app/calendar"
	"calendar/app/ical"
)

// An iCalendar feed, as Google Calendar, Outlook, Apple Calendar, Nextcloud
// and the plugin publish them, read into items: each VEVENT by its UID, a
// series (RRULE, RDATE, EXDATE) as one item with its lines in the event's
// zone, an overridden instance (RECURRENCE-ID) as an item of its own in the
// series, excluded from the series' own starts. Zones are the feed's TZIDs:
// IANA names, Outlook's Windows names (CLDR's mapping), names that end in
// an IANA one (/mozilla.org/.../Europe/Berlin), else the VTIMEZONE's own
// standard offset; floating times are the site's.

// errICalTooLarge: the feed is over a bound of the import (items, a zone's
// rules).
var errICalTooLarge = errors.New("the feed is over the import's limits")

// icalReader reads one feed under the import's limits.
type icalReader struct {
	site   *time.Location
	limits ImportLimits
	zones  map[string]*time.Location // by TZID
	// calZone is the calendar's own zone (X-WR-TIMEZONE), the one UTC
	// times are shown in; the site's when it names none.
	calZone *time.Location
}

// readICalItems reads a feed's events.
func readICalItems(data []byte, site *time.Location, limits ImportLimits) ([]importItem, error) {
	cal, err := ical.Read(data, ical.Limits{LineBytes: limits.LineBytes, Components: limits.Components,
		Depth: limits.Depth, Properties: limits.Properties})
	if err != nil {
		return nil, err
	}
	r := &icalReader{site: site, limits: limits, zones: map[string]*time.Location{}, calZone: site}
	if z := strings.TrimSpace(cal.TextValue("X-WR-TIMEZONE")); z != "" {
		if loc, ok := r.namedZone(z); ok {
			r.calZone = loc
		}
	}
	events := 0
	for _, c := range cal.Components {
		switch c.Name {
		case "VTIMEZONE":
			if err := r.readZone(c); err != nil {
				return nil, err
			}
		case "VEVENT":
			if events++; events > limits.Items {
				return nil, fmt.Errorf("%w: more than %s events", errICalTooLarge, calendar.Thousands(int64(limits.Items)))
			}
		}
	}
	var items []importItem
	overrides := map[string][]importItem{} // by the series' UID
	excluded := map[string][]time.Time{}
	for _, c := range cal.Components {
		if c.Name != "VEVENT" {
			continue
		}
		it, uid, recurrenceID, err := r.readEvent(c)
		if err != nil {
			items = append(items, importItem{Key: uid, Title: c.TextValue("SUMMARY"), failure: err.Error()})
			continue
		}
		if !recurrenceID.IsZero() {
			excluded[uid] = append(excluded[uid], recurrenceID)
			if !it.Canceled { // a canceled instance is one the series no longer has
				overrides[uid] = append(overrides[uid], it)
			}
			continue
		}
		items = append(items, it)
	}
	// Each series excludes its overridden instances; they follow it.
	var out []importItem
	for _, it := range items {
		if ex := excluded[it.Key]; len(ex) > 0 && len(it.Recurrence) > 0 {
			zone, _ := calendar.ParseZone(it.Zone)
			it.Recurrence = append(it.Recurrence, dateLines("EXDATE", ex, zone, it.AllDay)...)
		}
		out = append(out, it)
		for _, o := range overrides[it.Key] {
			if len(it.Recurrence) > 0 {
				o.Series = it.Key
			}
			out = append(out, o)
		}
		delete(overrides, it.Key)
	}
	for _, uid := range slices.Sorted(mapsKeys(overrides)) { // instances of a series the feed does not hold
		out = append(out, overrides[uid]...)
	}
	return out, nil
}

func mapsKeys[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// readZone keeps a VTIMEZONE's zone under its TZID: the IANA zone its name
// says, else its standard offset. Its rules are counted, not expanded.
func (r *icalReader) readZone(c *ical.Component) error {
	if len(c.Components) > r.limits.ZoneRules {
		return fmt.Errorf("%w: a VTIMEZONE with more than %d rules", errICalTooLarge, r.limits.ZoneRules)
	}
	tzid := strings.TrimSpace(c.Value("TZID"))
	if tzid == "" {
		return nil
	}
	if loc, ok := r.namedZone(tzid); ok {
		r.zones[tzid] = loc
		return nil
	}
	if loc, ok := r.namedZone(strings.TrimSpace(c.Value("X-LIC-LOCATION"))); ok {
		r.zones[tzid] = loc
		return nil
	}
	for _, rule := range c.Components {
		if rule.Name != "STANDARD" {
			continue
		}
		if loc, ok := offsetZone(rule.Value("TZOFFSETTO")); ok {
			r.zones[tzid] = loc
			return nil
		}
	}
	return nil
}

// namedZone is the zone a name says: IANA, a Windows name, or a path that
// ends in an IANA name.
func (r *icalReader) namedZone(name string) (*time.Location, bool) {
	name = strings.Trim(name, `"`)
	if name == "" {
		return nil, false
	}
	if loc, err := calendar.ParseZone(name); err == nil {
		return loc, true
	}
	if iana, ok := ical.WindowsZone(name); ok {
		if loc, err := calendar.ParseZone(iana); err == nil {
			return loc, true
		}
	}
	if parts := strings.Split(name, "/"); len(parts) > 2 {
		for i := 1; i < len(parts)-1; i++ {
			if loc, err := calendar.ParseZone(strings.Join(parts[i:], "/")); err == nil {
				return loc, true
			}
		}
	}
	return nil, false
}

// offsetZone reads a UTC offset (+0100, -0530) as a zone of that offset.
func offsetZone(v string) (*time.Location, bool) {
	v = strings.TrimSpace(v)
	if len(v) < 5 || (v[0] != '+' && v[0] != '-') {
		return nil, false
	}
	h, err1 := strconv.Atoi(v[1:3])
	m, err2 := strconv.Atoi(v[3:5])
	if err1 != nil || err2 != nil || h > 14 || m > 59 {
		return nil, false
	}
	name := fmt.Sprintf("UTC%c%d", v[0], h)
	if m != 0 {
		name += fmt.Sprintf(":%02d", m)
	}
	loc, err := calendar.ParseZone(name)
	return loc, err == nil
}

// zoneOf is the zone of a date-time property: its TZID's, UTC for one
// written in UTC, the site's for a floating one.
func (r *icalReader) zoneOf(p *ical.Property) (*time.Location, error) {
	if tzid := p.Params["TZID"]; tzid != "" {
		if loc, ok := r.zones[tzid]; ok {
			return loc, nil
		}
		if loc, ok := r.namedZone(tzid); ok {
			r.zones[tzid] = loc
			return loc, nil
		}
		return nil, fmt.Errorf("unknown time zone %q", tzid)
	}
	if strings.HasSuffix(strings.ToUpper(p.Value), "Z") {
		return time.UTC, nil
	}
	return r.site, nil
}

// when reads a DATE or DATE-TIME value in zone; date says it was a DATE.
func when(value string, zone *time.Location) (t time.Time, date bool, err error) {
	value = strings.ToUpper(strings.TrimSpace(value))
	switch {
	case len(value) == 8:
		t, err = time.ParseInLocation("20060102", value, zone)
		return t, true, err
	case strings.HasSuffix(value, "Z"):
		t, err = time.Parse("20060102T150405Z", value)
		return t, false, err
	default:
		t, err = time.ParseInLocation("20060102T150405", value, zone)
		return t, false, err
	}
}

// readEvent reads one VEVENT: the item, its UID and, for an overridden
// instance, its RECURRENCE-ID.
func (r *icalReader) readEvent(c *ical.Component) (importItem, string, time.Time, error) {
	uid := strings.TrimSpace(c.TextValue("UID"))
	it := importItem{Key: uid, Title: strings.TrimSpace(c.TextValue("SUMMARY"))}
	if uid == "" {
		return it, uid, time.Time{}, errors.New("a VEVENT without a UID")
	}
	if len(uid) > calendar.MaxURLBytes {
		return it, uid, time.Time{}, errors.New("a UID longer than " + calendar.Thousands(calendar.MaxURLBytes) + " bytes")
	}
	dtstart := c.Get("DTSTART")
	if dtstart == nil {
		return it, uid, time.Time{}, errors.New("no DTSTART")
	}
	zone, err := r.zoneOf(dtstart)
	if err != nil {
		return it, uid, time.Time{}, err
	}
	start, allDay, err := when(dtstart.Value, zone)
	if err != nil {
		return it, uid, time.Time{}, fmt.Errorf("DTSTART: %v", err)
	}
	if (zone == time.UTC && !allDay) || (allDay && dtstart.Params["TZID"] == "") {
		// shown in the calendar's zone: a UTC time, and a day, which is
		// the calendar's day wherever it is read
		zone = r.calZone
		if allDay {
			start, _, _ = when(dtstart.Value, zone)
		}
	}
	end := start
	if p := c.Get("DTEND"); p != nil {
		endZone, err := r.zoneOf(p)
		if err != nil {
			return it, uid, time.Time{}, err
		}
		if allDay { // a day, in the start's zone
			endZone = zone
		}
		if end, _, err = when(p.Value, endZone); err != nil {
			return it, uid, time.Time{}, fmt.Errorf("DTEND: %v", err)
		}
	} else if d := c.Value("DURATION"); d != "" {
		dur, err := parseDuration(d)
		if err != nil {
			return it, uid, time.Time{}, fmt.Errorf("DURATION: %v", err)
		}
		end = start.Add(dur)
	}
	if allDay && end.After(start) { // DTEND is the day after the last
		end = end.AddDate(0, 0, -1)
	}
	if end.Before(start) {
		end = start
	}
	it.Start, it.End, it.Zone, it.AllDay = wall(start.In(zone)), wall(end.In(zone)), zone.String(), allDay

	var recurrenceID time.Time
	if p := c.Get("RECURRENCE-ID"); p != nil {
		rz, err := r.zoneOf(p)
		if err != nil {
			return it, uid, time.Time{}, err
		}
		if recurrenceID, _, err = when(p.Value, rz); err != nil {
			return it, uid, time.Time{}, fmt.Errorf("RECURRENCE-ID: %v", err)
		}
		it.Key = uid + "@" + recurrenceID.UTC().Format("20060102T150405Z")
	}
	if err := r.readRecurrence(c, &it, zone); err != nil {
		return it, uid, time.Time{}, err
	}

	it.Description = c.TextValue("DESCRIPTION")
	if p := c.Get("X-ALT-DESC"); p != nil && strings.EqualFold(p.Params["FMTTYPE"], "text/html") {
		it.Description = htmlBody(ical.Unescape(p.Value))
	}
	it.URL = strings.TrimSpace(c.Value("URL"))
	it.Canceled = strings.EqualFold(strings.TrimSpace(c.Value("STATUS")), "CANCELLED")
	for _, p := range c.All("CATEGORIES") {
		for _, name := range ical.SplitText(p.Value) {
			if name = strings.TrimSpace(name); name != "" && !slices.Contains(it.Categories, name) {
				it.Categories = append(it.Categories, name)
			}
		}
	}
	for _, p := range c.All("ATTACH") {
		if strings.HasPrefix(strings.ToLower(p.Params["FMTTYPE"]), "image/") && isHTTP(p.Value) {
			it.Image = strings.TrimSpace(p.Value)
			break
		}
	}
	if loc := strings.TrimSpace(c.TextValue("LOCATION")); loc != "" {
		it.Venue = sourcePlace(loc)
	}
	if geo := c.Value("GEO"); geo != "" {
		lat, lng, ok := strings.Cut(geo, ";")
		la, err1 := strconv.ParseFloat(strings.TrimSpace(lat), 64)
		ln, err2 := strconv.ParseFloat(strings.TrimSpace(lng), 64)
		if ok && err1 == nil && err2 == nil && la >= -90 && la <= 90 && ln >= -180 && ln <= 180 {
			if it.Venue == nil {
				it.Venue = &importPlace{Name: fmt.Sprintf("%.5f, %.5f", la, ln)}
			}
			it.Venue.Lat, it.Venue.Lng = &la, &ln
		}
	}
	for _, p := range c.All("ORGANIZER") {
		name := strings.TrimSpace(p.Params["CN"])
		email := strings.TrimPrefix(strings.TrimPrefix(strings.TrimSpace(p.Value), "mailto:"), "MAILTO:")
		if name == "" {
			name = email
		}
		if name != "" {
			o := importPlace{Name: name}
			if email != "" {
				o.Meta = map[string]string{"email": email}
			}
			it.Organizers = append(it.Organizers, o)
		}
	}
	seq, modified := strings.TrimSpace(c.Value("SEQUENCE")), strings.TrimSpace(c.Value("LAST-MODIFIED"))
	if seq != "" || modified != "" {
		it.Version = seq + "/" + modified
	}
	return it, uid, recurrenceID, nil
}

func isHTTP(u string) bool {
	u = strings.ToLower(strings.TrimSpace(u))
	return strings.HasPrefix(u, "http://") || strings.HasPrefix(u, "https://")
}

// sourcePlace reads a LOCATION as calendars write it ("Name, street, city"):
// the name first, the rest its address.
func sourcePlace(loc string) *importPlace {
	sep := ","
	if strings.Contains(loc, "\n") { // Apple's: the name on its own line
		sep = "\n"
	}
	name, rest, _ := strings.Cut(loc, sep)
	rest = strings.Join(strings.Fields(strings.ReplaceAll(rest, "\n", ", ")), " ")
	p := &importPlace{Name: strings.TrimSpace(name)}
	if rest = strings.TrimSpace(rest); rest != "" {
		p.Meta = map[string]string{"address": rest}
	}
	return p
}

// readRecurrence writes an event's RRULE, RDATEs and EXDATEs as lines in
// its own zone (the form series here keep).
func (r *icalReader) readRecurrence(c *ical.Component, it *importItem, zone *time.Location) error {
	for _, p := range c.All("RRULE") {
		it.Recurrence = append(it.Recurrence, "RRULE:"+strings.TrimSpace(p.Value))
	}
	for _, name := range []string{"RDATE", "EXDATE"} {
		var dates []time.Time
		for _, p := range c.All(name) {
			if strings.EqualFold(p.Params["VALUE"], "PERIOD") {
				return fmt.Errorf("%s;VALUE=PERIOD is not read", name)
			}
			z, err := r.zoneOf(&p)
			if err != nil {
				return err
			}
			for _, v := range strings.Split(p.Value, ",") {
				t, _, err := when(v, z)
				if err != nil {
					return fmt.Errorf("%s: %v", name, err)
				}
				dates = append(dates, t)
			}
			if len(dates) > r.limits.Items {
				return fmt.Errorf("%w: more than %d dates in %s", errICalTooLarge, r.limits.Items, name)
			}
		}
		if len(dates) > 0 && (name == "EXDATE" || len(it.Recurrence) > 0 || len(dates) > 0) {
			it.Recurrence = append(it.Recurrence, dateLines(name, dates, zone, it.AllDay)...)
		}
	}
	if len(it.Recurrence) > 0 && !slices.ContainsFunc(it.Recurrence, func(l string) bool {
		return strings.HasPrefix(l, "RRULE:") || strings.HasPrefix(l, "RDATE:")
	}) {
		it.Recurrence = nil // EXDATEs alone: nothing recurs
	}
	return nil
}

// datesPerLine keeps a line of dates within a series' line bound.
const datesPerLine = 50

// dateLines writes dates as RDATE or EXDATE lines of local times in zone.
func dateLines(name string, dates []time.Time, zone *time.Location, allDay bool) []string {
	var out []string
	for chunk := range slices.Chunk(dates, datesPerLine) {
		values := make([]string, len(chunk))
		for i, t := range chunk {
			t = t.In(zone)
			if allDay {
				t = time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, zone)
			}
			values[i] = t.Format("20060102T150405")
		}
		out = append(out, name+":"+strings.Join(values, ","))
	}
	return out
}

// parseDuration reads an RFC 5545 DURATION (P1D, PT1H30M, P2W, -PT15M).
func parseDuration(v string) (time.Duration, error) {
	v = strings.ToUpper(strings.TrimSpace(v))
	sign := time.Duration(1)
	if strings.HasPrefix(v, "-") {
		sign, v = -1, v[1:]
	}
	v = strings.TrimPrefix(v, "+")
	if !strings.HasPrefix(v, "P") || len(v) < 3 {
		return 0, fmt.Errorf("%q is not a duration", v)
	}
	var d time.Duration
	inTime := false
	num := 0
	digits := false
	for _, ch := range v[1:] {
		switch {
		case ch >= '0' && ch <= '9':
			if num > 1_000_000 {
				return 0, fmt.Errorf("%q is too long a duration", v)
			}
			num, digits = num*10+int(ch-'0'), true
			continue
		case ch == 'T':
			inTime = true
			continue
		}
		if !digits {
			return 0, fmt.Errorf("%q is not a duration", v)
		}
		unit := map[rune]time.Duration{'W': 7 * 24 * time.Hour, 'D': 24 * time.Hour}[ch]
		if inTime {
			unit = map[rune]time.Duration{'H': time.Hour, 'M': time.Minute, 'S': time.Second}[ch]
		}
		if unit == 0 {
			return 0, fmt.Errorf("%q is not a duration", v)
		}
		d += time.Duration(num) * unit
		num, digits = 0, false
	}
	return sign * d, nil
}

// htmlBody is what a whole HTML document (Outlook's X-ALT-DESC) holds in
// its body; any other HTML as it is.
func htmlBody(html string) string {
	lower := strings.ToLower(html)
	open := strings.Index(lower, "<body")
	if open < 0 {
		return html
	}
	start := strings.IndexByte(lower[open:], '>')
	if start < 0 {
		return html
	}
	start += open + 1
	end := strings.LastIndex(lower, "</body>")
	if end < start {
		end = len(html)
	}
	return strings.TrimSpace(html[start:end])
}

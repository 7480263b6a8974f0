package app

import "time"

// LastModified is when the venue last changed, for Last-Modified headers.
func (v VenueView) LastModified() time.Time { return parseUTC(v.ModifiedUTC) }

// LastModified is when the organizer last changed.
func (v OrganizerView) LastModified() time.Time { return parseUTC(v.ModifiedUTC) }

// LastModified is the latest change of the event and of the venue and
// organizers shown inside it, since editing them changes the event's answer.
// Terms carry no modification time: renaming one is seen by the ETag only.
func (v EventView) LastModified() time.Time {
	latest := parseUTC(v.ModifiedUTC)
	later := func(t time.Time) {
		if t.After(latest) {
			latest = t
		}
	}
	if venue, ok := v.Venue.(VenueView); ok {
		later(venue.LastModified())
	}
	for _, o := range v.Organizer {
		later(o.LastModified())
	}
	return latest
}

// parseUTC reads a rendered *_utc date; the zero time when there is none.
func parseUTC(s string) time.Time {
	t, err := time.Parse(DateFormat, s)
	if err != nil {
		return time.Time{}
	}
	return t
}

// modifiedAfterArg is the parameter of every post list that a syncing client
// pages forward with.
var modifiedAfterArg = Arg{Name: "modified_after", Type: TypeString,
	Description: "Only items modified after this instant (zone-less values are UTC); the list then runs from the oldest change, then by ID, and an event list has no default date window."}

// readModifiedAfter sets the modified_after filter and its order on q when
// it was sent.
func readModifiedAfter(v Values, now time.Time, q *PostQuery, bad *InvalidParams) {
	raw, ok := v.String("modified_after")
	if !ok {
		return
	}
	t, err := ParseDate(raw, now, time.UTC)
	if err != nil {
		bad.Add("modified_after", "modified_after is not a date.", nil)
		return
	}
	q.ModifiedAfter = &Bound{T: t.UTC()}
	q.Order = OrderModified
}

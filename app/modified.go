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

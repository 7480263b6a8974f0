package app

import "time"

// LastModified is when the venue last changed, for Last-Modified headers.
func (v VenueView) LastModified() time.Time { return v.modifiedAt }

// LastModified is when the organizer last changed.
func (v OrganizerView) LastModified() time.Time { return v.modifiedAt }

// LastModified is the latest change of the event and of the venue and
// organizers shown inside it, since editing them changes the event's answer.
// Terms carry no modification time: renaming one is seen by the ETag only.
func (v EventView) LastModified() time.Time {
	latest := v.modifiedAt
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

// readModifiedAfter sets the modified_after filter and its order on q when
// it was sent.
func readModifiedAfter(raw *string, now time.Time, q *PostQuery, bad *InvalidParams) {
	if raw == nil {
		return
	}
	t, err := ParseDate(*raw, now, time.UTC)
	if err != nil {
		bad.Add("modified_after", "modified_after is not a date.", nil)
		return
	}
	q.ModifiedAfter = &Bound{T: t.UTC()}
	q.Order = OrderModified
}

package app

import (
	"time"
)

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

// Revision is the revision of the item an answer shows (its change
// sequence), which its entity tag carries so that a client's If-Match can
// name it. What the item embeds has revisions of its own: a change to the
// venue inside an event changes the event's entity tag (it is also a hash of
// the answer), not the revision its If-Match names.
func (v EventView) Revision() int64 { return v.revision }

// Revision is the venue's revision.
func (v VenueView) Revision() int64 { return v.access.Revision() }

// Revision is the organizer's revision.
func (v OrganizerView) Revision() int64 { return v.access.Revision() }

// Revision is the term's revision.
func (v TermView) Revision() int64 { return v.revision }

// Revision is the attachment's revision.
func (v AttachmentView) Revision() int64 { return v.revision }

// laterOf is the later of two instants.
func laterOf(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

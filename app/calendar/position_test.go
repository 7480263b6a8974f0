package calendar_test

import (
	"testing"

	"calendar/app/calendar"
)

// A venue's position is public only while a visitor may read the venue
// whole: the one rule the app places events by and the index marks venues by.
func TestAVenuesPositionIsPublicOnlyWhileAVisitorMayReadItWhole(t *testing.T) {
	at := &calendar.Geo{Lat: 50.9413, Lng: 6.9583}
	for _, c := range []struct {
		status, password string
		public           bool
	}{
		{calendar.StatusPublish, "", true},
		{calendar.StatusPublish, "sesame", false},
		{calendar.StatusFuture, "", false},
		{calendar.StatusDraft, "", false},
		{calendar.StatusPending, "", false},
		{calendar.StatusPrivate, "", false},
		{calendar.StatusTrash, "", false},
	} {
		venue := &calendar.Post{Type: calendar.PostTypeVenue, Status: c.status, Password: c.password, Author: 2, Geo: at}
		if got := calendar.PublicPosition(venue); (got != nil) != c.public {
			t.Errorf("a %s venue (password %q): public position %v, want public %v", c.status, c.password, got, c.public)
		}
	}
	if calendar.PublicPosition(&calendar.Post{Type: calendar.PostTypeEvent, Status: calendar.StatusPublish, Geo: at}) != nil ||
		calendar.PublicPosition(nil) != nil {
		t.Error("only a venue has a public position of its own")
	}
	if calendar.PositionKey(nil) != calendar.NoPosition || calendar.PositionKey(at) != "50.9413,6.9583" {
		t.Errorf("position keys: %q, %q", calendar.PositionKey(nil), calendar.PositionKey(at))
	}
}

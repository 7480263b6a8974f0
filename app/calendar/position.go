package calendar

import "strconv"

// Where a venue may be said to be. An event is where its venue is, for
// everyone who may read the event; so an event may carry its venue's
// position only while anyone may read the venue whole, or its radius, box,
// map cluster and distance would tell a visitor where a hidden venue is.

// PublicPosition is a venue's position while a visitor may read the venue
// (ReadRule's zero value: published) and no password protects it; nil
// otherwise, and for anything but a venue. It is the one rule: the app
// gives an event its venue's public position, and the index marks each
// venue with its own (PositionKey), which near me and the map read.
func PublicPosition(venue *Post) *Geo {
	if venue == nil || venue.Type != PostTypeVenue || venue.Password != "" || !(ReadRule{}).Allows(venue.Status, venue.Author) {
		return nil
	}
	return venue.Geo
}

// NoPosition is PositionKey's key of no position.
const NoPosition = "none"

// PositionKey is a position as one exact keyword (NoPosition for none), so
// that the index can tell the events placed elsewhere than their venue now
// is (PostQuery.NotPlacedAt).
func PositionKey(g *Geo) string {
	if g == nil {
		return NoPosition
	}
	return strconv.FormatFloat(g.Lat, 'g', -1, 64) + "," + strconv.FormatFloat(g.Lng, 'g', -1, 64)
}

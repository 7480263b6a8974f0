package app

import (
	"fmt"

	"calendar/app/calendar"
)

// What each endpoint answers for an item it cannot give: the plugin's answers
// for events, venues and organizers, WordPress' core ones for terms, media
// and users. Every load of an item by ID or slug goes through this table.
//
//	resource        missing ID (and /0)                 another resource's ID          the caller may not read it          by slug: none, or unreadable
//	event           404 rest-event-not-found            400 rest-invalid-event-id      403 event-not-accessible            400 rest_invalid_param (slug)
//	                                                                                   (trashed, for authors and below:
//	                                                                                   403 event-no-longer-available)
//	a series'       as event, but for an event that is no series, or that the caller may not read: 404 rest-event-not-series
//	occurrences
//	venue           404 venue-not-found (/0)            400 rest_invalid_param (id)    403 venue-not-accessible            400 rest_invalid_param (slug)
//	                400 rest_invalid_param (id)
//	organizer       as venue, organizer-*
//	category, tag   404 rest_term_invalid (/0)          400 rest_invalid_param (id)    400 rest_invalid_param (id): a term
//	                400 rest_invalid_param (id)                                        only a hidden event made is missing
//	media           404 rest_post_invalid_id            404 rest_post_invalid_id       (attachments are public; an
//	                                                                                   unfinished upload is missing)
//	user            404 rest_user_invalid_id
//	webhook         404 rest_webhook_invalid_id             (another's, for all but administrators: 404 too)
//
// A slug that names a post the caller may not read is answered as one that
// names nothing, so a guessed title is not confirmed; its author still finds
// it.
//
// Before the permission: the plugin checks a venue's or an organizer's id
// (and any slug) as an argument, before the permission callback, so those
// answers come first for every caller, anonymous writes and deletes too (an
// anonymous DELETE of a venue ID that names nothing is 400, of one that is
// there 401). An event's ID is not: an anonymous update or delete by ID is
// 401 whatever it names (EventDeletionCest), by slug the slug's answer first.
//
// A post given as a filter or a link that the caller may not read is
// answered as a missing one too (400 rest_invalid_param). A malformed ID (not digits) matches no route: 404 rest_no_route, from
// the controllers' route wrapper.
var itemErrors = struct {
	eventMissing     func(id int64) *calendar.Error
	eventWrongType   func() *calendar.Error
	eventTrashed     func() *calendar.Error
	notSeries        func(id int64) *calendar.Error
	postZero         func(postType string) *calendar.Error
	postUnreadable   func(postType string) *calendar.Error
	byRefNotFound    func(param string) error
	termZero         func() *calendar.Error
	attachmentAbsent func() *calendar.Error
	userMissing      func() *calendar.Error
	webhookMissing   func() *calendar.Error
}{
	eventMissing: func(id int64) *calendar.Error {
		return calendar.NewError(calendar.KindNotFound, "rest-event-not-found", fmt.Sprintf("Event with ID %d does not exist.", id))
	},
	eventWrongType: func() *calendar.Error {
		return calendar.NewError(calendar.KindInvalid, "rest-invalid-event-id", "The specified ID is not a valid event.")
	},
	eventTrashed: func() *calendar.Error {
		return calendar.NewError(calendar.KindForbidden, "event-no-longer-available", "This event is no longer available")
	},
	notSeries: func(id int64) *calendar.Error {
		return calendar.NewError(calendar.KindNotFound, "rest-event-not-series", fmt.Sprintf("Event with ID %d is not a series.", id))
	},
	postZero: func(postType string) *calendar.Error {
		return calendar.NewError(calendar.KindNotFound, postType+"-not-found", "The requested post ID does not exist or is not a "+postType+".")
	},
	postUnreadable: func(postType string) *calendar.Error {
		return calendar.NewError(calendar.KindForbidden, postType+"-not-accessible", "The requested "+postType+" is not accessible")
	},
	byRefNotFound: func(param string) error { return calendar.ErrInvalidParam(param, "Invalid parameter.") },
	termZero: func() *calendar.Error {
		return calendar.NewError(calendar.KindNotFound, "rest_term_invalid", "Term does not exist.")
	},
	attachmentAbsent: func() *calendar.Error {
		return calendar.NewError(calendar.KindNotFound, "rest_post_invalid_id", "Invalid post ID.")
	},
	userMissing: func() *calendar.Error {
		return calendar.NewError(calendar.KindNotFound, "rest_user_invalid_id", "Invalid user ID.")
	},
	webhookMissing: func() *calendar.Error {
		return calendar.NewError(calendar.KindNotFound, "rest_webhook_invalid_id", "Invalid webhook ID.")
	},
}

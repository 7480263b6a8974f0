package calendar

// An event's status, as the plugin's Event Status feature names its values
// (`_tribe_events_status`; "" and scheduled alike), and how one attends it:
// in person, online (the Virtual Events add-on's virtual event), or both (its
// hybrid one). Post statuses (publish, draft...) say who may read an event;
// these say whether and how it takes place.
const (
	EventScheduled   = "scheduled"
	EventCanceled    = "canceled"
	EventPostponed   = "postponed"
	EventRescheduled = "rescheduled"
	EventMovedOnline = "moved_online"

	AttendanceOffline = "offline"
	AttendanceOnline  = "online"
	AttendanceMixed   = "mixed"
)

// EventStatuses are the values of event_status, the default first.
var EventStatuses = []string{EventScheduled, EventCanceled, EventPostponed, EventRescheduled, EventMovedOnline}

// AttendanceModes are the values of attendance_mode, the default first.
var AttendanceModes = []string{AttendanceOffline, AttendanceOnline, AttendanceMixed}

// MaxStatusReasonBytes bounds event_status_reason.
const MaxStatusReasonBytes = 2048

// EventStatusOf is the event's status, scheduled when none was set.
func (p *Post) EventStatusOf() string {
	if p.EventStatus == "" {
		return EventScheduled
	}
	return p.EventStatus
}

// AttendanceOf is how one attends the event when none was set: offline,
// or online for an event moved online (schema.org's EventMovedOnline is
// an event one now attends online).
func (p *Post) AttendanceOf() string {
	switch {
	case p.Attendance != "":
		return p.Attendance
	case p.EventStatus == EventMovedOnline:
		return AttendanceOnline
	}
	return AttendanceOffline
}

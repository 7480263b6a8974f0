package app

import (
	"context"

	"calendar/app/calendar"
)

// ImportBackoff is the pause of a failing source, for app_test.
var ImportBackoff = backoff

// BeginScheduled takes a scheduled run of src as read (perhaps before
// another replica ran it), for app_test.
func (s *Imports) BeginScheduled(ctx context.Context, src *calendar.ImportSource) error {
	_, err := s.begin(ctx, src, TriggerScheduled)
	return err
}

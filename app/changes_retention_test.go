package app_test

import (
	"testing"
	"time"

	"calendar/app"
	"calendar/app/calendar"
)

// TestASyncFromBeforeTheFeedsRetentionIsGoneNeverAGap: once the deletes
// before a point are pruned, a read of the feed from before it is 410
// rest_sync_expired (naming the horizon), never a page that silently misses
// a delete; so is a replay from there; from 0 or after it, the feed answers.
func TestASyncFromBeforeTheFeedsRetentionIsGoneNeverAGap(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	h, err := w.app.Webhooks.Create(w.ctx, w.admin(), hook("https://hooks.example/"))
	w.must(err)
	e := w.event("Soon gone", "2030-11-01", app.EventInput{})
	before, err := w.store.LastSeq(w.ctx)
	w.must(err)
	_, err = w.app.Events.Delete(w.ctx, w.admin(), app.PostRef{ID: e.ID}, true)
	w.must(err)
	if horizon, err := w.app.PruneChanges(w.ctx); err != nil || horizon != 0 {
		t.Fatalf("within the retention: horizon %d, %v", horizon, err)
	}
	horizon, err := w.store.PruneChanges(w.ctx, time.Now().Add(time.Hour)) // as the retention would, later
	w.must(err)
	if horizon <= before {
		t.Fatalf("horizon %d, want past %d", horizon, before)
	}
	_, err = w.app.Changes(w.ctx, w.admin(), app.ChangesRequest{Since: before})
	if e := calendar.AsError(err); e.Code != "rest_sync_expired" || e.Kind != calendar.KindGone || e.Data["horizon"] != horizon {
		t.Fatalf("a sync from before the horizon: %v (%v)", err, e.Data)
	}
	if _, err := w.app.Webhooks.Replay(w.ctx, w.admin(), h.ID, before); calendar.AsError(err).Code != "rest_sync_expired" {
		t.Fatalf("a replay from before the horizon: %v", err)
	}
	for _, since := range []int64{0, horizon} {
		if _, err := w.app.Changes(w.ctx, w.admin(), app.ChangesRequest{Since: since}); err != nil {
			t.Fatalf("since %d: %v", since, err)
		}
	}
}

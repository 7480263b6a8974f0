package app_test

import (
	"sync/atomic"
	"testing"

	"calendar/app"
	"calendar/app/calendar"
	"calendar/index"
)

// compactions is the real index, counting the merges it is asked for.
type compactions struct {
	*index.Live
	calls atomic.Int32
}

func (c *compactions) Compact() {
	c.calls.Add(1)
	c.Live.Compact()
}

// A rebuild leaves many small segments: once the rebuilt index is live,
// in place or beside the old one, it is asked to merge them.
func TestARebuiltIndexIsAskedToMergeItsSegments(t *testing.T) {
	var watched *compactions
	ended := make(chan app.ReindexStatus, 4)
	w := newWorldWatched(t, func(idx *index.Live) calendar.Index { watched = &compactions{Live: idx}; return watched },
		func(s *app.Settings) {
			s.OnReindex = func(st app.ReindexStatus) {
				if st.State == app.ReindexDone || st.State == app.ReindexFailed {
					ended <- st
				}
			}
		})
	w.event("Concert", "2030-06-01", app.EventInput{})
	if _, err := w.app.Rebuild(w.ctx, nil); err != nil {
		t.Fatal(err)
	}
	if st := <-ended; st.State != app.ReindexDone || watched.calls.Load() != 1 {
		t.Fatalf("in place: %s, %d merges asked", st.State, watched.calls.Load())
	}
	if _, err := w.app.Reindex(w.ctx, w.admin()); err != nil {
		t.Fatal(err)
	}
	if st := <-ended; st.State != app.ReindexDone || watched.calls.Load() != 2 {
		t.Fatalf("beside: %s, %d merges asked", st.State, watched.calls.Load())
	}
}

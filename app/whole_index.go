package app

import (
	"context"
	"fmt"
	"time"

	"calendar/app/calendar"
)

// An answer is true or an error. While the live index is not whole (filled
// in place from the store: a first start, an index lost or of a version
// this release does not serve, a store restored under it while stopped;
// being replaced beside itself, for a store restored under it while it
// served; or such a rebuild that failed), an empty, partial or stale list
// would look true and a cache would keep it. So everything that needs the index answers 503 with a
// Retry-After instead: every search and count of it (wholeIndex, the
// decorator every service reads the index through: lists, searches,
// facets, feeds, near me, map clusters, term counts, the counts rendered
// into items) and every write of a post or a term (writeThrough: its answer
// would show counts, and duplicate checks and unlinking search the index),
// before anything is written. What reads the store alone (an item without
// counts, users, the change feed) answers as ever. A rebuild beside a
// whole index leaves it serving: nothing is refused then.
type wholeIndex struct {
	calendar.Index
	rebuilds *reindexer
}

func (w wholeIndex) SearchPosts(ctx context.Context, q calendar.PostQuery) (calendar.PostPage, error) {
	if err := w.rebuilds.notWhole(); err != nil {
		return calendar.PostPage{}, err
	}
	return w.Index.SearchPosts(ctx, q)
}

func (w wholeIndex) SearchTerms(ctx context.Context, q calendar.TermQuery) ([]int64, error) {
	if err := w.rebuilds.notWhole(); err != nil {
		return nil, err
	}
	return w.Index.SearchTerms(ctx, q)
}

func (w wholeIndex) CountLinks(ctx context.Context, link calendar.Link, among calendar.PostQuery) (map[int64]int, error) {
	if err := w.rebuilds.notWhole(); err != nil {
		return nil, err
	}
	return w.Index.CountLinks(ctx, link, among)
}

// Retry-After while the index is not whole: the time the fill's pace so far
// says is left, within these bounds; a failed fill waits for someone.
const (
	retryWhileBuilding = 10 * time.Second // before the first batch gives a pace
	retryAtLeast       = time.Second
	retryAtMost        = time.Minute
	retryAfterFailure  = time.Minute
)

// notWhole is what answers a call that needs the live index while it is
// not whole; nil when it is. Cause says it in readyz's words.
func (r *reindexer) notWhole() *calendar.Error {
	if !r.partial.Load() {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	switch st := r.status; {
	case !r.partial.Load():
		return nil
	case r.running && r.replacing:
		e := calendar.NewError(calendar.KindUnavailable, "index_building", fmt.Sprintf(
			"The search index is being built from the store (%d of %d documents): lists, searches, feeds, counts and writes answer once it is whole; try again shortly.",
			st.DocumentsDone, st.DocumentsTotal))
		e.RetryAfter = timeLeft(time.Since(r.started), st.DocumentsDone, st.DocumentsTotal)
		e.Cause = fmt.Errorf("the index is being rebuilt: %d of %d documents", st.DocumentsDone, st.DocumentsTotal)
		return e
	default:
		e := calendar.NewError(calendar.KindUnavailable, "index_incomplete",
			"The search index is incomplete: building it from the store failed. Lists, searches, feeds, counts and writes answer once a rebuild ends well.")
		e.RetryAfter = retryAfterFailure
		e.Cause = fmt.Errorf("building the index in place failed (%s): it answers nothing until a rebuild ends well (POST /vendor/admin/v1/reindex, or a restart)", st.Error)
		return e
	}
}

// timeLeft is how long a fill that did done of total in elapsed should take
// still, within retryAtLeast and retryAtMost.
func timeLeft(elapsed time.Duration, done, total int64) time.Duration {
	if done <= 0 {
		return retryWhileBuilding
	}
	left := time.Duration(float64(elapsed) * float64(max(total-done, 0)) / float64(done))
	return min(max(left, retryAtLeast), retryAtMost)
}

package app

import "context"

// IndexStats is what operators watch of the index: its size and how far it
// trails the store's change feed.
type IndexStats struct {
	Documents  int64
	LastSeq    int64 // the store's
	AppliedSeq int64 // the index's checkpoint
	Rebuilding bool  // in place or beside the live index
}

// Lag is how many sequence numbers the index has yet to apply. The checkpoint
// can run ahead of LastSeq read a moment earlier, so it never goes below zero.
func (s IndexStats) Lag() int64 { return max(s.LastSeq-s.AppliedSeq, 0) }

// IndexStats reads the index's figures. AppliedSeq is read before LastSeq so
// that a write landing in between shows as lag rather than hiding it.
func (a *App) IndexStats(ctx context.Context) (IndexStats, error) {
	var st IndexStats
	var err error
	_, st.Rebuilding, _ = a.reindex.now()
	if st.Documents, err = a.index.DocCount(ctx); err != nil {
		return st, err
	}
	if st.AppliedSeq, err = a.index.AppliedSeq(ctx); err != nil {
		return st, err
	}
	st.LastSeq, err = a.store.LastSeq(ctx)
	return st, err
}

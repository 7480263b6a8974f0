package index

import (
	"context"

	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/index/scorch/mergeplan"
)

// A rebuild leaves the index in many segments (24 at a million events, once
// bleve's own merges settle), and every search opens each segment's
// dictionaries and bitmaps. Merged into as few as scorch makes (3 at a
// million events, in about 20 s, on one core), cold searches took 20 to 35 %
// less time. The merge runs in the background once the rebuilt index is
// live: neither readiness nor the swap of a successor waits for it, and
// searches and writes go on beside it.

// Compact merges the live index's segments in the background, once per
// index; Close stops it first.
func (l *Live) Compact() {
	s := l.hold()
	defer s.release()
	s.idx.compactInBackground()
}

func (i *Index) compactInBackground() {
	i.compaction.Lock()
	defer i.compaction.Unlock()
	if i.stopCompaction != nil {
		return // running, or done
	}
	adv, err := i.bleve.Advanced()
	if err != nil {
		return
	}
	sc, ok := adv.(*scorch.Scorch)
	if !ok {
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	i.stopCompaction, i.compactDone = func() { cancel(); <-done }, done
	go func() {
		defer close(done)
		// A merge that fails or is stopped leaves the segments as they
		// were: searches are slower, not wrong.
		_ = sc.ForceMerge(ctx, &mergeplan.SingleSegmentMergePlanOptions)
	}()
}

// Compacted waits for the live index's background merge, if one runs: for
// a command that rebuilds the index and exits.
func (l *Live) Compacted() {
	s := l.hold()
	defer s.release()
	s.idx.compaction.Lock()
	done := s.idx.compactDone
	s.idx.compaction.Unlock()
	if done != nil {
		<-done
	}
}

// stopCompacting stops a background merge and waits for it to end.
func (i *Index) stopCompacting() {
	i.compaction.Lock()
	stop := i.stopCompaction
	i.compaction.Unlock()
	if stop != nil {
		stop()
	}
}

package app

import (
	"context"
	"strings"
	"sync"
	"time"
)

// linkCounts caches CountLinks answers until the index changes: term counts are
// needed by every page that shows a term, and counting walks every event.
type linkCounts struct {
	mu      sync.Mutex
	entries map[string]countsEntry
}

type countsEntry struct {
	generation uint64
	counts     map[int64]int
}

// countLinks is Index.CountLinks, cached per index generation when there is no
// time bound. The map returned is shared: callers only read it.
func (s *postService) countLinks(ctx context.Context, link Link, statuses []string, startAfter *time.Time) (map[int64]int, error) {
	if startAfter != nil {
		return s.index.CountLinks(ctx, link, statuses, startAfter)
	}
	key := string(rune('0'+link)) + strings.Join(statuses, ",")
	gen := s.index.Generation()
	c := s.counts
	c.mu.Lock()
	e, ok := c.entries[key]
	c.mu.Unlock()
	if ok && e.generation == gen {
		return e.counts, nil
	}
	counts, err := s.index.CountLinks(ctx, link, statuses, nil)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	c.entries[key] = countsEntry{generation: gen, counts: counts}
	c.mu.Unlock()
	return counts, nil
}

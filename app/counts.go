package app

import (
	"context"
	"encoding/json"
	"sync"
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

// maxCachedCounts bounds the cache: one entry per link and per reader (the
// term counts everyone shares, has_events per author).
const maxCachedCounts = 1000

// countLinks is Index.CountLinks, cached per index generation when the query
// has no time bound (those change with the clock). The map returned is
// shared: callers only read it.
func (s *postService) countLinks(ctx context.Context, link Link, among PostQuery) (map[int64]int, error) {
	among.Type = PostTypeEvent
	if among.StartAfter != nil || among.StartBefore != nil {
		return s.index.CountLinks(ctx, link, among)
	}
	raw, err := json.Marshal(among)
	if err != nil {
		return nil, err
	}
	key := string(rune('0'+link)) + string(raw)
	gen := s.index.Generation()
	c := s.counts
	c.mu.Lock()
	e, ok := c.entries[key]
	c.mu.Unlock()
	if ok && e.generation == gen {
		return e.counts, nil
	}
	counts, err := s.index.CountLinks(ctx, link, among)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	if len(c.entries) >= maxCachedCounts {
		clear(c.entries)
	}
	c.entries[key] = countsEntry{generation: gen, counts: counts}
	c.mu.Unlock()
	return counts, nil
}

// publishedEvents are the events term counts count: published ones, as
// WordPress' term count does, the same for every caller.
var publishedEvents = PostQuery{Statuses: []string{StatusPublish}, Reader: readEverything}

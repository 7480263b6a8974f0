package app

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"sync"
)

// resultCache keeps the answers of the index (a page of IDs and the total) per
// query, for as long as the index does not change: the query holds everything
// that selects the answer, the caller's visibility included (its statuses),
// and the index generation changes with every write.
type resultCache struct {
	entries *lru[string, cachedResult]
	mu      sync.Mutex
	// computing holds the searches under way, by key and generation: the
	// same list asked for again meanwhile waits for that answer instead of
	// searching too (many clients asking for the front page at once after a
	// write would otherwise each run it).
	computing map[string]*search
}

type search struct {
	done chan struct{}
	page PostPage
	err  error
}

type cachedResult struct {
	generation uint64
	page       PostPage
}

func newResultCache(max int) *resultCache {
	return &resultCache{entries: newLRU[string, cachedResult](max), computing: map[string]*search{}}
}

// searchPosts answers a PostQuery from the cache when the index has not changed
// since it was computed, else from the index.
func (s *postService) searchPosts(ctx context.Context, q PostQuery) (PostPage, error) {
	c := s.results
	if c == nil || c.entries.max == 0 {
		return s.index.SearchPosts(ctx, q)
	}
	raw, err := json.Marshal(q)
	if err != nil {
		return s.index.SearchPosts(ctx, q)
	}
	key := string(raw)
	gen := s.index.Generation()
	c.mu.Lock() // held from the look-up to the flight, so that one search serves all who ask meanwhile
	if hit, ok := c.entries.get(key); ok && hit.generation == gen {
		c.mu.Unlock()
		return hit.page, nil
	}
	flight := key + "@" + strconv.FormatUint(gen, 10)
	if running, ok := c.computing[flight]; ok {
		c.mu.Unlock()
		select {
		case <-running.done:
			if !errors.Is(running.err, context.Canceled) && !errors.Is(running.err, context.DeadlineExceeded) {
				return running.page, running.err
			}
			return s.index.SearchPosts(ctx, q) // the first asker went away; this one has not
		case <-ctx.Done():
			return PostPage{}, ctx.Err()
		}
	}
	running := &search{done: make(chan struct{})}
	c.computing[flight] = running
	c.mu.Unlock()
	page, err := s.index.SearchPosts(ctx, q)
	running.page, running.err = page, err
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.computing, flight)
	close(running.done)
	if err == nil {
		c.entries.put(key, cachedResult{generation: gen, page: page})
	}
	return page, err
}

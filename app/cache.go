package app

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"sync"

	"calendar/app/calendar"
	"calendar/app/lru"
)

// The answers the service keeps, and the one rule that keeps them true: an
// answer computed from the index is valid for the index generation it was
// computed in. Every write a replica applies to its index (its own writes at
// once, another replica's when it syncs them) moves the generation, so every
// kept answer is dropped with it: nothing else ever invalidates one.
type generational[K comparable, V any] struct {
	entries *lru.Cache[K, kept[V]]
	max     int
}

type kept[V any] struct {
	generation uint64
	value      V
}

func newGenerational[K comparable, V any](max int) *generational[K, V] {
	return &generational[K, V]{entries: lru.New[K, kept[V]](max), max: max}
}

// get is the value kept for key if it was computed in generation gen.
func (c *generational[K, V]) get(key K, gen uint64) (V, bool) {
	var zero V
	if c.max == 0 {
		return zero, false
	}
	hit, ok := c.entries.Get(key)
	if !ok || hit.generation != gen {
		return zero, false
	}
	return hit.value, true
}

// put keeps a value computed in generation gen; nobody changes it afterwards.
func (c *generational[K, V]) put(key K, gen uint64, value V) {
	if c.max > 0 {
		c.entries.Put(key, kept[V]{generation: gen, value: value})
	}
}

// cachedIndex answers list searches and link counts from memory for as long
// as the index does not change: the query holds everything that selects an
// answer, the caller's read rule included. A list asked for again while it is
// being searched waits for that answer instead of searching too (many clients
// asking for the front page at once after a write would each run it).
type cachedIndex struct {
	calendar.Index
	results *generational[string, calendar.PostPage]
	counts  *generational[string, map[int64]int]
	mu      sync.Mutex
	running map[string]*search // by key and generation
}

type search struct {
	done chan struct{}
	page calendar.PostPage
	err  error
}

// maxCachedCounts bounds the link counts kept: one per link and read rule
// (the term counts everyone shares, has_events per author).
const maxCachedCounts = 1000

func newCachedIndex(idx calendar.Index, maxResults int) *cachedIndex {
	return &cachedIndex{Index: idx, results: newGenerational[string, calendar.PostPage](maxResults),
		counts: newGenerational[string, map[int64]int](maxCachedCounts), running: map[string]*search{}}
}

// SearchPosts answers a query from memory when the index has not changed
// since it was computed.
func (c *cachedIndex) SearchPosts(ctx context.Context, q calendar.PostQuery) (calendar.PostPage, error) {
	if c.results.max == 0 {
		return c.Index.SearchPosts(ctx, q)
	}
	raw, err := json.Marshal(q)
	if err != nil {
		return c.Index.SearchPosts(ctx, q)
	}
	key := string(raw)
	gen := c.Index.Generation()
	c.mu.Lock() // held from the look-up to the flight, so that one search serves all who ask meanwhile
	if page, ok := c.results.get(key, gen); ok {
		c.mu.Unlock()
		return page, nil
	}
	flight := key + "@" + strconv.FormatUint(gen, 10)
	if s, ok := c.running[flight]; ok {
		c.mu.Unlock()
		select {
		case <-s.done:
			if !errors.Is(s.err, context.Canceled) && !errors.Is(s.err, context.DeadlineExceeded) {
				return s.page, s.err
			}
			return c.Index.SearchPosts(ctx, q) // the first asker went away; this one has not
		case <-ctx.Done():
			return calendar.PostPage{}, ctx.Err()
		}
	}
	s := &search{done: make(chan struct{})}
	c.running[flight] = s
	c.mu.Unlock()
	s.page, s.err = c.Index.SearchPosts(ctx, q)
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.running, flight)
	close(s.done)
	if s.err == nil {
		c.results.put(key, gen, s.page)
	}
	return s.page, s.err
}

// CountLinks answers from memory when the query has no time bound (those
// change with the clock). The map returned is shared: callers only read it.
func (c *cachedIndex) CountLinks(ctx context.Context, link calendar.Link, among calendar.PostQuery) (map[int64]int, error) {
	if among.StartAfter != nil || among.StartBefore != nil {
		return c.Index.CountLinks(ctx, link, among)
	}
	raw, err := json.Marshal(among)
	if err != nil {
		return nil, err
	}
	key, gen := string(rune('0'+link))+string(raw), c.Index.Generation()
	if counts, ok := c.counts.get(key, gen); ok {
		return counts, nil
	}
	counts, err := c.Index.CountLinks(ctx, link, among)
	if err == nil {
		c.counts.put(key, gen, counts)
	}
	return counts, err
}

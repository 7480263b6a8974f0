package app

import (
	"container/list"
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"sync"
)

// The answers the service keeps, and the one rule that keeps them true: an
// answer computed from the index is valid for the index generation it was
// computed in. Every write a replica applies to its index (its own writes at
// once, another replica's when it syncs them) moves the generation, so every
// kept answer is dropped with it: nothing else ever invalidates one.
type generational[K comparable, V any] struct {
	entries *lru[K, kept[V]]
}

type kept[V any] struct {
	generation uint64
	value      V
}

func newGenerational[K comparable, V any](max int) *generational[K, V] {
	return &generational[K, V]{entries: newLRU[K, kept[V]](max)}
}

// get is the value kept for key if it was computed in generation gen.
func (c *generational[K, V]) get(key K, gen uint64) (V, bool) {
	var zero V
	if c.entries.max == 0 {
		return zero, false
	}
	hit, ok := c.entries.get(key)
	if !ok || hit.generation != gen {
		return zero, false
	}
	return hit.value, true
}

// put keeps a value computed in generation gen; nobody changes it afterwards.
func (c *generational[K, V]) put(key K, gen uint64, value V) {
	if c.entries.max > 0 {
		c.entries.put(key, kept[V]{generation: gen, value: value})
	}
}

// cachedIndex answers list searches and link counts from memory for as long
// as the index does not change: the query holds everything that selects an
// answer, the caller's read rule included. A list asked for again while it is
// being searched waits for that answer instead of searching too (many clients
// asking for the front page at once after a write would each run it).
type cachedIndex struct {
	Index
	results *generational[string, PostPage]
	counts  *generational[string, map[int64]int]
	mu      sync.Mutex
	running map[string]*search // by key and generation
}

type search struct {
	done chan struct{}
	page PostPage
	err  error
}

// maxCachedCounts bounds the link counts kept: one per link and read rule
// (the term counts everyone shares, has_events per author).
const maxCachedCounts = 1000

func newCachedIndex(idx Index, maxResults int) *cachedIndex {
	return &cachedIndex{Index: idx, results: newGenerational[string, PostPage](maxResults),
		counts: newGenerational[string, map[int64]int](maxCachedCounts), running: map[string]*search{}}
}

// SearchPosts answers a query from memory when the index has not changed
// since it was computed.
func (c *cachedIndex) SearchPosts(ctx context.Context, q PostQuery) (PostPage, error) {
	if c.results.entries.max == 0 {
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
			return PostPage{}, ctx.Err()
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
func (c *cachedIndex) CountLinks(ctx context.Context, link Link, among PostQuery) (map[int64]int, error) {
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

// lru is a map of at most max entries (or, with a cost, of values costing
// at most max in all) that forgets the least recently used one first; safe
// for concurrent use.
type lru[K comparable, V any] struct {
	mu      sync.Mutex
	max     int
	cost    func(V) int // nil: each entry costs 1
	used    int
	entries map[K]*list.Element
	order   *list.List // most recently used first
}

type lruEntry[K comparable, V any] struct {
	key   K
	value V
}

func newLRU[K comparable, V any](max int) *lru[K, V] {
	return &lru[K, V]{max: max, entries: map[K]*list.Element{}, order: list.New()}
}

// newCostedLRU is an lru whose values cost at most budget in all.
func newCostedLRU[K comparable, V any](budget int, cost func(V) int) *lru[K, V] {
	c := newLRU[K, V](budget)
	c.cost = cost
	return c
}

func (c *lru[K, V]) costOf(v V) int {
	if c.cost == nil {
		return 1
	}
	return c.cost(v)
}

func (c *lru[K, V]) get(key K) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.entries[key]
	if !ok {
		var zero V
		return zero, false
	}
	c.order.MoveToFront(el)
	return el.Value.(*lruEntry[K, V]).value, true
}

// remove forgets key.
func (c *lru[K, V]) remove(key K) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.entries[key]; ok {
		c.order.Remove(el)
		delete(c.entries, key)
		c.used -= c.costOf(el.Value.(*lruEntry[K, V]).value)
	}
}

func (c *lru[K, V]) put(key K, value V) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.costOf(value) > c.max {
		return // would push everything else out
	}
	if el, ok := c.entries[key]; ok {
		entry := el.Value.(*lruEntry[K, V])
		c.used += c.costOf(value) - c.costOf(entry.value)
		entry.value = value
		c.order.MoveToFront(el)
	} else {
		c.entries[key] = c.order.PushFront(&lruEntry[K, V]{key: key, value: value})
		c.used += c.costOf(value)
	}
	for c.used > c.max {
		oldest := c.order.Back()
		c.order.Remove(oldest)
		entry := oldest.Value.(*lruEntry[K, V])
		delete(c.entries, entry.key)
		c.used -= c.costOf(entry.value)
	}
}

// Package lru is a bounded map that forgets the least recently used entry
// first.
package lru

import (
	"container/list"
	"sync"
)

// Cache is a map of at most max entries (or, with a cost, of values costing
// at most max in all) that forgets the least recently used one first; safe
// for concurrent use.
type Cache[K comparable, V any] struct {
	mu      sync.Mutex
	max     int
	cost    func(V) int // nil: each entry costs 1
	used    int
	entries map[K]*list.Element
	order   *list.List // most recently used first
}

type entry[K comparable, V any] struct {
	key   K
	value V
}

func New[K comparable, V any](max int) *Cache[K, V] {
	return &Cache[K, V]{max: max, entries: map[K]*list.Element{}, order: list.New()}
}

// NewCosted is a Cache whose values cost at most budget in all.
func NewCosted[K comparable, V any](budget int, cost func(V) int) *Cache[K, V] {
	c := New[K, V](budget)
	c.cost = cost
	return c
}

func (c *Cache[K, V]) costOf(v V) int {
	if c.cost == nil {
		return 1
	}
	return c.cost(v)
}

func (c *Cache[K, V]) Get(key K) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.entries[key]
	if !ok {
		var zero V
		return zero, false
	}
	c.order.MoveToFront(el)
	return el.Value.(*entry[K, V]).value, true
}

// Remove forgets key.
func (c *Cache[K, V]) Remove(key K) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.entries[key]; ok {
		c.order.Remove(el)
		delete(c.entries, key)
		c.used -= c.costOf(el.Value.(*entry[K, V]).value)
	}
}

func (c *Cache[K, V]) Put(key K, value V) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.costOf(value) > c.max {
		return // would push everything else out
	}
	if el, ok := c.entries[key]; ok {
		entry := el.Value.(*entry[K, V])
		c.used += c.costOf(value) - c.costOf(entry.value)
		entry.value = value
		c.order.MoveToFront(el)
	} else {
		c.entries[key] = c.order.PushFront(&entry[K, V]{key: key, value: value})
		c.used += c.costOf(value)
	}
	for c.used > c.max {
		oldest := c.order.Back()
		c.order.Remove(oldest)
		entry := oldest.Value.(*entry[K, V])
		delete(c.entries, entry.key)
		c.used -= c.costOf(entry.value)
	}
}

// Len is how many entries are kept.
func (c *Cache[K, V]) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.entries)
}

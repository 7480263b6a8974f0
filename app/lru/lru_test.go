package lru

import (
	"slices"
	"testing"
)

// TestLRUForgetsTheLeastRecentlyUsedFirst: at its bound, the cache drops the
// entry nobody has read or written for longest; a read counts as a use.
func TestLRUForgetsTheLeastRecentlyUsedFirst(t *testing.T) {
	c := New[string, int](3)
	c.Put("a", 1)
	c.Put("b", 2)
	c.Put("c", 3)
	c.Get("a")     // b is now the least recently used
	c.Put("c", 30) // a write is a use too, and replaces the value
	c.Put("d", 4)  // drops b
	var kept []string
	for _, k := range []string{"a", "b", "c", "d"} {
		if _, ok := c.Get(k); ok {
			kept = append(kept, k)
		}
	}
	if !slices.Equal(kept, []string{"a", "c", "d"}) {
		t.Fatalf("kept %v, want [a c d]", kept)
	}
	if v, _ := c.Get("c"); v != 30 {
		t.Fatalf("c = %d, want 30", v)
	}
	if c.order.Len() != 3 || len(c.entries) != 3 {
		t.Fatalf("%d entries in order, %d in the map: want 3", c.order.Len(), len(c.entries))
	}
}

// TestACostedLRUKeepsItsBudget: with a cost, the bound is on the values' sum;
// a value dearer than the whole budget is not kept at all.
func TestACostedLRUKeepsItsBudget(t *testing.T) {
	c := NewCosted[string, string](10, func(v string) int { return len(v) })
	c.Put("a", "aaaa")
	c.Put("b", "bbbb")
	c.Put("c", "cccc") // 12 > 10: drops a
	if _, ok := c.Get("a"); ok || c.used != 8 {
		t.Fatalf("a kept, or used = %d, want 8", c.used)
	}
	c.Put("b", "b") // a smaller value frees its difference
	c.Put("huge", "hhhhhhhhhhh")
	if _, ok := c.Get("huge"); ok || c.used != 5 || len(c.entries) != 2 {
		t.Fatalf("used %d with %d entries, want 5 with 2", c.used, len(c.entries))
	}
}

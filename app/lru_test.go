package app

import (
	"slices"
	"testing"
)

// TestLRUForgetsTheLeastRecentlyUsedFirst: at its bound, the cache drops the
// entry nobody has read or written for longest; a read counts as a use.
func TestLRUForgetsTheLeastRecentlyUsedFirst(t *testing.T) {
	c := newLRU[string, int](3)
	c.put("a", 1)
	c.put("b", 2)
	c.put("c", 3)
	c.get("a")     // b is now the least recently used
	c.put("c", 30) // a write is a use too, and replaces the value
	c.put("d", 4)  // drops b
	var kept []string
	for _, k := range []string{"a", "b", "c", "d"} {
		if _, ok := c.get(k); ok {
			kept = append(kept, k)
		}
	}
	if !slices.Equal(kept, []string{"a", "c", "d"}) {
		t.Fatalf("kept %v, want [a c d]", kept)
	}
	if v, _ := c.get("c"); v != 30 {
		t.Fatalf("c = %d, want 30", v)
	}
	if c.order.Len() != 3 || len(c.entries) != 3 {
		t.Fatalf("%d entries in order, %d in the map: want 3", c.order.Len(), len(c.entries))
	}
}

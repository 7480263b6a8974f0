package app

// viewCache keeps rendered events, so that an event shown again, alone or in
// a list, is not rendered again from its venue, organizers and terms: those
// reads and the rendering took about a quarter of the server's CPU in the
// profiles of warm lists and of single GETs.
//
// An entry is one revision of an event (its ID and change sequence, so its own
// fields are always the stored ones) rendered in one index generation: what
// it embeds (venue, organizers, term names and counts) changes only with a
// write, and every write a replica applies to its index changes the
// generation. A replica so shows another's change to a venue once it has
// applied it, as its lists do.
type viewCache struct {
	entries *lru[viewKey, cachedView]
}

type viewKey struct {
	id, seq int64
	single  bool
	root    string
}

type cachedView struct {
	generation uint64
	view       EventView
}

// defaultViewCacheSize: rendered events are a few kB each.
const defaultViewCacheSize = 5000

func newViewCache(max int) *viewCache {
	return &viewCache{entries: newLRU[viewKey, cachedView](max)}
}

// get is the cached view of the key rendered in generation gen.
func (c *viewCache) get(key viewKey, gen uint64) (EventView, bool) {
	if c.entries.max == 0 || key.seq == 0 {
		return EventView{}, false
	}
	hit, ok := c.entries.get(key)
	return hit.view, ok && hit.generation == gen
}

// put keeps a view, which nobody changes afterwards: callers change their
// copies' own fields only (mask, Distance), never what they share with it.
func (c *viewCache) put(key viewKey, gen uint64, view EventView) {
	if c.entries.max > 0 && key.seq != 0 {
		c.entries.put(key, cachedView{generation: gen, view: view})
	}
}

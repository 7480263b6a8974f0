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
// generation (the rule of generational). A replica so shows another's change
// to a venue once it has applied it, as its lists do.
type viewCache struct {
	kept *generational[viewKey, EventView]
}

type viewKey struct {
	id, seq int64
	single  bool
	root    string
}

// defaultViewCacheSize: rendered events are a few kB each.
const defaultViewCacheSize = 5000

func newViewCache(max int) *viewCache {
	return &viewCache{kept: newGenerational[viewKey, EventView](max)}
}

// get is the view of the key rendered in generation gen.
func (c *viewCache) get(key viewKey, gen uint64) (EventView, bool) {
	if key.seq == 0 { // not stored yet: no revision to tell it by
		return EventView{}, false
	}
	return c.kept.get(key, gen)
}

// put keeps a view, which nobody changes afterwards: callers change their
// copies' own fields only (mask, Distance), never what they share with it.
func (c *viewCache) put(key viewKey, gen uint64, view EventView) {
	if key.seq != 0 {
		c.kept.put(key, gen, view)
	}
}

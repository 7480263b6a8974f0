package app

import (
	"context"
	"errors"

	"calendar/app/calendar"
	"calendar/app/wordpress"
)

// Events created together (an import run's, import_batch.go): each checked,
// permitted and linked as Create does it (newEvent, writing nothing else),
// then all stored in one write of the store and indexed in one batch.

// errWouldCreate answers newEvent, asked to write nothing but the event,
// for an event that would create a venue, an organizer or a term, sideload
// an image or make occurrences: it is created alone (Create).
var errWouldCreate = errors.New("the event's write creates other records")

// insertEvents stores new events, made by newEvent, in one write of the
// store, each under the first slug from its base that no stored event and
// no earlier one of them holds (as inserting them one after another would
// give), then indexes them together. When another writer took one of those
// slugs meanwhile, the events the store did not take are inserted alone
// (insert finds each a slug again).
func (s *Events) insertEvents(ctx context.Context, posts []*calendar.Post, bases []string) error {
	mine := map[string]bool{}
	for i, p := range posts {
		taken := func(ctx context.Context, slug string) (bool, error) {
			if mine[slug] {
				return true, nil
			}
			_, err := s.store.Posts().FindByKey(ctx, "type_slug", p.Type+"/"+slug)
			if errors.Is(err, calendar.ErrNotFound) {
				return false, nil
			}
			return err == nil, err
		}
		slug, _, err := wordpress.UniqueSlug(ctx, bases[i], 1, taken)
		if err != nil {
			return err
		}
		p.Slug, mine[slug] = slug, true
	}
	docs := make([]calendar.Document, len(posts))
	for i, p := range posts {
		docs[i] = p
	}
	err := s.sync.writeThroughMany(calendar.CollectionPosts, docs, func() error { return s.store.Posts().InsertMany(ctx, posts) },
		func(stored []int) error {
			batch := make([]*calendar.Post, len(stored))
			for i, n := range stored {
				batch[i] = posts[n]
			}
			return s.sync.putPosts(ctx, s.index, batch)
		})
	if !errors.Is(err, calendar.ErrConflict) {
		return err
	}
	for i, p := range posts {
		if p.ID == 0 {
			if err := s.insert(ctx, p, bases[i]); err != nil {
				return err
			}
		}
	}
	return nil
}

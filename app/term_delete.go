package app

import (
	"context"
	"time"

	"calendar/app/calendar"
)

// Deleting a category or a tag: its events are unlinked first, its children
// move up to its parent.

// Delete removes a term for good and answers it as it was; its children move
// up to its parent.
func (s *Terms) Delete(ctx context.Context, caller Caller, id int64) (*TermView, error) {
	if caller.User == nil { // before anything is read
		return nil, calendar.ErrForbidden(nil)
	}
	t, err := s.load(ctx, id)
	if err != nil {
		return nil, err
	}
	if err := s.mayManage(caller.User); err != nil {
		return nil, err
	}
	if err := caller.Expect.holds(t.Seq, time.Time{}); err != nil {
		return nil, err // before its children and events are changed
	}
	previous, err := s.withCount(ctx, t, caller)
	if err != nil {
		return nil, err
	}
	if s.kind.hierarchical {
		parent := t.ID
		children, err := s.index.SearchTerms(ctx, calendar.TermQuery{Taxonomy: t.Taxonomy, Parent: &parent})
		if err != nil {
			return nil, err
		}
		kids, err := s.store.Terms().GetMany(ctx, children)
		if err != nil {
			return nil, err
		}
		for _, c := range kids {
			err := s.editTerm(ctx, c, Precondition{}, func(c *calendar.Term) error {
				if c.Parent != t.ID {
					return errUnchanged
				}
				c.Parent = t.Parent
				return nil
			})
			if err := ignoreMissing(err); err != nil {
				return nil, err
			}
		}
	}
	err = s.posts.forEachPost(ctx, s.editEvent,
		func(q *calendar.PostQuery) {
			if s.kind.taxonomy == calendar.TaxonomyTag {
				q.Tags = []int64{t.ID}
			} else {
				q.Categories = []int64{t.ID}
			}
		},
		func(e *calendar.Post) error {
			if !containsID(e.Categories, t.ID) && !containsID(e.Tags, t.ID) {
				return errUnchanged
			}
			e.Categories, e.Tags = withoutID(e.Categories, t.ID), withoutID(e.Tags, t.ID)
			return nil
		})
	if err != nil {
		return nil, err
	}
	return previous, s.discardTerm(ctx, t, caller.Expect, nil)
}

package app

import (
	"context"

	"calendar/app/calendar"
)

// Who may see a term. A term made through the term routes is public, as
// WordPress' terms are. A term an event write made by naming it is shown
// only with an event the caller may read, or to those who manage terms:
// a category an editor names in a draft ("Spring launch") must not be
// listed, read, filtered on or followed in the change feed before the
// event that carries it may be read.

//
// A term stored before terms were marked (neither FromEvent nor
// FromRoutes) may have been made by an event write: it is hidden while
// events carry it but none the caller may read (a category an older
// release made for a draft), and shown when no event carries it (an empty
// category made through the routes). The rule reads the index, not a mark
// written once, so it needs no migration: nothing to run twice or on
// several replicas at once, and it holds on either store.

// hidden returns the rule for one caller: which terms it may not see.
// Managers see every term; otherwise two index counts (kept per index
// generation) decide: the terms of the events the caller may read, and of
// every event but those in the trash.
func (s *Terms) hidden(ctx context.Context, actor *calendar.User) (func(*calendar.Term) bool, error) {
	if s.mayManage(actor) == nil {
		return func(*calendar.Term) bool { return false }, nil
	}
	readable := calendar.PostQuery{Type: calendar.PostTypeEvent, Statuses: calendar.OwnStatuses, Reader: calendar.ReadRuleOf(actor)}
	counts, err := s.posts.index.CountLinks(ctx, calendar.LinkTerms, readable)
	if err != nil {
		return nil, err
	}
	all := readable
	all.Reader = calendar.ReadEverything
	carried, err := s.posts.index.CountLinks(ctx, calendar.LinkTerms, all)
	if err != nil {
		return nil, err
	}
	return func(t *calendar.Term) bool {
		switch {
		case t.FromRoutes || counts[t.ID] > 0:
			return false
		case t.FromEvent:
			return true
		}
		return carried[t.ID] > 0 // stored before the marks
	}, nil
}

// visibleIDs keeps the IDs of the terms the caller may see, in order.
func (s *Terms) visibleIDs(ctx context.Context, actor *calendar.User, ids []int64) ([]int64, error) {
	hidden, err := s.hidden(ctx, actor)
	if err != nil || len(ids) == 0 {
		return ids, err
	}
	terms, err := s.store.Terms().GetMany(ctx, ids)
	if err != nil {
		return nil, err
	}
	seen := map[int64]bool{}
	for _, t := range terms {
		seen[t.ID] = !hidden(t)
	}
	out := ids[:0:0]
	for _, id := range ids {
		if seen[id] {
			out = append(out, id)
		}
	}
	return out, nil
}

package app

import (
	"context"
	"errors"
	"maps"
	"math/rand/v2"
	"slices"
	"time"

	"calendar/app/calendar"
)

// Every write of a stored record is a compare-and-swap on its revision (its
// change sequence, which every write renews): the store writes only if the
// record is still as its writer read it. When another write came in between,
// the change is applied again to the record as it is now, so nothing another
// writer acknowledged is lost and a partial update still changes only what
// its caller sent. This file owns that loop; no service writes around it.

// maxWriteAttempts bounds how often one write is applied again to a newer
// state before it is answered 409: each attempt lost to a write that
// committed in between, so many writers of one record still all get through.
const maxWriteAttempts = 16

// errUnchanged, returned by a change, leaves the record as it is: the change
// no longer applies to the record as it is now. The write succeeds.
var errUnchanged = errors.New("nothing to change")

// errBusy answers a write that gave up on a record another writer kept
// changing.
func errBusy() *calendar.Error {
	return calendar.NewError(calendar.KindConflict, "rest_conflict", "Other requests kept changing the same item; try again.")
}

// Precondition is what a client's conditional write expects of the item it
// names (If-Match, If-Unmodified-Since); the zero value expects nothing.
type Precondition struct {
	// Revisions, when not nil, are the revisions the item may be at: those
	// the client's entity tags name (If-Match; empty: none matches).
	Revisions []int64
	// UnmodifiedSince, when set, is the instant the item may not have been
	// modified after (If-Unmodified-Since; items without a modification
	// time pass).
	UnmodifiedSince time.Time
}

// ErrPreconditionFailed answers a conditional write of an item that changed
// since the client read it.
func ErrPreconditionFailed() *calendar.Error {
	return calendar.NewError(calendar.KindPreconditionFailed, "rest_precondition_failed",
		"The item changed since the version your request names (If-Match, If-Unmodified-Since); read it again.")
}

// holds checks the precondition against the record as it is now.
func (c Precondition) holds(revision int64, modified time.Time) error {
	if c.Revisions != nil && !slices.Contains(c.Revisions, revision) {
		return ErrPreconditionFailed()
	}
	if !c.UnmodifiedSince.IsZero() && !modified.IsZero() && modified.After(c.UnmodifiedSince) {
		return ErrPreconditionFailed()
	}
	return nil
}

// casLoop runs attempt on doc; when the store finds doc stale, it waits a
// little (more after each loss, with jitter, so that writers that collide
// spread out), reads the record again and runs attempt on that, at most
// maxWriteAttempts times. It returns the record as last read or written.
func casLoop[T calendar.Document](ctx context.Context, doc T, reread func() (T, error), attempt func(T) error) (T, error) {
	for n := 1; ; n++ {
		err := attempt(doc)
		if !errors.Is(err, calendar.ErrStale) {
			return doc, err
		}
		if n == maxWriteAttempts {
			return doc, errBusy()
		}
		if err := pause(ctx, time.Duration(n)*time.Millisecond); err != nil {
			return doc, err
		}
		next, err := reread()
		if err != nil { // gone meanwhile, or unreadable: the caller keeps the state it last had
			return doc, err
		}
		doc = next
	}
}

// pause sleeps up to twice d, at random, or until ctx ends.
func pause(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d/2 + rand.N(d+1))
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// postWrite says how one write of a post goes.
type postWrite struct {
	// expect is the client's precondition.
	expect Precondition
	// keepModified leaves the modification time as it is: bookkeeping that
	// changes none of the post's own fields.
	keepModified bool
	// lease is the series lease this write holds ("" none): a series leased
	// by another is written once that lease ends (see series_lease.go), or
	// with noWait, not at all (errLeaseTaken).
	lease  string
	noWait bool
	// spender is the account whose allowance pays for the occurrences a
	// write of a series has made (nil: the service's own writes).
	spender *calendar.User
}

// edit applies change to the post as stored and writes it to the store (a
// compare-and-swap) and then the index. change must depend only on the post
// it is given and on what the caller sent, since it runs again on a newer
// state after a lost race; it may refuse (its error ends the write) or
// return errUnchanged. p is the post as the caller read it; it is left as
// written (or as last read, when the write did not happen).
func (s *postService) edit(ctx context.Context, p *calendar.Post, w postWrite, change func(*calendar.Post) error) error {
	var moved bool
	out, err := casLoop(ctx, p, func() (*calendar.Post, error) { return s.store.Posts().Get(ctx, p.ID) }, func(cur *calendar.Post) error {
		if err := s.awaitLease(ctx, cur, w.lease, w.noWait); err != nil {
			return err
		}
		if err := w.expect.holds(cur.Seq, cur.Modified); err != nil {
			return err
		}
		next := clonePost(cur)
		switch err := change(next); {
		case errors.Is(err, errUnchanged):
			return nil
		case err != nil:
			return err
		}
		if !w.keepModified {
			next.Modified = s.now().UTC().Truncate(time.Second)
			next.Revisions++
		}
		next.NoteChanges(cur)
		err := s.sync.writeThrough(calendar.CollectionPosts, next, false, func() error { return s.store.Posts().Update(ctx, next) },
			func() error { return s.sync.putPosts(ctx, s.index, []*calendar.Post{next}) })
		if err == nil {
			moved = placeOf(cur) != placeOf(next)
			*cur = *next
		}
		return err
	})
	if out != p {
		*p = *out
	}
	if err == nil && moved {
		// A venue hidden, shown or moved: its events, in the index, are
		// where it now is before the write is answered (the catch-up
		// places them again; see placeEventsOf). The write is done, so
		// this is too.
		err = s.sync.catchUp(context.WithoutCancel(ctx))
	}
	return err
}

// placeOf is where a venue's events are found (PositionKey of its public
// position; "" for any other post).
func placeOf(p *calendar.Post) string {
	if p.Type != calendar.PostTypeVenue {
		return ""
	}
	return calendar.PositionKey(calendar.PublicPosition(p))
}

// discard deletes the post for good, from the store (a compare-and-swap)
// and then the index. check, when not nil, runs on the post as stored
// before each attempt and may refuse (errUnchanged keeps it: the delete
// no longer applies). A post already gone is not an error.
func (s *postService) discard(ctx context.Context, p *calendar.Post, w postWrite, check func(*calendar.Post) error) error {
	_, err := casLoop(ctx, p, func() (*calendar.Post, error) { return s.store.Posts().Get(ctx, p.ID) }, func(cur *calendar.Post) error {
		if err := s.awaitLease(ctx, cur, w.lease, w.noWait); err != nil {
			return err
		}
		if err := w.expect.holds(cur.Seq, cur.Modified); err != nil {
			return err
		}
		if check != nil {
			if err := check(cur); err != nil {
				return err
			}
		}
		return s.sync.writeThrough(calendar.CollectionPosts, cur, true, func() error { return s.store.Posts().Delete(ctx, cur.ID, cur.Seq) },
			func() error { return s.index.DeletePost(ctx, cur.ID) })
	})
	if errors.Is(err, calendar.ErrNotFound) || errors.Is(err, errUnchanged) {
		return nil
	}
	return err
}

// clonePost copies a post deeply enough that a change to the copy leaves
// the original as read: slices and maps are copied.
func clonePost(p *calendar.Post) *calendar.Post {
	c := *p
	c.Meta = cloneMap(p.Meta)
	c.Categories, c.Tags, c.Organizers = slices.Clone(p.Categories), slices.Clone(p.Tags), slices.Clone(p.Organizers)
	c.Cost, c.Recurrence, c.Excluded = slices.Clone(p.Cost), slices.Clone(p.Recurrence), slices.Clone(p.Excluded)
	c.Changed, c.Standings = maps.Clone(p.Changed), slices.Clone(p.Standings)
	if p.Custom != nil {
		c.Custom = make(map[string][]string, len(p.Custom))
		for k, v := range p.Custom {
			c.Custom[k] = slices.Clone(v)
		}
	}
	return &c
}

func cloneMap(m map[string]string) map[string]string {
	if m == nil {
		return nil
	}
	c := make(map[string]string, len(m))
	for k, v := range m {
		c[k] = v
	}
	return c
}

// editTerm is edit for a term: change runs on the term as stored, again
// after a lost race.
func (s *Terms) editTerm(ctx context.Context, t *calendar.Term, expect Precondition, change func(*calendar.Term) error) error {
	out, err := casLoop(ctx, t, func() (*calendar.Term, error) { return s.store.Terms().Get(ctx, t.ID) }, func(cur *calendar.Term) error {
		if err := expect.holds(cur.Seq, time.Time{}); err != nil {
			return err
		}
		next := *cur
		next.Changed = maps.Clone(cur.Changed)
		switch err := change(&next); {
		case errors.Is(err, errUnchanged):
			return nil
		case err != nil:
			return err
		}
		next.NoteChanges(cur)
		err := s.posts.sync.writeThrough(calendar.CollectionTerms, &next, false, func() error { return s.store.Terms().Update(ctx, &next) },
			func() error { return s.index.PutTerms(ctx, []*calendar.Term{&next}) })
		if err == nil {
			*cur = next
		}
		return err
	})
	if out != t {
		*t = *out
	}
	return err
}

// discardTerm deletes a term for good, if it is still as read, else as it
// is now (check decides again).
func (s *Terms) discardTerm(ctx context.Context, t *calendar.Term, expect Precondition, check func(*calendar.Term) error) error {
	_, err := casLoop(ctx, t, func() (*calendar.Term, error) { return s.store.Terms().Get(ctx, t.ID) }, func(cur *calendar.Term) error {
		if err := expect.holds(cur.Seq, time.Time{}); err != nil {
			return err
		}
		if check != nil {
			if err := check(cur); err != nil {
				return err
			}
		}
		return s.posts.sync.writeThrough(calendar.CollectionTerms, cur, true, func() error { return s.store.Terms().Delete(ctx, cur.ID, cur.Seq) },
			func() error { return s.index.DeleteTerm(ctx, cur.ID) })
	})
	return ignoreMissing(err)
}

// get loads a user; a missing one is the endpoint's answer for it.
func (s *Users) get(ctx context.Context, id int64) (*calendar.User, error) {
	u, err := s.repo.Get(ctx, id)
	if err != nil {
		return nil, userGone(err)
	}
	return u, nil
}

// editUser is edit for a user (users are not indexed): change runs on the
// user as stored, again on a newer state after a lost race. A user kept
// with the one password of before keeps it among their passwords. A change
// that would take a usable administrator away is written under the guard
// of administrators, and only if another remains (administrators.go).
func (s *Users) editUser(ctx context.Context, id int64, expect Precondition, change func(*calendar.User) error) (*calendar.User, error) {
	u, err := s.get(ctx, id)
	if err != nil {
		return nil, err
	}
	guard := s.guardOf(guardOfAdministrators)
	defer guard.release(ctx)
	out, err := casLoop(ctx, u, func() (*calendar.User, error) { return s.get(ctx, id) }, func(cur *calendar.User) error {
		if err := expect.holds(cur.Seq, time.Time{}); err != nil {
			return err
		}
		next := *cur
		next.Passwords, next.PasswordHash = slices.Clone(cur.ApplicationPasswords()), ""
		switch err := change(&next); {
		case errors.Is(err, errUnchanged):
			return nil
		case err != nil:
			return err
		}
		if err := s.keepAnAdministrator(ctx, guard, cur, &next); err != nil {
			return err
		}
		if err := s.repo.Update(ctx, &next); err != nil {
			return err
		}
		*cur = next
		return nil
	})
	return out, userGone(err)
}

// userGone is the endpoint's answer for a user that is not there, or was
// deleted during a write.
func userGone(err error) error {
	if errors.Is(err, calendar.ErrNotFound) {
		return itemErrors.userMissing()
	}
	return err
}

// discardUser deletes a user for good (a compare-and-swap, again on a newer
// state after a lost race) and answers the user as last stored. A usable
// administrator is deleted under the guard of administrators, and only if
// another remains.
func (s *Users) discardUser(ctx context.Context, id int64, expect Precondition) (*calendar.User, error) {
	u, err := s.get(ctx, id)
	if err != nil {
		return nil, err
	}
	guard := s.guardOf(guardOfAdministrators)
	defer guard.release(ctx)
	out, err := casLoop(ctx, u, func() (*calendar.User, error) { return s.get(ctx, id) }, func(cur *calendar.User) error {
		if err := expect.holds(cur.Seq, time.Time{}); err != nil {
			return err
		}
		if err := s.keepAnAdministrator(ctx, guard, cur, nil); err != nil {
			return err
		}
		return s.repo.Delete(ctx, cur.ID, cur.Seq)
	})
	return out, userGone(err)
}

// editGuard applies change to a guard as stored (a compare-and-swap, again
// on a newer state after a lost race); g is left as last read or written.
func editGuard(ctx context.Context, guards calendar.Repo[*calendar.Guard], g *calendar.Guard, change func(*calendar.Guard) error) error {
	out, err := casLoop(ctx, g, func() (*calendar.Guard, error) { return guards.Get(ctx, g.ID) }, func(cur *calendar.Guard) error {
		next := *cur
		switch err := change(&next); {
		case errors.Is(err, errUnchanged):
			return nil
		case err != nil:
			return err
		}
		if err := guards.Update(ctx, &next); err != nil {
			return err
		}
		*cur = next
		return nil
	})
	if out != g {
		*g = *out
	}
	return err
}

// record is a stored record type whose value a write copies (a pointer to
// U that is a calendar.Document).
type record[U any] interface {
	*U
	calendar.Document
}

// editRecord applies change to a record of repo as stored: a
// compare-and-swap, again on a newer state after a lost race, of a copy
// (clone) so that a refused change leaves the record as read; errUnchanged
// writes nothing; expect is checked against each state's revision. rec is
// left as last read or written. The records the app's services keep beside
// posts, terms and users (subscriptions, import sources and items) are all
// written so, each changing only its own fields.
func editRecord[U any, T record[U]](ctx context.Context, repo calendar.Repo[T], rec T, expect Precondition, clone func(T) T, change func(T) error) error {
	out, err := casLoop(ctx, rec, func() (T, error) { return repo.Get(ctx, rec.DocID()) }, func(cur T) error {
		if err := expect.holds(cur.DocSeq(), time.Time{}); err != nil {
			return err
		}
		next := clone(cur)
		switch err := change(next); {
		case errors.Is(err, errUnchanged):
			return nil
		case err != nil:
			return err
		}
		if err := repo.Update(ctx, next); err != nil {
			return err
		}
		*cur = *next
		return nil
	})
	if out != rec {
		*rec = *out
	}
	return err
}

// discardRecord deletes a record of repo for good (a compare-and-swap,
// again on a newer state after a lost race) and answers it as last stored.
func discardRecord[T calendar.Document](ctx context.Context, repo calendar.Repo[T], rec T, expect Precondition) (T, error) {
	return casLoop(ctx, rec, func() (T, error) { return repo.Get(ctx, rec.DocID()) }, func(cur T) error {
		if err := expect.holds(cur.DocSeq(), time.Time{}); err != nil {
			return err
		}
		return repo.Delete(ctx, cur.DocID(), cur.DocSeq())
	})
}

// editWebhook applies change to a subscription as stored (editRecord: its
// owner's edit and the dispatcher's progress both go through here).
func (s *Webhooks) editWebhook(ctx context.Context, w *calendar.Webhook, expect Precondition, change func(*calendar.Webhook) error) error {
	return webhookGone(editRecord(ctx, s.store.Webhooks(), w, expect, cloneWebhook, change))
}

// discardWebhook deletes a subscription for good and answers it as last
// stored.
func (s *Webhooks) discardWebhook(ctx context.Context, w *calendar.Webhook, expect Precondition) (*calendar.Webhook, error) {
	out, err := discardRecord(ctx, s.store.Webhooks(), w, expect)
	return out, webhookGone(err)
}

// webhookGone is the answer for a subscription deleted during a write.
func webhookGone(err error) error {
	if errors.Is(err, calendar.ErrNotFound) {
		return itemErrors.webhookMissing()
	}
	return err
}

func cloneWebhook(w *calendar.Webhook) *calendar.Webhook {
	c := *w
	c.Types, c.Secrets, c.Attempts = slices.Clone(w.Types), slices.Clone(w.Secrets), slices.Clone(w.Attempts)
	if w.Failing != nil {
		f := *w.Failing
		c.Failing = &f
	}
	if w.Lease != nil {
		l := *w.Lease
		c.Lease = &l
	}
	return &c
}

// editImport applies change to an import source as stored (editRecord:
// its manager's edit and a run's progress both go through here).
func (s *Imports) editImport(ctx context.Context, src *calendar.ImportSource, expect Precondition, change func(*calendar.ImportSource) error) error {
	return importGone(editRecord(ctx, s.store.Imports(), src, expect, cloneImport, change))
}

// discardImport deletes a source for good and answers it as last stored.
func (s *Imports) discardImport(ctx context.Context, src *calendar.ImportSource, expect Precondition) (*calendar.ImportSource, error) {
	out, err := discardRecord(ctx, s.store.Imports(), src, expect)
	return out, importGone(err)
}

// editImportItem applies change to what an item of a source became
// (editRecord; an item has no reference fields to copy).
func (s *Imports) editImportItem(ctx context.Context, it *calendar.ImportItem, change func(*calendar.ImportItem) error) error {
	return editRecord(ctx, s.store.ImportItems(), it, Precondition{}, func(cur *calendar.ImportItem) *calendar.ImportItem {
		next := *cur
		return &next
	}, change)
}

// importGone is the answer for a source deleted during a write.
func importGone(err error) error {
	if errors.Is(err, calendar.ErrNotFound) {
		return errImportMissing()
	}
	return err
}

func cloneImport(src *calendar.ImportSource) *calendar.ImportSource {
	c := *src
	c.Categories, c.Tags, c.Runs = slices.Clone(src.Categories), slices.Clone(src.Tags), slices.Clone(src.Runs)
	if src.Running != nil {
		r := *src.Running
		c.Running = &r
	}
	if src.Lease != nil {
		l := *src.Lease
		c.Lease = &l
	}
	return &c
}

// editFieldSet applies change to the set of custom field declarations as
// stored (a compare-and-swap, again on a newer state after a lost race; the
// first declaration inserts the set, and an insert that lost to another
// replica's is applied again to that one) and makes the result the one
// this replica knows. expect is checked against the set's revision.
func (s *Fields) editFieldSet(ctx context.Context, expect Precondition, change func(*calendar.FieldSet) error) (*calendar.FieldSet, error) {
	repo := s.store.Fields()
	read := func() (*calendar.FieldSet, error) {
		set, err := repo.FindByKey(ctx, "name", calendar.FieldSetName)
		if errors.Is(err, calendar.ErrNotFound) {
			return &calendar.FieldSet{Name: calendar.FieldSetName}, nil
		}
		return set, err
	}
	first, err := read()
	if err != nil {
		return nil, err
	}
	out, err := casLoop(ctx, first, read, func(cur *calendar.FieldSet) error {
		if err := expect.holds(cur.Seq, cur.Modified); err != nil {
			return err
		}
		next := cloneFieldSet(cur)
		if err := change(next); err != nil {
			return err
		}
		next.Modified = s.now().UTC().Truncate(time.Second)
		write := repo.Update
		if next.ID == 0 {
			write = repo.Insert
		}
		switch err := write(ctx, next); {
		case errors.Is(err, calendar.ErrConflict) && next.ID == 0:
			return calendar.ErrStale // another replica inserted it meanwhile: applied again to theirs
		case err != nil:
			return err
		}
		*cur = *next
		return nil
	})
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	s.learn(out)
	s.mu.Unlock()
	return out, nil
}

func cloneFieldSet(set *calendar.FieldSet) *calendar.FieldSet {
	c := *set
	c.Fields = make([]calendar.FieldDeclaration, len(set.Fields))
	for i, d := range set.Fields {
		d.Options, d.PostTypes = slices.Clone(d.Options), slices.Clone(d.PostTypes)
		c.Fields[i] = d
	}
	return &c
}

package app

import (
	"context"
	"errors"
	"log/slog"
	"maps"
	"slices"
	"time"

	"calendar/app/calendar"
)

// Bringing the index, and the posts' values, in line with the custom field
// declarations. A change of a declaration that the index or the values
// depend on (calendar.FieldShape) is done in the background, a batch of the
// posts holding the field at a time, in the order of their IDs: a value the
// declaration no longer accepts is removed through the post's write loop
// (which indexes it), every other holder is indexed again under the sync
// gate. Nothing answers 503 meanwhile.
//
// The index records what it is indexed under and the job under way
// (calendar.FieldsIndexed: the revision, the keys, the last post ID done),
// written after each batch, as it records how far it followed the change
// feed: each replica keeps an index of its own, so each brings its own in
// line, and the job's fence is the index's (one process holds it; one job
// at a time in it, upkeep). A restart, or the first job of a replica that
// was down when the declarations changed, compares what the index records
// with the set in the store and resumes or starts the job; a batch done is
// never done again for the same revision. A newer revision learnt while a
// job runs ends it after its batch; the next one takes its keys and the new
// ones from the first post again.

// fieldsRetry is how long Run waits after a failed job before trying again.
const fieldsRetry = 10 * time.Second

// Run brings the index in line with the declarations now, then whenever a
// change of them is learnt (a write on this replica, another's from the
// change feed), until ctx ends (the service's stop): the job under way
// stops after its batch and Run returns; the next start resumes it.
func (s *Fields) Run(ctx context.Context) {
	for {
		var retry <-chan time.Time
		if err := s.Settle(ctx); err != nil && ctx.Err() == nil {
			slog.Error("custom fields: bringing the index in line with the declarations failed", "error", err)
			retry = time.After(fieldsRetry)
		}
		select {
		case <-ctx.Done():
			return
		case <-s.kicks:
		case <-retry:
		}
	}
}

// Settle brings the index in line with the declarations as the store holds
// them now, resuming the job the index records, and returns once it is (or
// ctx ended, or a step failed: the job stays recorded where it was).
func (s *Fields) Settle(ctx context.Context) error {
	s.upkeep.Lock()
	defer s.upkeep.Unlock()
	for {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if s.rebuilding() {
			return nil
		}
		set, err := s.refresh(ctx)
		if err != nil {
			return err
		}
		idx := s.sync.index
		have, err := idx.FieldsIndexed(ctx)
		if err != nil {
			return err
		}
		job := nextFieldsJob(have, set)
		if job == nil {
			if have.Revision == set.Seq && have.Shapes != nil {
				return nil
			}
			return idx.SetFieldsIndexed(ctx, fieldsIndexedAs(set))
		}
		have.Job = job
		if err := idx.SetFieldsIndexed(ctx, have); err != nil {
			return err
		}
		superseded, err := s.carry(ctx, &have)
		switch {
		case errors.Is(err, errRebuilding):
			return nil
		case err != nil:
			return err
		case superseded:
			continue
		}
		if err := idx.SetFieldsIndexed(ctx, fieldsIndexedAs(set)); err != nil {
			return err
		}
	}
}

// rebuilding: while the index is rebuilt, in place or beside, the upkeep
// waits for its end (which tells Run): the fill indexes every post under
// the declarations it read first, and records them in the new index; a job
// on the old one would record its progress in the new one once swapped.
func (s *Fields) rebuilding() bool {
	_, running, _ := s.sync.rebuilds.now()
	return running || s.sync.rebuilds.notWhole() != nil
}

var errRebuilding = errors.New("the index is being rebuilt")

// fieldsIndexedAs is what an index holding every post under set records.
func fieldsIndexedAs(set *calendar.FieldSet) calendar.FieldsIndexed {
	shapes := map[string]string{}
	for i := range set.Fields {
		shapes[set.Fields[i].Key] = calendar.FieldShape(&set.Fields[i])
	}
	return calendar.FieldsIndexed{Revision: set.Seq, Shapes: shapes}
}

// nextFieldsJob is the job that brings an index recording have in line
// with set: the one recorded when it is for set's revision (resumed after
// its last batch); else, from the first post, the keys whose shape differs
// from what the index holds, with those of a job left unfinished (every
// declared key when the index records nothing). nil: nothing to do.
func nextFieldsJob(have calendar.FieldsIndexed, set *calendar.FieldSet) *calendar.FieldsJob {
	if have.Job != nil && have.Job.Revision == set.Seq {
		return have.Job
	}
	want := fieldsIndexedAs(set).Shapes
	keys := map[string]bool{}
	for k, shape := range want {
		if have.Shapes == nil || have.Shapes[k] != shape {
			keys[k] = true
		}
	}
	for k := range have.Shapes {
		if _, declared := want[k]; !declared {
			keys[k] = true
		}
	}
	if have.Job != nil {
		for _, k := range have.Job.Keys {
			keys[k] = true
		}
	}
	if len(keys) == 0 {
		return nil
	}
	return &calendar.FieldsJob{Revision: set.Seq, Keys: slices.Sorted(maps.Keys(keys))}
}

// carry does have.Job batch after batch, recording each one done, until
// it is done, ctx ends, or a newer revision of the declarations is learnt
// (superseded).
func (s *Fields) carry(ctx context.Context, have *calendar.FieldsIndexed) (superseded bool, err error) {
	job := have.Job
	var ids []int64
	for _, k := range job.Keys {
		found, err := s.holding(ctx, k)
		if err != nil {
			return false, err
		}
		ids = append(ids, found...)
	}
	slices.Sort(ids)
	ids = slices.Compact(ids)
	ids = ids[sortedAfter(ids, job.After):]
	for start := 0; start < len(ids); start += s.batch {
		if err := ctx.Err(); err != nil {
			return false, err
		}
		if known, err := s.current(ctx); err != nil || known.Seq != job.Revision {
			return err == nil, err
		}
		if s.rebuilding() {
			return false, errRebuilding
		}
		batch := ids[start:min(start+s.batch, len(ids))]
		if err := s.bringInLine(ctx, batch, job.Keys); err != nil {
			return false, err
		}
		job.After = batch[len(batch)-1]
		if err := s.sync.index.SetFieldsIndexed(ctx, *have); err != nil {
			return false, err
		}
	}
	return false, nil
}

// sortedAfter is the position of the first ID above after in sorted ids.
func sortedAfter(ids []int64, after int64) int {
	i, found := slices.BinarySearch(ids, after)
	if found {
		i++
	}
	return i
}

// bringInLine removes from the posts ids the values of keys the
// declarations no longer accept (through the posts' write loop, which
// indexes them), and indexes the others again as the store holds them,
// under the sync gate held exclusively (so no write is between its store
// write and its index write meanwhile).
func (s *Fields) bringInLine(ctx context.Context, ids []int64, keys []string) error {
	posts, err := s.store.Posts().GetMany(ctx, ids)
	if err != nil {
		return err
	}
	set, err := s.current(ctx)
	if err != nil {
		return err
	}
	var again []int64
	for _, p := range posts {
		if !holdsInvalid(set, p, keys) {
			again = append(again, p.ID)
			continue
		}
		edited := false
		err := s.posts.edit(ctx, p, postWrite{keepModified: true}, func(p *calendar.Post) error {
			set, err := s.current(ctx)
			if err != nil {
				return err
			}
			if edited = holdsInvalid(set, p, keys); !edited {
				return errUnchanged
			}
			for _, key := range keys {
				if kept := validValues(set.Field(key), p.Type, p.Custom[key]); len(kept) == 0 {
					delete(p.Custom, key)
				} else {
					p.Custom[key] = kept
				}
			}
			return nil
		})
		switch {
		case err == nil && !edited: // made valid meanwhile: indexed below
			again = append(again, p.ID)
		case err != nil && !errors.Is(err, calendar.ErrNotFound):
			return err
		}
	}
	if len(again) == 0 {
		return nil
	}
	s.sync.gate.Lock()
	defer s.sync.gate.Unlock()
	fresh, err := s.store.Posts().GetMany(ctx, again)
	if err != nil {
		return err
	}
	return s.sync.putPosts(ctx, s.sync.index, fresh)
}

// holdsInvalid reports whether p holds values of keys that set no longer
// accepts.
func holdsInvalid(set *calendar.FieldSet, p *calendar.Post, keys []string) bool {
	for _, key := range keys {
		if values := p.Custom[key]; len(values) > 0 && len(validValues(set.Field(key), p.Type, values)) != len(values) {
			return true
		}
	}
	return false
}

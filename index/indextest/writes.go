package indextest

import (
	"context"
	"reflect"
	"slices"
	"testing"

	"calendar/app/calendar"
)

// runWrites: what puts, deletes and the checkpoint leave, each on an empty
// index. A write is searchable once it returns.
func runWrites(t *testing.T, b Backend) {
	ctx := context.Background()
	venue := func(id int64, title string) *calendar.Post {
		return &calendar.Post{ID: id, Type: calendar.PostTypeVenue, Status: calendar.StatusPublish, Title: title}
	}
	titled := func(t *testing.T, idx calendar.Index, title string) []int64 {
		t.Helper()
		page, err := idx.SearchPosts(ctx, calendar.PostQuery{Type: calendar.PostTypeVenue, TitleKey: calendar.FoldTitle(title), Limit: 10})
		if err != nil {
			t.Fatal(err)
		}
		return page.IDs
	}
	count := func(t *testing.T, idx calendar.Index) int64 {
		t.Helper()
		n, err := idx.DocCount(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	checkpoint := func(t *testing.T, idx calendar.Index) int64 {
		t.Helper()
		seq, err := idx.AppliedSeq(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return seq
	}

	t.Run("an empty index holds nothing and has applied nothing", func(t *testing.T) {
		idx := b.Open(t)
		if err := idx.Ping(ctx); err != nil {
			t.Fatal(err)
		}
		page, err := idx.SearchPosts(ctx, calendar.PostQuery{Reader: calendar.ReadEverything, Limit: 10})
		if err != nil || page.Total != 0 || count(t, idx) != 0 || checkpoint(t, idx) != 0 {
			t.Fatalf("%+v, %v; %d entries, checkpoint %d", page, err, count(t, idx), checkpoint(t, idx))
		}
	})

	t.Run("a put replaces the entry of its ID, searchable once it returns", func(t *testing.T) {
		idx := b.Open(t)
		put(t, idx, []*calendar.Post{venue(1, "Old Hall")}, nil)
		if got := titled(t, idx, "Old Hall"); !slices.Equal(got, []int64{1}) {
			t.Fatalf("after the put: %v", got)
		}
		e := &calendar.Post{ID: 2, Type: calendar.PostTypeEvent, Status: calendar.StatusPublish, Categories: []int64{jazz}}
		put(t, idx, []*calendar.Post{venue(1, "New Hall"), e}, nil)
		e.Categories = []int64{rock}
		put(t, idx, []*calendar.Post{e}, nil)
		if old, renamed := titled(t, idx, "Old Hall"), titled(t, idx, "New Hall"); len(old) != 0 || !slices.Equal(renamed, []int64{1}) {
			t.Fatalf("after the second put: the old title finds %v, the new %v", old, renamed)
		}
		counts, err := idx.CountLinks(ctx, calendar.LinkTerms, calendar.PostQuery{})
		if err != nil || len(counts) != 1 || counts[rock] != 1 || count(t, idx) != 2 {
			t.Fatalf("counts %v, %v, %d entries; want the event's new category only, 2 entries", counts, err, count(t, idx))
		}
	})

	t.Run("a delete removes one entry; a missing one is no error; a post and a term of one ID are apart", func(t *testing.T) {
		idx := b.Open(t)
		put(t, idx, []*calendar.Post{venue(1, "Hall"), venue(2, "Other")}, []*calendar.Term{{ID: 1, Taxonomy: calendar.TaxonomyTag, Name: "Hall", Slug: "hall"}})
		if err := idx.DeleteTerm(ctx, 1); err != nil {
			t.Fatal(err)
		}
		terms, err := idx.SearchTerms(ctx, calendar.TermQuery{Taxonomy: calendar.TaxonomyTag})
		if err != nil || len(terms) != 0 || !slices.Equal(titled(t, idx, "Hall"), []int64{1}) {
			t.Fatalf("after deleting term 1: terms %v, %v; post 1 found %v", terms, err, titled(t, idx, "Hall"))
		}
		if err := idx.DeletePost(ctx, 1); err != nil {
			t.Fatal(err)
		}
		if got := titled(t, idx, "Hall"); len(got) != 0 || count(t, idx) != 1 {
			t.Fatalf("after deleting post 1: found %v, %d entries", got, count(t, idx))
		}
		for _, missing := range []func() error{
			func() error { return idx.DeletePost(ctx, 1) },
			func() error { return idx.DeletePost(ctx, 99) },
			func() error { return idx.DeleteTerm(ctx, 99) },
		} {
			if err := missing(); err != nil {
				t.Fatalf("deleting a missing entry: %v", err)
			}
		}
	})

	t.Run("the generation moves with every write of entries", func(t *testing.T) {
		idx := b.Open(t)
		for _, write := range []func() error{
			func() error { return idx.PutPosts(ctx, []*calendar.Post{venue(1, "Hall")}) },
			func() error {
				return idx.PutTerms(ctx, []*calendar.Term{{ID: 1, Taxonomy: calendar.TaxonomyTag, Name: "T", Slug: "t"}})
			},
			func() error { return idx.DeletePost(ctx, 1) },
			func() error { return idx.DeleteTerm(ctx, 1) },
		} {
			before := idx.Generation()
			if err := write(); err != nil {
				t.Fatal(err)
			}
			if idx.Generation() == before {
				t.Fatalf("the generation stayed at %d across a write", before)
			}
		}
	})

	t.Run("the checkpoint is the one set last", func(t *testing.T) {
		idx := b.Open(t)
		for _, seq := range []int64{42, 43} {
			if err := idx.SetAppliedSeq(ctx, seq); err != nil {
				t.Fatal(err)
			}
			if got := checkpoint(t, idx); got != seq {
				t.Fatalf("checkpoint %d, want %d", got, seq)
			}
		}
	})

	if b.Reopen != nil {
		t.Run("what it records of the custom field declarations persists across close and reopen, job and all", func(t *testing.T) {
			idx := b.Open(t)
			if got, err := idx.FieldsIndexed(ctx); err != nil || got.Shapes != nil || got.Job != nil {
				t.Fatalf("a new index records %+v, %v; want nothing", got, err)
			}
			want := calendar.FieldsIndexed{Revision: 9, Shapes: map[string]string{"age": "number"},
				Job: &calendar.FieldsJob{Revision: 12, Keys: []string{"age", "lang"}, After: 40}}
			if err := idx.SetFieldsIndexed(ctx, want); err != nil {
				t.Fatal(err)
			}
			idx = b.Reopen(t, idx)
			if got, err := idx.FieldsIndexed(ctx); err != nil || !reflect.DeepEqual(got, want) {
				t.Fatalf("after reopen: %+v, %v; want %+v", got, err, want)
			}
		})
		t.Run("entries and the checkpoint persist across close and reopen", func(t *testing.T) {
			idx := b.Open(t)
			put(t, idx, []*calendar.Post{venue(1, "Kept Hall")}, []*calendar.Term{{ID: 1, Taxonomy: calendar.TaxonomyTag, Name: "T", Slug: "t"}})
			if err := idx.SetAppliedSeq(ctx, 7); err != nil {
				t.Fatal(err)
			}
			idx = b.Reopen(t, idx)
			if got := titled(t, idx, "Kept Hall"); !slices.Equal(got, []int64{1}) || count(t, idx) != 2 || checkpoint(t, idx) != 7 {
				t.Fatalf("after reopen: found %v, %d entries, checkpoint %d", got, count(t, idx), checkpoint(t, idx))
			}
		})
	}
}

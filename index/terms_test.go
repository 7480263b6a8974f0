package index

import (
	"context"
	"testing"

	"calendar/app/calendar"
)

func TestTermCountsCountPublishedEventsPerTerm(t *testing.T) {
	idx, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer idx.Close()
	ctx := context.Background()
	err = idx.PutPosts(ctx, []*calendar.Post{
		{ID: 1, Type: calendar.PostTypeEvent, Status: calendar.StatusPublish, Categories: []int64{10, 11}, Tags: []int64{20}},
		{ID: 2, Type: calendar.PostTypeEvent, Status: calendar.StatusPublish, Categories: []int64{10}},
		{ID: 3, Type: calendar.PostTypeEvent, Status: calendar.StatusDraft, Categories: []int64{10, 12}},
		{ID: 4, Type: calendar.PostTypeVenue, Status: calendar.StatusPublish},
	})
	if err != nil {
		t.Fatal(err)
	}
	counts, err := idx.CountLinks(ctx, calendar.LinkTerms, calendar.PostQuery{Statuses: []string{calendar.StatusPublish}})
	if err != nil {
		t.Fatal(err)
	}
	want := map[int64]int{10: 2, 11: 1, 20: 1}
	if len(counts) != len(want) {
		t.Fatalf("counts = %v, want %v", counts, want)
	}
	for id, n := range want {
		if counts[id] != n {
			t.Fatalf("counts = %v, want %v", counts, want)
		}
	}
}

func TestTermsAndPostsDoNotMix(t *testing.T) {
	idx, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer idx.Close()
	ctx := context.Background()
	if err := idx.PutTerms(ctx, []*calendar.Term{{ID: 1, Taxonomy: calendar.TaxonomyTag, Name: "Jazz", Slug: "jazz"}}); err != nil {
		t.Fatal(err)
	}
	if err := idx.PutPosts(ctx, []*calendar.Post{{ID: 1, Type: calendar.PostTypeVenue, Status: calendar.StatusPublish, Title: "Jazz"}}); err != nil {
		t.Fatal(err)
	}
	posts, err := idx.SearchPosts(ctx, calendar.PostQuery{Fragments: []string{"jazz"}, Limit: 10})
	if err != nil || posts.Total != 1 || posts.IDs[0] != 1 {
		t.Fatalf("posts = %+v, %v", posts, err)
	}
	terms, err := idx.SearchTerms(ctx, calendar.TermQuery{Taxonomy: calendar.TaxonomyTag, Search: "JA"})
	if err != nil || len(terms) != 1 || terms[0] != 1 {
		t.Fatalf("terms = %v, %v", terms, err)
	}
	byName, err := idx.SearchTerms(ctx, calendar.TermQuery{Taxonomy: calendar.TaxonomyTag, Name: "JAZZ"})
	if err != nil || len(byName) != 1 {
		t.Fatalf("by exact name = %v, %v", byName, err)
	}
	if partial, _ := idx.SearchTerms(ctx, calendar.TermQuery{Taxonomy: calendar.TaxonomyTag, Name: "jaz"}); len(partial) != 0 {
		t.Fatalf("an exact-name query matched part of a name: %v", partial)
	}
	if err := idx.DeleteTerm(ctx, 1); err != nil {
		t.Fatal(err)
	}
	if posts, _ := idx.SearchPosts(ctx, calendar.PostQuery{Limit: 10}); posts.Total != 1 {
		t.Fatalf("deleting term 1 touched post 1: %+v", posts)
	}
}

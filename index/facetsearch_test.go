package index

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"calendar/app/calendar"
)

// A facet search finds a value by its name whatever its rank among the
// facet's values: the venue of the 1,001st value by frequency (beyond the
// 1,000 facets= lists) is found by a word's beginning, by its slug, by a
// word one typo from its beginning, and counted under the list's filters;
// a category by its name's word; a custom field's value the same way
// among 1,001. The index finds the values that may match; which truly do
// is app's (app/facet_search_test.go).
func TestAFacetSearchFindsAValueBeyondTheMostFrequentThousand(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	idx := openIndex(t, t.TempDir())
	defer idx.Close()
	// 1,000 events at as many venues and bands, one each, and the rare
	// venue's event, last of the ties by value: the 1,001st.
	const crowd, rare, jazz = 1000, 99999, 7000
	start := time.Date(2027, 5, 1, 20, 0, 0, 0, time.UTC)
	var posts []*calendar.Post
	event := func(id, venue int64, band string, categories ...int64) *calendar.Post {
		return &calendar.Post{ID: id, Type: calendar.PostTypeEvent, Status: calendar.StatusPublish, Title: "Concert", Start: start, End: start.Add(time.Hour),
			Venue: venue, Categories: categories, Custom: map[string][]string{"band": {band}}, Indexed: []calendar.IndexedField{{Key: "band", Terms: []string{band}}}}
	}
	for k := range int64(crowd) {
		posts = append(posts, event(10_000+k, 1+k, fmt.Sprintf("Band %d", k)))
	}
	posts = append(posts, &calendar.Post{ID: rare, Type: calendar.PostTypeVenue, Status: calendar.StatusPublish, Title: "Zebra Philharmonie", Slug: "zp-cellar"},
		event(rare+1, rare, "Zz Quiet Quartet", jazz))
	if err := idx.PutPosts(ctx, posts); err != nil {
		t.Fatal(err)
	}
	if err := idx.PutTerms(ctx, []*calendar.Term{{ID: jazz, Taxonomy: calendar.TaxonomyCategory, Name: "Late Jazz", Slug: "late-jazz"}}); err != nil {
		t.Fatal(err)
	}
	search := func(facet, typed string, q calendar.PostQuery) string {
		t.Helper()
		q.Type, q.Facets, q.FacetSearch = calendar.PostTypeEvent, []string{facet}, typed
		page, err := idx.SearchPosts(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, v := range page.Facets[facet] {
			out = append(out, fmt.Sprintf("%s=%d", v.Value, v.Count))
		}
		return strings.Join(out, " ")
	}
	rareVenue := fmt.Sprint(rare, "=1")
	for _, c := range []struct {
		name, facet, typed string
		q                  calendar.PostQuery
		want               string
	}{
		{"a word's beginning", calendar.FacetVenue, "philh", calendar.PostQuery{}, rareVenue},
		{"the name's first word", calendar.FacetVenue, "zebra philharmonie", calendar.PostQuery{}, rareVenue},
		{"its slug", calendar.FacetVenue, "zp", calendar.PostQuery{}, rareVenue},
		{"a word's beginning one typo away", calendar.FacetVenue, "philharmin", calendar.PostQuery{}, rareVenue},
		{"a typo within the word", calendar.FacetVenue, "zrbra", calendar.PostQuery{}, rareVenue},
		{"no typo under five letters", calendar.FacetVenue, "zrbr", calendar.PostQuery{}, ""},
		{"under the list's filters", calendar.FacetVenue, "philh", calendar.PostQuery{Categories: []int64{jazz + 1}}, ""},
		{"a category's word", calendar.FacetCategories, "jaz", calendar.PostQuery{}, fmt.Sprint(jazz, "=1")},
		{"a custom field's value by a word", calendar.FacetCustomPrefix + "band", "quiet", calendar.PostQuery{}, "Zz Quiet Quartet=1"},
		{"a custom field's value one typo away", calendar.FacetCustomPrefix + "band", "quartrt", calendar.PostQuery{}, "Zz Quiet Quartet=1"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := search(c.facet, c.typed, c.q); got != c.want {
				t.Fatalf("%s %q: %q, want %q", c.facet, c.typed, got, c.want)
			}
		})
	}
	// A count's total is the matches', found or not by what was typed.
	for _, typed := range []string{"philh", "nothing"} {
		page, err := idx.SearchPosts(ctx, calendar.PostQuery{Type: calendar.PostTypeEvent, Facets: []string{calendar.FacetVenue}, FacetSearch: typed})
		if err != nil || page.Total != crowd+1 {
			t.Fatalf("a facet search of %q counts %d matches (%v), want %d", typed, page.Total, err, crowd+1)
		}
	}
}

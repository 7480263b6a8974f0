package indextest

import (
	"context"
	"slices"
	"testing"

	"calendar/app/calendar"
)

// runTerms: a taxonomy's terms, filtered and ordered (ties by ID), never a
// post.
func runTerms(t *testing.T, idx calendar.Index) {
	cat := func(q calendar.TermQuery) calendar.TermQuery {
		q.Taxonomy = calendar.TaxonomyCategory
		return q
	}
	for _, c := range []struct {
		name string
		q    calendar.TermQuery
		want []int64
	}{
		{"by name", cat(calendar.TermQuery{}), []int64{bebop, hardRock, jazz, rock}},
		{"by name, descending", cat(calendar.TermQuery{Desc: true}), []int64{rock, jazz, hardRock, bebop}},
		{"by ID", cat(calendar.TermQuery{OrderBy: "id"}), []int64{jazz, bebop, rock, hardRock}},
		{"by slug", cat(calendar.TermQuery{OrderBy: "slug"}), []int64{bebop, hardRock, jazz, rock}},
		{"by parent, then ID", cat(calendar.TermQuery{OrderBy: "parent"}), []int64{jazz, rock, bebop, hardRock}},
		{"by description, then ID", cat(calendar.TermQuery{OrderBy: "description"}), []int64{hardRock, bebop, rock, jazz}},
		{"another taxonomy", calendar.TermQuery{Taxonomy: calendar.TaxonomyTag}, []int64{free, outdoor}},
		{"names or slugs holding a search, whatever its case", cat(calendar.TermQuery{Search: "ROCK"}), []int64{hardRock, rock}},
		{"a search in a slug", cat(calendar.TermQuery{Search: "d-r"}), []int64{hardRock}},
		{"no search of descriptions", cat(calendar.TermQuery{Search: "swing"}), nil},
		{"a name whatever its case", cat(calendar.TermQuery{Name: "JAZZ"}), []int64{jazz}},
		{"a name is matched whole", cat(calendar.TermQuery{Name: "jaz"}), nil},
		{"a slug", cat(calendar.TermQuery{Slug: "rock"}), []int64{rock}},
		{"included", cat(calendar.TermQuery{Include: []int64{rock, jazz, 99}}), []int64{jazz, rock}},
		{"none included", cat(calendar.TermQuery{Include: []int64{}}), nil},
		{"excluded", cat(calendar.TermQuery{Exclude: []int64{jazz}}), []int64{bebop, hardRock, rock}},
		{"top-level", cat(calendar.TermQuery{Parent: ptr(int64(0))}), []int64{jazz, rock}},
		{"a parent's children", cat(calendar.TermQuery{Parent: ptr(jazz)}), []int64{bebop}},
		{"the children of parents", cat(calendar.TermQuery{Parents: []int64{jazz, rock}}), []int64{bebop, hardRock}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := idx.SearchTerms(context.Background(), c.q)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, c.want) {
				t.Fatalf("%+v answers %v, want %v", c.q, got, c.want)
			}
		})
	}
}

package indextest

import (
	"context"
	"fmt"
	"testing"

	"calendar/app/calendar"
)

// runCounts: a list's facets count each value among all its matches, not
// only its page (the most first, then by value); CountLinks counts the
// events per linked ID among what its query selects.
func runCounts(t *testing.T, idx calendar.Index) {
	ctx := context.Background()
	t.Run("facets, whatever the list's order", func(t *testing.T) {
		want := map[string][]calendar.FacetCount{
			calendar.FacetCategories: {{Value: "1", Count: 3}, {Value: "3", Count: 3}, {Value: "4", Count: 2}, {Value: "2", Count: 1}},
			calendar.FacetTags:       {{Value: "5", Count: 3}, {Value: "6", Count: 2}},
			calendar.FacetVenue: {{Value: "1", Count: 2}, {Value: "4", Count: 2}, {Value: "2", Count: 1}, {Value: "3", Count: 1},
				{Value: "5", Count: 1}, {Value: "6", Count: 1}},
			calendar.FacetOrganizer: {{Value: "10", Count: 3}, {Value: "11", Count: 2}},
			calendar.FacetFeatured:  {{Value: "false", Count: 9}, {Value: "true", Count: 1}},
		}
		for _, order := range []calendar.PostOrder{calendar.OrderNewest, calendar.OrderStart, calendar.OrderPublished} {
			q := calendar.PostQuery{Type: calendar.PostTypeEvent, Statuses: []string{calendar.StatusPublish}, Order: order, Limit: 2,
				Facets: calendar.FacetNames}
			page, err := idx.SearchPosts(ctx, q)
			if err != nil {
				t.Fatal(err)
			}
			if len(page.IDs) != 2 || page.Total != 10 {
				t.Fatalf("order %d: a page of %v of %d, want 2 of 10", order, page.IDs, page.Total)
			}
			for _, name := range calendar.FacetNames {
				if fmt.Sprint(page.Facets[name]) != fmt.Sprint(want[name]) {
					t.Errorf("order %d, facet %s: %v, want %v", order, name, page.Facets[name], want[name])
				}
			}
		}
		none, err := idx.SearchPosts(ctx, calendar.PostQuery{Type: calendar.PostTypeEvent, IDs: []int64{}, Facets: []string{calendar.FacetTags}})
		if err != nil || none.Total != 0 || len(none.Facets[calendar.FacetTags]) != 0 {
			t.Fatalf("no match: %+v, %v; want no tag counted", none, err)
		}
	})
	published := []string{calendar.StatusPublish}
	for _, c := range []struct {
		name  string
		link  calendar.Link
		among calendar.PostQuery
		want  map[int64]int
	}{
		{"terms: categories and tags", calendar.LinkTerms, calendar.PostQuery{Statuses: published},
			map[int64]int{jazz: 3, bebop: 1, rock: 3, hardRock: 2, outdoor: 3, free: 2}},
		{"venues", calendar.LinkVenue, calendar.PostQuery{Statuses: published},
			map[int64]int{salle: 2, halle: 1, bataclan: 1, nowhere: 2, fiji: 1, samoa: 1}},
		{"organizers", calendar.LinkOrganizers, calendar.PostQuery{Statuses: published}, map[int64]int{jazzOrg: 3, privateOrg: 2}},
		{"what the reader reads", calendar.LinkTerms, calendar.PostQuery{Reader: calendar.ReadRule{Author: 2}},
			map[int64]int{jazz: 4, bebop: 1, rock: 3, hardRock: 2, outdoor: 3, free: 2}},
		{"from a start", calendar.LinkTerms, calendar.PostQuery{Statuses: published, StartAfter: bound("03-04 21:00", true)},
			map[int64]int{rock: 3, hardRock: 2, outdoor: 2, free: 1}},
		{"what none carries is absent", calendar.LinkTerms, calendar.PostQuery{Statuses: []string{calendar.StatusDraft}}, map[int64]int{}},
		{"never a page", calendar.LinkOrganizers, calendar.PostQuery{Statuses: published, Offset: 5, Limit: 1},
			map[int64]int{jazzOrg: 3, privateOrg: 2}},
	} {
		t.Run("link counts: "+c.name, func(t *testing.T) {
			counts, err := idx.CountLinks(ctx, c.link, c.among)
			if err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(counts) != fmt.Sprint(c.want) {
				t.Fatalf("%v, want %v", counts, c.want)
			}
		})
	}
}

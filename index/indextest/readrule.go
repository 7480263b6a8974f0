package indextest

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"testing"

	"calendar/app/calendar"
)

// runReadRule: a list holds what its reader may read (ReadRule.Allows) among
// what its statuses ask for, no more: in its page, its total, its facets
// and its link counts.
func runReadRule(t *testing.T, idx calendar.Index, w world) {
	ctx := context.Background()
	rules := []calendar.ReadRule{{}, {Author: 2}, {Author: 3}, calendar.ReadEverything}
	statusSets := [][]string{nil, {calendar.StatusPublish}, {calendar.StatusDraft}, {calendar.StatusPublish, calendar.StatusPrivate},
		calendar.PostStatuses, calendar.OwnStatuses}
	for _, rule := range rules {
		for _, statuses := range statusSets {
			t.Run(fmt.Sprintf("%+v %v", rule, statuses), func(t *testing.T) {
				var want []int64
				categories := map[int64]int{}
				for _, e := range w.events {
					if rule.Allows(e.Status, e.Author) && (statuses == nil || slices.Contains(statuses, e.Status)) {
						want = append(want, e.ID)
						for _, c := range e.Categories {
							categories[c]++
						}
					}
				}
				slices.SortFunc(want, func(a, b int64) int { // by publication date, then ID
					return cmp.Or(w.byID[a].Date.Compare(w.byID[b].Date), cmp.Compare(a, b))
				})
				q := calendar.PostQuery{Type: calendar.PostTypeEvent, Statuses: statuses, Reader: rule, Order: calendar.OrderPublished, Limit: 100,
					Facets: []string{calendar.FacetCategories}}
				page, err := idx.SearchPosts(ctx, q)
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(page.IDs, want) || page.Total != len(want) {
					t.Fatalf("answers %v (total %d), want %v", page.IDs, page.Total, want)
				}
				faceted := map[int64]int{}
				for _, v := range page.Facets[calendar.FacetCategories] {
					faceted[parseID(t, v.Value)] = v.Count
				}
				counts, err := idx.CountLinks(ctx, calendar.LinkTerms, calendar.PostQuery{Statuses: statuses, Reader: rule})
				if err != nil {
					t.Fatal(err)
				}
				maps.DeleteFunc(counts, func(id int64, _ int) bool { return id == outdoor || id == free }) // the tags'
				if fmt.Sprint(faceted) != fmt.Sprint(categories) || fmt.Sprint(counts) != fmt.Sprint(categories) {
					t.Fatalf("categories faceted %v, counted %v; want %v", faceted, counts, categories)
				}
			})
		}
	}
}

// parseID reads an ID a facet names.
func parseID(t *testing.T, value string) int64 {
	t.Helper()
	id, err := strconv.ParseInt(value, 10, 64)
	if err != nil {
		t.Fatalf("a facet names %q, not an ID", value)
	}
	return id
}

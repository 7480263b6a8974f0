package indextest

import (
	"context"
	"slices"
	"testing"

	"calendar/app/calendar"
)

// published is q over published events, by start unless q orders otherwise.
func published(q calendar.PostQuery) calendar.PostQuery {
	q.Type, q.Statuses = calendar.PostTypeEvent, []string{calendar.StatusPublish}
	if q.Order == calendar.OrderNewest {
		q.Order = calendar.OrderStart
	}
	return q
}

// everyEvent is q over events of any status, read by a rule that reads them all.
func everyEvent(q calendar.PostQuery) calendar.PostQuery {
	q.Type, q.Reader = calendar.PostTypeEvent, calendar.ReadEverything
	return q
}

func bound(s string, inclusive bool) *calendar.Bound {
	return &calendar.Bound{T: at(s), Inclusive: inclusive}
}

// runPosts: what lists select, in which order, and how they page.
func runPosts(t *testing.T, idx calendar.Index, w world) {
	byStart := []int64{moonParty, pacific, pleyelJazz, lateJazz, newYork, lyonRock, protected, samoaDance, series, occurrence}
	t.Run("orders", func(t *testing.T) {
		runPostCases(t, idx, []postCase{
			{"events by wall-clock start (1969 first), then publication date, then ID", published(calendar.PostQuery{}), byStart, -1},
			{"by publication date, oldest first, then ID", published(calendar.PostQuery{Order: calendar.OrderPublished}),
				[]int64{moonParty, series, occurrence, pacific, pleyelJazz, lateJazz, lyonRock, newYork, protected, samoaDance}, -1},
			{"newest first, then the highest ID", calendar.PostQuery{Type: calendar.PostTypeEvent, Statuses: []string{calendar.StatusPublish}},
				[]int64{samoaDance, protected, newYork, lyonRock, lateJazz, pleyelJazz, pacific, occurrence, series, moonParty}, -1},
			{"venues a visitor reads, newest first", calendar.PostQuery{Type: calendar.PostTypeVenue}, []int64{nowhere, bataclan, salle, fiji, samoa}, -1},
			{"every venue", calendar.PostQuery{Type: calendar.PostTypeVenue, Reader: calendar.ReadEverything},
				[]int64{nowhere, bataclan, halle, salle, fiji, samoa}, -1},
			{"by modification then ID, after an exclusive bound", everyEvent(calendar.PostQuery{Order: calendar.OrderModified, ModifiedAfter: bound("02-09 10:00", false)}),
				[]int64{samoaDance, series, occurrence}, -1},
			{"by modification, after an inclusive bound", everyEvent(calendar.PostQuery{Order: calendar.OrderModified, ModifiedAfter: bound("02-09 10:00", true)}),
				[]int64{protected, samoaDance, series, occurrence}, -1},
		})
	})
	t.Run("pages", func(t *testing.T) {
		runPostCases(t, idx, []postCase{
			{"a page of the order; the total counts every match", published(calendar.PostQuery{Offset: 3, Limit: 4}), byStart[3:7], 10},
			{"the last page is short", published(calendar.PostQuery{Offset: 9, Limit: 5}), byStart[9:], 10},
			{"past the last page: no IDs, the total still", published(calendar.PostQuery{Offset: 10, Limit: 5}), nil, 10},
			{"limit 0 counts only", published(calendar.PostQuery{}), nil, 10},
			{"every post of every type, and no term", calendar.PostQuery{Reader: calendar.ReadEverything}, nil, len(w.posts)},
		})
	})
	t.Run("time bounds are wall-clock times, each side inclusive or not", func(t *testing.T) {
		runPostCases(t, idx, []postCase{
			{"start after, inclusive", published(calendar.PostQuery{StartAfter: bound("03-01 20:00", true)}), byStart[1:], -1},
			{"start after, exclusive", published(calendar.PostQuery{StartAfter: bound("03-01 20:00", false)}), byStart[4:], -1},
			{"start after 21:00 on the 4th: New York's 20:00 is before", published(calendar.PostQuery{StartAfter: bound("03-04 21:00", true)}), byStart[5:], -1},
			{"start before 21:00 on the 4th", published(calendar.PostQuery{StartBefore: bound("03-04 21:00", false)}), byStart[:5], -1},
			{"end before, inclusive", published(calendar.PostQuery{EndBefore: bound("03-04 22:00", true)}), byStart[:5], -1},
			{"end before, exclusive", published(calendar.PostQuery{EndBefore: bound("03-04 22:00", false)}), byStart[:4], -1},
			{"end after and start before", published(calendar.PostQuery{EndAfter: bound("03-10 21:00", false), StartBefore: bound("04-05 00:00", true)}),
				[]int64{samoaDance, series}, -1},
		})
	})
	t.Run("filters", func(t *testing.T) {
		f := func(q calendar.PostQuery) calendar.PostQuery { return published(q) }
		runPostCases(t, idx, []postCase{
			{"a venue", f(calendar.PostQuery{Venues: []int64{salle}}), []int64{pleyelJazz, lateJazz}, -1},
			{"any of venues", f(calendar.PostQuery{Venues: []int64{salle, fiji}}), []int64{pacific, pleyelJazz, lateJazz}, -1},
			{"an organizer", f(calendar.PostQuery{Organizers: []int64{privateOrg}}), []int64{series, occurrence}, -1},
			{"a category", f(calendar.PostQuery{Categories: []int64{jazz}}), []int64{pacific, pleyelJazz, lateJazz}, -1},
			{"a category, every status", everyEvent(calendar.PostQuery{Categories: []int64{jazz}, Order: calendar.OrderStart}),
				[]int64{pacific, pleyelJazz, lateJazz, draftJam}, -1},
			{"any of categories", f(calendar.PostQuery{Categories: []int64{bebop, hardRock}}), []int64{pleyelJazz, series, occurrence}, -1},
			{"a tag", f(calendar.PostQuery{Tags: []int64{free}}), []int64{newYork, lyonRock}, -1},
			{"a category and a tag", f(calendar.PostQuery{Categories: []int64{jazz}, Tags: []int64{outdoor}}), []int64{pleyelJazz}, -1},
			{"an author", everyEvent(calendar.PostQuery{Authors: []int64{2}, Order: calendar.OrderPublished}),
				[]int64{draftJam, pendingGig, trashedGig, futureFest}, -1},
			{"an image", calendar.PostQuery{Images: []int64{poster}}, []int64{pleyelJazz}, -1},
			{"a source", calendar.PostQuery{Type: calendar.PostTypeAttachment, Source: posterSource}, []int64{poster}, -1},
			{"featured", f(calendar.PostQuery{Featured: ptr(true)}), []int64{pleyelJazz}, -1},
			{"not featured", f(calendar.PostQuery{Featured: ptr(false)}), without(byStart, pleyelJazz), -1},
			{"listed only", f(calendar.PostQuery{ListedOnly: true}), without(byStart, lateJazz), -1},
			{"series only", f(calendar.PostQuery{SeriesOnly: true}), []int64{series}, -1},
			{"a series' occurrences", f(calendar.PostQuery{Parent: ptr(series)}), []int64{occurrence}, -1},
			{"events with a position: their venue's public one", f(calendar.PostQuery{HasGeo: ptr(true)}), []int64{pacific, pleyelJazz, lateJazz, samoaDance}, -1},
			{"events without", f(calendar.PostQuery{HasGeo: ptr(false)}), []int64{moonParty, newYork, lyonRock, protected, series, occurrence}, -1},
			{"venues with a position: a password hides it", calendar.PostQuery{Type: calendar.PostTypeVenue, Reader: calendar.ReadEverything, HasGeo: ptr(true)},
				[]int64{halle, salle, fiji, samoa}, -1},
			{"venues without", calendar.PostQuery{Type: calendar.PostTypeVenue, Reader: calendar.ReadEverything, HasGeo: ptr(false)}, []int64{nowhere, bataclan}, -1},
			{"IDs, in the query's order, not theirs; a missing one matches nothing", f(calendar.PostQuery{IDs: []int64{lateJazz, pleyelJazz, 999}}), []int64{pleyelJazz, lateJazz}, -1},
			{"no IDs: nothing", f(calendar.PostQuery{IDs: []int64{}}), nil, -1},
			{"IDs left out", f(calendar.PostQuery{ExcludeIDs: []int64{pleyelJazz, moonParty}}), without(byStart, pleyelJazz, moonParty), -1},
			{"a title as folded", calendar.PostQuery{Type: calendar.PostTypeVenue, TitleKey: calendar.FoldTitle("  SALLÉ Pleyel ")}, []int64{salle}, -1},
			{"a title is matched whole", calendar.PostQuery{Type: calendar.PostTypeVenue, TitleKey: "salle"}, nil, -1},
		})
	})
	t.Run("text", func(t *testing.T) {
		venues := func(fragments ...string) calendar.PostQuery {
			return calendar.PostQuery{Type: calendar.PostTypeVenue, Reader: calendar.ReadEverything, Fragments: fragments}
		}
		words := func(words ...string) calendar.PostQuery { return published(calendar.PostQuery{Words: words}) }
		runPostCases(t, idx, []postCase{
			{"a fragment within a title, whatever its case", venues("pleyel"), []int64{salle}, -1},
			{"fragments all within one field", venues("salle", "pleyel"), []int64{salle}, -1},
			{"fragments in two fields are no match", venues("pleyel", "paris"), nil, -1},
			{"a fragment of a searchable meta field; a password hides it", venues("paris"), []int64{salle}, -1},
			{"a protected post's title is found", venues("bataclan"), []int64{bataclan}, -1},
			{"an organizer's meta", calendar.PostQuery{Type: calendar.PostTypeOrganizer, Fragments: []string{"contact"}}, []int64{jazzOrg}, -1},
			{"a word within words of the title or the content", words("azz"), []int64{pacific, pleyelJazz, lateJazz, series, occurrence}, -1},
			{"a word of the excerpt", words("bebop"), []int64{lateJazz}, -1},
			{"every word, in any of the fields", words("swing", "pleyel"), []int64{pleyelJazz}, -1},
			{"accents folded", words("soiree"), []int64{newYork}, -1},
			{"a protected post's content is found by no search", words("secret"), nil, -1},
			{"its title is", words("protected"), []int64{protected}, -1},
		})
		relevance := func(search string) calendar.PostQuery { return published(calendar.PostQuery{Relevance: search}) }
		runPostCases(t, idx, []postCase{
			{"a word's prefix", relevance("paci"), []int64{pacific}, -1},
			{"one typo in five letters or more; ties in the query's order", relevance("sesion"), []int64{series, occurrence}, -1},
			{"no typo under five letters", relevance("jazs"), nil, -1},
			{"accents folded, by relevance", relevance("soiree"), []int64{newYork}, -1},
			{"a protected post's content, by relevance", relevance("secret"), nil, -1},
		})
		// A search matches the same events in every order: the plugin's
		// fragments or relevance's words, whichever selects.
		tolerant := func(search string, order calendar.PostOrder) calendar.PostQuery {
			return published(calendar.PostQuery{Words: calendar.CapSearchWords([]string{search}), Tolerant: search, Order: order})
		}
		runPostCases(t, idx, []postCase{
			{"a typo, by start (from the bitmaps)", tolerant("sesion", calendar.OrderStart), []int64{series, occurrence}, -1},
			{"a typo, by publication date (bleve's searchers)", tolerant("sesion", calendar.OrderPublished), []int64{series, occurrence}, -1},
			{"a typo, counted only", tolerant("sesion", calendar.OrderPublished), nil, 2},
			{"a prefix", tolerant("paci", calendar.OrderPublished), []int64{pacific}, -1},
			{"a fragment within a word still matches as the plugin's search", tolerant("azz", calendar.OrderStart), []int64{pacific, pleyelJazz, lateJazz, series, occurrence}, -1},
			{"no typo under five letters, in any order", tolerant("jazs", calendar.OrderPublished), nil, -1},
			{"a fragment within a word matches by relevance too, last", published(calendar.PostQuery{Words: []string{"ssio"}, Relevance: "ssio"}), []int64{series, occurrence}, -1},
			{"what the plugin's search and relevance both find, ranked", published(calendar.PostQuery{Words: []string{"weekl"}, Relevance: "weekl"}), []int64{series, occurrence}, -1},
		})
		t.Run("title hits come first", func(t *testing.T) {
			q := relevance("jazz")
			q.Limit = 100
			page, err := idx.SearchPosts(context.Background(), q)
			if err != nil {
				t.Fatal(err)
			}
			first, then := []int64{pleyelJazz, lateJazz, pacific}, []int64{series, occurrence}
			if len(page.IDs) != 5 || page.Total != 5 || !sameSet(page.IDs[:3], first) || !slices.Equal(page.IDs[3:], then) {
				t.Fatalf("answers %v (total %d); want %v in any order, then %v", page.IDs, page.Total, first, then)
			}
		})
	})
}

func without(ids []int64, out ...int64) []int64 {
	return slices.DeleteFunc(slices.Clone(ids), func(id int64) bool { return slices.Contains(out, id) })
}

func sameSet(a, b []int64) bool {
	return slices.Equal(slices.Sorted(slices.Values(a)), slices.Sorted(slices.Values(b)))
}

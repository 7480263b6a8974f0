package index

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"calendar/app/calendar"
)

// TestAReadRuleSelectsWhatItAllows: the index's clause of a read rule
// selects, among random posts of every status and author, exactly those the
// rule's Allows says, with every status filter, and counts them so.
func TestAReadRuleSelectsWhatItAllows(t *testing.T) {
	idx := openIndex(t, t.TempDir())
	defer idx.Close()
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(3, 15))
	start := time.Date(2031, 1, 1, 0, 0, 0, 0, time.UTC)
	var posts []*calendar.Post
	for id := int64(1); id <= 300; id++ {
		posts = append(posts, &calendar.Post{ID: id, Type: calendar.PostTypeEvent, Title: "e", Author: 1 + rng.Int64N(4),
			Status: calendar.PostStatuses[rng.IntN(len(calendar.PostStatuses))], Start: start, End: start, Date: start})
	}
	if err := idx.PutPosts(ctx, posts); err != nil {
		t.Fatal(err)
	}
	rules := []calendar.ReadRule{{}, {Author: 2}, {Author: 3}, {All: true}}
	statusSets := [][]string{nil, {calendar.StatusPublish}, {calendar.StatusDraft}, {calendar.StatusPublish, calendar.StatusPrivate}, calendar.PostStatuses, calendar.OwnStatuses}
	for _, rule := range rules {
		for _, statuses := range statusSets {
			t.Run(fmt.Sprintf("%+v %v", rule, statuses), func(t *testing.T) {
				var want []int64
				for _, p := range posts {
					if rule.Allows(p.Status, p.Author) && (statuses == nil || slices.Contains(statuses, p.Status)) {
						want = append(want, p.ID)
					}
				}
				page, err := idx.SearchPosts(ctx, calendar.PostQuery{Type: calendar.PostTypeEvent, Statuses: statuses, Reader: rule,
					Order: calendar.OrderPublished, Limit: 1000})
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(page.IDs, want) || page.Total != len(want) {
					t.Fatalf("got %d posts (total %d), want %d", len(page.IDs), page.Total, len(want))
				}
				counts, err := idx.CountLinks(ctx, calendar.LinkTerms, calendar.PostQuery{Statuses: statuses, Reader: rule})
				if err != nil || len(counts) != 0 {
					t.Fatalf("counts %v, %v", counts, err)
				}
			})
		}
	}
}

// TestNoIndexedWordIsLongerThanTheCap: a giant word is kept cut, so that no
// search of the index reads it whole; a venue's text fields are kept to a
// bound too; a protected post's text is not kept at all.
func TestNoIndexedWordIsLongerThanTheCap(t *testing.T) {
	idx := openIndex(t, t.TempDir())
	defer idx.Close()
	ctx := context.Background()
	giant := strings.Repeat("zéta", 20000)
	posts := []*calendar.Post{
		{ID: 1, Type: calendar.PostTypeEvent, Status: calendar.StatusPublish, Title: "Giant " + giant, Content: "body " + giant + " tail"},
		{ID: 2, Type: calendar.PostTypeVenue, Status: calendar.StatusPublish, Title: "Hall", Content: giant, Meta: map[string]string{"address": giant}},
		{ID: 3, Type: calendar.PostTypeEvent, Status: calendar.StatusPublish, Title: "Locked", Password: "pw", Content: "secretword"},
	}
	if err := idx.PutPosts(ctx, posts); err != nil {
		t.Fatal(err)
	}
	reader, err := bleveOf(idx).Advanced()
	if err != nil {
		t.Fatal(err)
	}
	r, err := reader.Reader()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for field, limit := range map[string]int{fieldWords: calendar.MaxWordBytes, fieldFoldedTitle: calendar.MaxWordBytes, fieldWordParts: calendar.MaxWordBytes,
		textPrefix + "content": calendar.MaxIndexedTextBytes, textPrefix + "address": calendar.MaxIndexedTextBytes} {
		dict, err := r.FieldDict(field)
		if err != nil {
			t.Fatal(err)
		}
		terms := 0
		for entry, err := dict.Next(); entry != nil || err != nil; entry, err = dict.Next() {
			if err != nil {
				t.Fatal(err)
			}
			terms++
			if len(entry.Term) > limit {
				t.Errorf("%s holds a term of %d bytes, bound %d", field, len(entry.Term), limit)
			}
			if entry.Term == "secretword" {
				t.Errorf("%s holds a protected post's word", field)
			}
		}
		dict.Close()
		if terms == 0 {
			t.Errorf("%s holds nothing", field)
		}
	}
}

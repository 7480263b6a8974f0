package index

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"calendar/app"
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
	var posts []*app.Post
	for id := int64(1); id <= 300; id++ {
		posts = append(posts, &app.Post{ID: id, Type: app.PostTypeEvent, Title: "e", Author: 1 + rng.Int64N(4),
			Status: app.PostStatuses[rng.IntN(len(app.PostStatuses))], Start: start, End: start, Date: start})
	}
	if err := idx.PutPosts(ctx, posts); err != nil {
		t.Fatal(err)
	}
	rules := []app.ReadRule{{}, {Author: 2}, {Author: 3}, {All: true}}
	statusSets := [][]string{nil, {app.StatusPublish}, {app.StatusDraft}, {app.StatusPublish, app.StatusPrivate}, app.PostStatuses, app.OwnStatuses}
	for _, rule := range rules {
		for _, statuses := range statusSets {
			t.Run(fmt.Sprintf("%+v %v", rule, statuses), func(t *testing.T) {
				var want []int64
				for _, p := range posts {
					if rule.Allows(p.Status, p.Author) && (statuses == nil || slices.Contains(statuses, p.Status)) {
						want = append(want, p.ID)
					}
				}
				page, err := idx.SearchPosts(ctx, app.PostQuery{Type: app.PostTypeEvent, Statuses: statuses, Reader: rule,
					Order: app.OrderPublished, Limit: 1000})
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(page.IDs, want) || page.Total != len(want) {
					t.Fatalf("got %d posts (total %d), want %d", len(page.IDs), page.Total, len(want))
				}
				counts, err := idx.CountLinks(ctx, app.LinkTerms, app.PostQuery{Statuses: statuses, Reader: rule})
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
	posts := []*app.Post{
		{ID: 1, Type: app.PostTypeEvent, Status: app.StatusPublish, Title: "Giant " + giant, Content: "body " + giant + " tail"},
		{ID: 2, Type: app.PostTypeVenue, Status: app.StatusPublish, Title: "Hall", Content: giant, Meta: map[string]string{"address": giant}},
		{ID: 3, Type: app.PostTypeEvent, Status: app.StatusPublish, Title: "Locked", Password: "pw", Content: "secretword"},
	}
	if err := idx.PutPosts(ctx, posts); err != nil {
		t.Fatal(err)
	}
	reader, err := idx.bleve.Advanced()
	if err != nil {
		t.Fatal(err)
	}
	r, err := reader.Reader()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for field, limit := range map[string]int{fieldWords: app.MaxWordBytes, fieldFoldedTitle: app.MaxWordBytes,
		textPrefix + "content": app.MaxIndexedTextBytes, textPrefix + "address": app.MaxIndexedTextBytes} {
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

package index

import (
	"context"
	"errors"
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/search/query"

	"calendar/app/calendar"
)

// TestAFragmentFindsWhatAWalkOfEveryWordFinds: the words' parts find the
// events that the plugin's search found by walking every word of the index
// (a wildcard "*fragment*" over the words field): fragments of one, two and
// more characters, at the start or the end of a word, within it or the
// whole of it, in several scripts, accented, with marks and hyphens, and
// fragments that no word holds; from the bitmaps and through bleve's own
// searchers, over segments holding deleted and moved posts.
func TestAFragmentFindsWhatAWalkOfEveryWordFinds(t *testing.T) {
	t.Parallel()
	idx := unmergedIndex(t)
	ctx := context.Background()
	rng := rand.New(rand.NewSource(36))
	letters := []string{"a", "b", "e", "é", "e\u0301", "ß", "-", "1", "9", "д", "ж", "ω", "北", "京", "ジ", "ャ", "ด", "น", "ต", "ร", "ี", "\u0301"}
	word := func() string {
		var b strings.Builder
		for range 1 + rng.Intn(7) {
			b.WriteString(letters[rng.Intn(len(letters))])
		}
		return b.String()
	}
	var vocabulary []string
	for range 150 {
		vocabulary = append(vocabulary, word())
	}
	base := time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC)
	post := func(id int64) *calendar.Post {
		var text []string
		for range 1 + rng.Intn(6) {
			text = append(text, vocabulary[rng.Intn(len(vocabulary))])
		}
		start := base.Add(time.Duration(id) * time.Hour)
		return &calendar.Post{ID: id, Type: calendar.PostTypeEvent, Status: calendar.StatusPublish, Title: text[0],
			Content: strings.Join(text[1:], " "), Start: start, End: start.Add(time.Hour), Date: base}
	}
	const n = 240
	for batch := int64(0); batch < 4; batch++ {
		var posts []*calendar.Post
		for id := batch*n/4 + 1; id <= (batch+1)*n/4; id++ {
			posts = append(posts, post(id))
		}
		if err := idx.PutPosts(ctx, posts); err != nil {
			t.Fatal(err)
		}
		if err := idx.persist(closeWait); err != nil {
			t.Fatal(err)
		}
	}
	for range 10 { // moved and deleted: their old words stay in the segments' dictionaries
		if err := idx.PutPosts(ctx, []*calendar.Post{post(1 + rng.Int63n(n))}); err != nil {
			t.Fatal(err)
		}
		if err := idx.DeletePost(ctx, 1+rng.Int63n(n)); err != nil {
			t.Fatal(err)
		}
	}
	fragments := []string{"zz", "q", "xyz-q"}
	for range 200 {
		w := []rune(vocabulary[rng.Intn(len(vocabulary))])
		from := rng.Intn(len(w))
		fragments = append(fragments, string(w[from:from+1+rng.Intn(len(w)-from)]))
	}
	for _, fragment := range fragments {
		plan := idx.plainPlan([]string{fragment})
		if len(plan.words) == 0 {
			continue
		}
		var walked []query.Query // the search as it was
		for _, part := range plan.words[0].parts {
			walked = append(walked, part.query(fieldWords, 1)...)
		}
		want := idsOf(t, idx, walked)
		q := calendar.PostQuery{Type: calendar.PostTypeEvent, Words: []string{fragment}, Order: calendar.OrderStart, Limit: n}
		fromBitmaps, err := idx.searchBitmaps(ctx, q, nil)
		if err != nil {
			t.Fatal(err)
		}
		throughBleve := idsOf(t, idx, []query.Query{idx.filter(q, nil)})
		if got := sorted(fromBitmaps.IDs); !slices.Equal(got, want) || !slices.Equal(throughBleve, want) {
			t.Fatalf("%q (%+v): the parts find %v (bleve: %v), a walk of every word %v", fragment, plan.words[0].parts, got, throughBleve, want)
		}
	}
}

func idsOf(t *testing.T, idx *Index, all []query.Query) []int64 {
	t.Helper()
	res, err := idx.search(context.Background(), bleve.NewSearchRequestOptions(bleve.NewConjunctionQuery(all...), 1000, 0, false))
	if err != nil {
		t.Fatal(err)
	}
	page, err := pageOf(res, nil)
	if err != nil {
		t.Fatal(err)
	}
	return sorted(page.IDs)
}

func sorted(ids []int64) []int64 {
	ids = slices.Clone(ids)
	slices.Sort(ids)
	return ids
}

// TestAPlainSearchWalksNoDictionary: what the plugin's search asks of the
// index is term lookups and walks of the terms that begin with a fragment,
// never a walk of a whole dictionary (a wildcard or a regular expression
// reads every word the index holds, however many an author wrote).
func TestAPlainSearchWalksNoDictionary(t *testing.T) {
	t.Parallel()
	idx := unmergedIndex(t)
	for _, search := range []string{"jazz", "a", "az", "azz", "café", "e\u0301t", "pré-vente", "2026", "北京爵士", "京", "ジャズ", "ดนตรี", "концерт"} {
		q := calendar.PostQuery{Type: calendar.PostTypeEvent, Words: calendar.CapSearchWords(strings.Fields(search))}
		var walk func(q query.Query)
		walk = func(q query.Query) {
			switch q := q.(type) {
			case *query.ConjunctionQuery:
				for _, c := range q.Conjuncts {
					walk(c)
				}
			case *query.DisjunctionQuery:
				for _, d := range q.Disjuncts {
					walk(d)
				}
			case *query.TermQuery, suffixQuery:
			default:
				t.Errorf("%q: the search holds a %T", search, q)
			}
		}
		walk(idx.filter(q, nil))
	}
}

// TestAFragmentWithinTooManyWordsIsRefusedNotWalked: a fragment that begins
// more of the words' suffixes than calendar.MaxFragmentTerms is answered
// with a client error naming the search (from the bitmaps and through
// bleve's searchers alike), having read no more than that many; a longer
// fragment, within fewer words, finds them.
func TestAFragmentWithinTooManyWordsIsRefusedNotWalked(t *testing.T) {
	t.Parallel()
	idx := unmergedIndex(t)
	ctx := context.Background()
	start := time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC)
	var posts []*calendar.Post
	for p := range 2 {
		var words []string
		for k := p * (calendar.MaxFragmentTerms/2 + 1); k < (p+1)*(calendar.MaxFragmentTerms/2+1); k++ {
			words = append(words, fmt.Sprintf("qqq%c%c%c%c", 'a'+k/17576%26, 'a'+k/676%26, 'a'+k/26%26, 'a'+k%26))
		}
		posts = append(posts, &calendar.Post{ID: int64(p + 1), Type: calendar.PostTypeEvent, Status: calendar.StatusPublish,
			Title: "Words", Content: strings.Join(words, " "), Start: start, End: start.Add(time.Hour), Date: start})
	}
	if err := idx.PutPosts(ctx, posts); err != nil {
		t.Fatal(err)
	}
	for _, order := range []calendar.PostOrder{calendar.OrderStart, calendar.OrderNewest} { // bitmaps, bleve
		q := calendar.PostQuery{Type: calendar.PostTypeEvent, Words: []string{"qqq"}, Order: order, Limit: 10}
		_, err := idx.SearchPosts(ctx, q)
		var e *calendar.Error
		if !errors.As(err, &e) || e.Kind != calendar.KindInvalid || e.Code != "rest_invalid_param" || e.Data["params"].(map[string]string)["search"] == "" {
			t.Fatalf("order %v: a fragment within %d words answered %v", order, calendar.MaxFragmentTerms+2, err)
		}
		q.Words = []string{"qqqaaab"}
		if page, err := idx.SearchPosts(ctx, q); err != nil || page.Total != 1 {
			t.Fatalf("order %v: a fragment within 26 words: %+v, %v", order, page, err)
		}
	}
}

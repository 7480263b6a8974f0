package index

import (
	"context"
	"errors"
	"fmt"
	"math/rand"
	"regexp"
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
		from := letters
		if rng.Intn(2) == 0 { // half the words in spaced scripts alone: fragments of them are looked for within words
			from = letters[:12]
		}
		var b strings.Builder
		for range 1 + rng.Intn(7) {
			b.WriteString(from[rng.Intn(len(from))])
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
	for range 80 {
		w := []rune(vocabulary[rng.Intn(len(vocabulary))])
		from := rng.Intn(len(w))
		fragments = append(fragments, string(w[from:from+min(1+rng.Intn(4), len(w)-from)])) // one to four characters, anywhere
	}
	for _, fragment := range fragments {
		plan := idx.plainPlan([]string{fragment})
		if len(plan.words) == 0 {
			continue
		}
		var walked []query.Query // the search as it was
		for _, part := range plan.words[0].parts {
			walked = append(walked, walkedQuery(part, fieldWords, 1))
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

// walkedQuery is how the search found a part before: a term, or a wildcard
// (a regular expression where folding made characters a wildcard reads)
// walking every word of the field.
func walkedQuery(part partPlan, field string, boost float64) query.Query {
	var q interface {
		query.Query
		SetField(string)
		SetBoost(float64)
	}
	switch {
	case part.how == wholeTerm:
		q = bleve.NewTermQuery(part.term)
	case regexp.MustCompile(`^[a-z0-9-]+$`).MatchString(part.term):
		q = bleve.NewWildcardQuery("*" + part.term + "*")
	default:
		q = bleve.NewRegexpQuery(".*" + regexp.QuoteMeta(part.term) + ".*")
	}
	q.SetField(field)
	q.SetBoost(boost)
	return q
}

// TestARelevanceSearchScoresWhatItWalkedAsBefore: a relevance search's lone
// spaceless characters (found through their holders) and prefixes (within
// the budget) select and score every event as the wildcard and the prefix
// that walked the dictionary did, in the title and the words, over segments
// holding deleted and moved posts (whose words the dictionaries keep).
func TestARelevanceSearchScoresWhatItWalkedAsBefore(t *testing.T) {
	t.Parallel()
	idx := unmergedIndex(t)
	ctx := context.Background()
	rng := rand.New(rand.NewSource(37))
	chars := []string{"北", "京", "爵", "士", "音", "乐", "ジ", "ャ", "ズ", "ด", "น", "ต", "ร", "ี", "서", "울", "jazz", "jam", "java", "concert", "conte"}
	text := func() string {
		var b strings.Builder
		for range 1 + rng.Intn(8) {
			b.WriteString(chars[rng.Intn(len(chars))])
			if rng.Intn(3) == 0 {
				b.WriteString(" ")
			}
		}
		return b.String()
	}
	base := time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC)
	post := func(id int64) *calendar.Post {
		return &calendar.Post{ID: id, Type: calendar.PostTypeEvent, Status: calendar.StatusPublish, Title: text(), Content: text(), Date: base, Start: base, End: base}
	}
	for batch := int64(0); batch < 3; batch++ {
		var posts []*calendar.Post
		for id := batch*40 + 1; id <= (batch+1)*40; id++ {
			posts = append(posts, post(id))
		}
		if err := idx.PutPosts(ctx, posts); err != nil {
			t.Fatal(err)
		}
		if err := idx.persist(closeWait); err != nil {
			t.Fatal(err)
		}
	}
	for range 8 {
		if err := idx.PutPosts(ctx, []*calendar.Post{post(1 + rng.Int63n(120))}); err != nil {
			t.Fatal(err)
		}
		if err := idx.DeletePost(ctx, 1+rng.Int63n(120)); err != nil {
			t.Fatal(err)
		}
	}
	scored := func(q query.Query) []string {
		req := bleve.NewSearchRequestOptions(q, 200, 0, false)
		res, err := idx.search(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, h := range res.Hits {
			out = append(out, fmt.Sprintf("%s:%v", h.ID, h.Score))
		}
		slices.Sort(out)
		return out
	}
	for _, c := range chars {
		for _, part := range idx.rankedPlan(c, "", nil).words[0].parts { // as a search reads it: a lone character begins with one of a spaceless script
			for _, f := range rankedFields {
				var pair [2]query.Query
				switch part.how {
				case inWord:
					pair = [2]query.Query{walkedQuery(part, f.field, f.boost), holdersQuery{part: part.term, field: f.field, boost: f.boost}}
				case wordLike:
					prefix := bleve.NewPrefixQuery(part.term)
					prefix.SetField(f.field)
					prefix.SetBoost(f.boost / 2)
					pair = [2]query.Query{prefix, budgetedPrefix{prefix: part.term, field: f.field, boost: f.boost / 2}}
				default:
					continue
				}
				walked, now := scored(pair[0]), scored(pair[1])
				if !slices.Equal(walked, now) || len(walked) == 0 {
					t.Fatalf("%q in %s (%T): %v; walked: %v", part.term, f.field, pair[1], now, walked)
				}
			}
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

// TestASearchWalksNoDictionary: what the plugin's search (of events, and of
// venues, organizers and media) and a relevance search ask of the index is
// term lookups and walks of the terms that begin with a fragment, a prefix
// or a character's key (or, for a typo, of the words within one edit),
// never a walk of a whole dictionary (a wildcard or a regular expression
// reads every word the index holds, however many an author wrote, and
// compiles an automaton per fragment and field).
func TestASearchWalksNoDictionary(t *testing.T) {
	t.Parallel()
	idx := unmergedIndex(t)
	for _, search := range []string{"jazz", "a", "az", "azz", "café", "e\u0301t", "pré-vente", "2026", "北京爵士", "京", "ジャズ", "ดนตรี", "концерт"} {
		q := calendar.PostQuery{Type: calendar.PostTypeEvent, Words: calendar.CapSearchWords(strings.Fields(search))}
		tolerant := q
		tolerant.Tolerant = search
		ranked := idx.matching(calendar.PostQuery{Type: calendar.PostTypeEvent, Words: q.Words, Relevance: search}, nil)
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
			case *query.BooleanQuery:
				for _, b := range []query.Query{q.Must, q.Should, q.MustNot, q.Filter} {
					if b != nil {
						walk(b)
					}
				}
			case *query.FuzzyQuery: // a word of five letters or more: its automaton follows only the paths within one edit of it
			case unscored:
				walk(q.Query)
			case ownBudget:
				walk(q.Query)
			case *query.TermQuery, suffixQuery, holdersQuery, budgetedPrefix, budgetedFuzzy:
			default:
				t.Errorf("%q: the search holds a %T", search, q)
			}
		}
		walk(idx.filter(q, nil))
		walk(idx.filter(tolerant, nil))
		walk(ranked)
		for _, postType := range []string{calendar.PostTypeVenue, calendar.PostTypeOrganizer, calendar.PostTypeAttachment} {
			walk(idx.filter(calendar.PostQuery{Type: postType, Fragments: calendar.CapSearchWords(strings.Fields(search))}, nil))
		}
	}
}

// TestASearchWithinTooManyWordsIsRefusedNotWalked: a search whose
// fragments begin more of the words' suffixes than calendar.MaxSearchTerms
// in all is answered with a client error naming the search (from the
// bitmaps and through bleve's searchers alike), having read no more than
// that many, an event search and a venue search alike, and so is a
// relevance search for the prefixes of as many words; each of its
// fragments alone, within fewer words, finds them.
func TestASearchWithinTooManyWordsIsRefusedNotWalked(t *testing.T) {
	t.Parallel()
	idx := unmergedIndex(t)
	ctx := context.Background()
	start := time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC)
	each := calendar.MaxSearchTerms*3/5 + 1 // two of them are more than the budget
	var posts []*calendar.Post
	for p, family := range []string{"qqq", "zzz"} {
		var words []string
		for k := range each {
			words = append(words, fmt.Sprintf("%s%c%c%c", family, 'a'+k/676%26, 'a'+k/26%26, 'a'+k%26))
		}
		posts = append(posts, &calendar.Post{ID: int64(p + 1), Type: calendar.PostTypeEvent, Status: calendar.StatusPublish,
			Title: "Words", Content: strings.Join(words, " "), Start: start, End: start.Add(time.Hour), Date: start})
	}
	venuesEach := 0 // venues whose addresses hold the same words, as many as a field's bound of text takes
	for _, post := range slices.Clone(posts) {
		words := strings.Fields(post.Content)
		for len(words) > 0 {
			n := min(len(words), calendar.MaxIndexedTextBytes/(len(words[0])+1))
			posts = append(posts, &calendar.Post{ID: int64(len(posts) + 1), Type: calendar.PostTypeVenue, Status: calendar.StatusPublish,
				Title: "Hall", Meta: map[string]string{"address": strings.Join(words[:n], " ")}})
			words = words[n:]
			if post.ID == 1 {
				venuesEach++
			}
		}
	}
	if err := idx.PutPosts(ctx, posts); err != nil {
		t.Fatal(err)
	}
	refused := func(err error) bool {
		var e *calendar.Error
		return errors.As(err, &e) && e.Kind == calendar.KindInvalid && e.Code == "rest_invalid_param" && e.Data["params"].(map[string]string)["search"] != ""
	}
	for _, order := range []calendar.PostOrder{calendar.OrderStart, calendar.OrderNewest} { // bitmaps, bleve
		q := calendar.PostQuery{Type: calendar.PostTypeEvent, Words: []string{"qqq", "zzz"}, Order: order, Limit: 10}
		if _, err := idx.SearchPosts(ctx, q); !refused(err) {
			t.Fatalf("order %v: fragments within %d words answered %v", order, 2*each, err)
		}
		for _, alone := range []string{"qqq", "zzz"} {
			q.Words = []string{alone}
			if page, err := idx.SearchPosts(ctx, q); err != nil || page.Total != 1 {
				t.Fatalf("order %v: %q, within %d words: %+v, %v", order, alone, each, page, err)
			}
		}
	}
	for _, order := range []calendar.PostOrder{calendar.OrderStart, calendar.OrderNewest} { // a venue search, read field by field from one budget
		q := calendar.PostQuery{Type: calendar.PostTypeVenue, Fragments: []string{"qqq", "zzz"}, Order: order, Limit: 10}
		if _, err := idx.SearchPosts(ctx, q); !refused(err) {
			t.Fatalf("order %v: a venue search within %d words answered %v", order, 2*each, err)
		}
		for _, alone := range []string{"qqq", "zzz"} {
			q.Fragments = []string{alone}
			if page, err := idx.SearchPosts(ctx, q); err != nil || page.Total != venuesEach {
				t.Fatalf("order %v: venues %q, within %d words: %+v, %v", order, alone, each, page, err)
			}
		}
	}
	for _, order := range []calendar.PostOrder{calendar.OrderStart, calendar.OrderNewest} { // a tolerant search: each side within its own budget
		q := calendar.PostQuery{Type: calendar.PostTypeEvent, Words: []string{"qqq", "zzz"}, Tolerant: "qqq zzz", Order: order, Limit: 10}
		if _, err := idx.SearchPosts(ctx, q); !refused(err) {
			t.Fatalf("order %v: a tolerant search within %d words answered %v", order, 2*each, err)
		}
		q.Words, q.Tolerant = []string{"qqq"}, "qqq"
		if page, err := idx.SearchPosts(ctx, q); err != nil || page.Total != 1 {
			t.Fatalf("order %v: a tolerant search within %d words: %+v, %v", order, each, page, err)
		}
	}
	ranked := calendar.PostQuery{Type: calendar.PostTypeEvent, Relevance: "qqq zzz", Limit: 10} // the prefixes of as many words
	if _, err := idx.SearchPosts(ctx, ranked); !refused(err) {
		t.Fatalf("a relevance search for the prefixes of %d words answered %v", 2*each, err)
	}
	ranked.Relevance = "qqq"
	if page, err := idx.SearchPosts(ctx, ranked); err != nil || page.Total != 1 {
		t.Fatalf("a relevance search for the prefix of %d words: %+v, %v", each, page, err)
	}
	ranked.Words = []string{"qqq"} // and the plugin's fragments, within their own budget
	if page, err := idx.SearchPosts(ctx, ranked); err != nil || page.Total != 1 {
		t.Fatalf("a relevance search with its fragments, within %d words: %+v, %v", each, page, err)
	}
}

// BenchmarkAFragmentAtTheBudget: the costliest search there may be, one
// whose fragment begins calendar.MaxSearchTerms suffixes (all but two),
// beside one that begins none, over the same dictionary, from the bitmaps.
//
//	go test ./index -run '^$' -bench BenchmarkAFragmentAtTheBudget
func BenchmarkAFragmentAtTheBudget(b *testing.B) {
	idx, err := Open(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	defer idx.Close()
	ctx := context.Background()
	start := time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC)
	for p := range 2 {
		var words []string
		for k := p * (calendar.MaxSearchTerms / 2); k < (p+1)*(calendar.MaxSearchTerms/2)-1; k++ {
			words = append(words, fmt.Sprintf("qqq%c%c%c%c", 'a'+k/17576%26, 'a'+k/676%26, 'a'+k/26%26, 'a'+k%26))
		}
		post := &calendar.Post{ID: int64(p + 1), Type: calendar.PostTypeEvent, Status: calendar.StatusPublish,
			Title: "Words", Content: strings.Join(words, " "), Start: start, End: start.Add(time.Hour), Date: start}
		if err := idx.PutPosts(ctx, []*calendar.Post{post}); err != nil {
			b.Fatal(err)
		}
	}
	for _, fragment := range []string{"qqq", "xyz"} {
		b.Run(fragment, func(b *testing.B) {
			q := calendar.PostQuery{Type: calendar.PostTypeEvent, Words: []string{fragment}, Order: calendar.OrderStart, Limit: 10}
			for b.Loop() {
				if _, err := idx.SearchPosts(ctx, q); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestAVenueSearchFindsWhatASubstringSearchOfOneFieldFinds: the parts of
// the venues' words find the venues that the plugin finds (and the
// wildcards "*fragment*" over each field's whole value found): those with
// one searchable field that holds every fragment as a substring, in any
// case; fragments of one, two and more characters, at the start or the end
// of a word, within it, across a hyphen, in Latin and Cyrillic, with digits,
// within values cut by spaces, commas, @, dots and slashes; and fragments
// no field holds; from the bitmaps and through bleve's own searchers, over
// segments holding moved and deleted venues.
func TestAVenueSearchFindsWhatASubstringSearchOfOneFieldFinds(t *testing.T) {
	t.Parallel()
	idx := unmergedIndex(t)
	ctx := context.Background()
	rng := rand.New(rand.NewSource(38))
	letters := []string{"a", "b", "A", "-", "1", "д", "Д", "ж"}
	var vocabulary []string
	for range 40 {
		var b strings.Builder
		for range 1 + rng.Intn(5) {
			b.WriteString(letters[rng.Intn(len(letters))])
		}
		vocabulary = append(vocabulary, b.String())
	}
	separators := []string{" ", ", ", "@", ".", "://", "/"}
	value := func() string {
		if rng.Intn(4) == 0 {
			return ""
		}
		v := vocabulary[rng.Intn(len(vocabulary))]
		for range rng.Intn(4) {
			v += separators[rng.Intn(len(separators))] + vocabulary[rng.Intn(len(vocabulary))]
		}
		return v
	}
	fields := searchedFields(calendar.PostTypeVenue)
	live := map[int64]*calendar.Post{}
	venue := func(id int64) *calendar.Post {
		p := &calendar.Post{ID: id, Type: calendar.PostTypeVenue, Status: calendar.StatusPublish, Title: value(), Content: value(), Excerpt: value(), Meta: map[string]string{}}
		for _, m := range calendar.SearchableMeta[calendar.PostTypeVenue] {
			p.Meta[m] = value()
		}
		live[id] = p
		return p
	}
	const n = 120
	for batch := int64(0); batch < 3; batch++ {
		var posts []*calendar.Post
		for id := batch*n/3 + 1; id <= (batch+1)*n/3; id++ {
			posts = append(posts, venue(id))
		}
		if err := idx.PutPosts(ctx, posts); err != nil {
			t.Fatal(err)
		}
		if err := idx.persist(closeWait); err != nil {
			t.Fatal(err)
		}
	}
	for range 10 { // moved and deleted: their old parts stay in the segments' dictionaries
		if err := idx.PutPosts(ctx, []*calendar.Post{venue(1 + rng.Int63n(n))}); err != nil {
			t.Fatal(err)
		}
		gone := 1 + rng.Int63n(n)
		if err := idx.DeletePost(ctx, gone); err != nil {
			t.Fatal(err)
		}
		delete(live, gone)
	}
	fragment := func() string {
		if rng.Intn(8) == 0 {
			return "zq" // in no field
		}
		w := []rune(strings.ToLower(vocabulary[rng.Intn(len(vocabulary))]))
		from := rng.Intn(len(w))
		return string(w[from : from+min(1+rng.Intn(4), len(w)-from)])
	}
	for range 60 {
		var fragments []string
		for range 1 + rng.Intn(3) {
			fragments = append(fragments, fragment())
		}
		var want []int64
		for id, p := range live {
			text := map[string]string{"title": p.Title, "content": p.Content, "excerpt": p.Excerpt}
			for _, f := range fields {
				v := strings.ToLower(text[f] + p.Meta[f])
				if v != "" && !slices.ContainsFunc(fragments, func(fr string) bool { return !strings.Contains(v, fr) }) {
					want = append(want, id)
					break
				}
			}
		}
		q := calendar.PostQuery{Type: calendar.PostTypeVenue, Fragments: fragments, Order: calendar.OrderStart, Limit: n}
		fromBitmaps, err := idx.searchBitmaps(ctx, q, nil)
		if err != nil {
			t.Fatal(err)
		}
		throughBleve := idsOf(t, idx, []query.Query{idx.filter(q, nil)})
		if got, want := sorted(fromBitmaps.IDs), sorted(want); !slices.Equal(got, want) || !slices.Equal(throughBleve, want) {
			t.Fatalf("%q: the parts find %v (bleve: %v), a substring search %v", fragments, got, throughBleve, want)
		}
	}
}

// TestAVenueSearchIgnoresAccentsAsTheDatabaseDoes: a venue's words are
// folded as an event's are, so a fragment typed without its accents finds
// them, as WordPress' database collation does (a search's own accented
// Latin letters split it: app.SearchFragments).
func TestAVenueSearchIgnoresAccentsAsTheDatabaseDoes(t *testing.T) {
	t.Parallel()
	idx := openIndex(t, t.TempDir())
	defer idx.Close()
	ctx := context.Background()
	posts := []*calendar.Post{
		{ID: 1, Type: calendar.PostTypeVenue, Status: calendar.StatusPublish, Title: "Café de Flore", Meta: map[string]string{"city": "Zürich"}},
		{ID: 2, Type: calendar.PostTypeOrganizer, Status: calendar.StatusPublish, Title: "Société Générale"},
	}
	if err := idx.PutPosts(ctx, posts); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		postType  string
		fragments []string
		want      []int64
	}{
		{calendar.PostTypeVenue, []string{"cafe", "flore"}, []int64{1}},
		{calendar.PostTypeVenue, []string{"zurich"}, []int64{1}},
		{calendar.PostTypeVenue, []string{"rich"}, []int64{1}},
		{calendar.PostTypeOrganizer, []string{"societe", "generale"}, []int64{2}},
		{calendar.PostTypeVenue, []string{"cafe", "zurich"}, nil}, // still within one field
	} {
		page, err := idx.SearchPosts(ctx, calendar.PostQuery{Type: c.postType, Fragments: c.fragments, Limit: 10})
		if err != nil || !slices.Equal(page.IDs, c.want) {
			t.Errorf("%s %q: %v (%v), want %v", c.postType, c.fragments, page.IDs, err, c.want)
		}
	}
}

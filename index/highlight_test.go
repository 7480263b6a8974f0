package index

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"calendar/app/calendar"
)

// The highlights are what the search found: an event a search finds has a
// highlight in its text, and one a search of one word does not find has
// none (of several, some may match), whichever the script, the search and
// the language.
func TestHighlightsShowWhatTheSearchFound(t *testing.T) {
	idx, err := Open(t.TempDir(), "fr")
	if err != nil {
		t.Fatal(err)
	}
	defer idx.Close()
	texts := []string{"Grand bal des pompiers", "Les chevaux de bois", "Café-concert", "Concert de jazz", "Jazzy brunch",
		"北京爵士音乐节", "東京のジャズフェスティバル", "서울 재즈 페스티벌에서", "เทศกาลดนตรีแจ๊ส", "Москва концерт", "Straße der Musik"}
	var posts []*calendar.Post
	for k, text := range texts {
		posts = append(posts, &calendar.Post{ID: int64(k + 1), Type: calendar.PostTypeEvent, Status: calendar.StatusPublish, Title: text})
	}
	if err := idx.PutPosts(context.Background(), posts); err != nil {
		t.Fatal(err)
	}
	searches := []string{"bal", "bals", "chevaux", "le bal", "cafe", "concert", "concrt", "jaz", "jazz", "爵士", "京", "ジャズ", "재즈", "페스티벌",
		"ดนตรี", "концерт", "strasse", "musik", "de", "oncer"}
	for _, search := range searches {
		for _, q := range []calendar.PostQuery{
			{Words: calendar.CapSearchWords(strings.Fields(search))},
			{Relevance: search},
			{Relevance: search, Language: "fr"},
		} {
			q.Type, q.Limit = calendar.PostTypeEvent, len(texts)
			page, err := idx.SearchPosts(context.Background(), q)
			if err != nil {
				t.Fatal(err)
			}
			found := map[string]bool{}
			for _, id := range page.IDs {
				found[strconv.FormatInt(id, 10)] = true
			}
			spans := idx.Highlight(q, texts)
			for k, text := range texts {
				if f := found[strconv.Itoa(k+1)]; f && len(spans[k]) == 0 || !f && len(spans[k]) > 0 && !strings.Contains(search, " ") {
					t.Errorf("%+v: %q found %v, highlights %v", q, text, found[strconv.Itoa(k+1)], spans[k])
				}
			}
		}
	}
}

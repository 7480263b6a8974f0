package controllers

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// No answer of ours links more than one resource to embed (a term's
// parent), so the budget of _embed is pinned here, on the function every
// answer goes through: at most MaxEmbedded fetches, each href once (as
// WordPress' embed_cache), the links past the budget left as a link that is
// not embeddable is ([]).
func TestEmbedFetchesEachLinkOnceAndAtMostMaxEmbedded(t *testing.T) {
	var links []string
	for i := range 3 * MaxEmbedded {
		links = append(links, fmt.Sprintf(`{"embeddable":true,"href":"http://site/r/%d"}`, i))
	}
	body := `{"id":1,"_links":{"item":[` + strings.Join(links, ",") + `],"again":[` + links[0] + `,{"href":"http://site/plain"}]}}`
	fetched := map[string]int{}
	out := embedLinks([]byte(body), &embedRequest{}, func(href string) ([]byte, bool) {
		fetched[href]++
		return []byte(`{"href":"` + href + `"}`), true
	})
	if len(fetched) != MaxEmbedded {
		t.Fatalf("fetched %d links, want %d", len(fetched), MaxEmbedded)
	}
	for href, n := range fetched {
		if n != 1 {
			t.Fatalf("%s fetched %d times", href, n)
		}
	}
	var got struct {
		Embedded map[string][]json.RawMessage `json:"_embedded"`
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	items := got.Embedded["item"]
	if len(items) != 3*MaxEmbedded || string(items[MaxEmbedded-1]) == "[]" || string(items[MaxEmbedded]) != "[]" {
		t.Fatalf("embedded items: %s", out)
	}
	if again := got.Embedded["again"]; len(again) != 2 || string(again[0]) != string(items[0]) || string(again[1]) != "[]" {
		t.Fatalf("a link fetched before is embedded from its first answer, a plain one as []: %s", again)
	}
}

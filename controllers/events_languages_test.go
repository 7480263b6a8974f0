package controllers_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"unicode/utf8"

	"calendar/app"
)

// june is the window of the events onDay makes.
const june = "start_date=2030-06-01&end_date=2030-06-30&"

// searchTitles are the titles a search of the June events answers, through
// prefix (a language segment, or "").
func (s *service) searchTitles(t *testing.T, prefix, query string) string {
	t.Helper()
	return titles(t, s.do("GET", prefix+eventsPath+"?"+june+query))
}

// A search in a script written without spaces finds the events holding it
// anywhere in a run of characters, and only those, by the plugin's search
// as by relevance; a search in Korean finds a word within its phrase. (A
// search of such characters used to match every event: the search kept no
// word of them.)
func TestASearchFindsWordsOfScriptsWrittenWithoutSpaces(t *testing.T) {
	t.Parallel()
	s := startService(t)
	s.event(onDay("北京爵士音乐节", 1, map[string]any{"description": "在工人体育场举行的三天音乐会"}))
	s.event(onDay("東京のジャズフェスティバル", 2, map[string]any{"description": "パーティーは夜まで続きます"}))
	s.event(onDay("서울 재즈 페스티벌", 3, map[string]any{"description": "올림픽공원에서 열리는 음악 축제"}))
	s.event(onDay("เทศกาลดนตรีแจ๊ส", 4, map[string]any{"description": "คอนเสิร์ตกลางแจ้งที่เชียงใหม่"}))
	s.event(onDay("Jazz festival", 5, map[string]any{"description": "Москва, концерт"}))
	cases := []struct{ search, want string }{
		{"爵士", "北京爵士音乐节"},                // within the title's run
		{"音乐", "北京爵士音乐节"},                // in the title and the description
		{"体育场", "北京爵士音乐节"},               // three characters, in the description
		{"北京 音乐会", "北京爵士音乐节"},            // two words, each somewhere
		{"京", "北京爵士音乐节,東京のジャズフェスティバル"},   // one character, in both scripts that write it
		{"ジャズ", "東京のジャズフェスティバル"},         // katakana within a run of kanji, kana and katakana
		{"パーティー", "東京のジャズフェスティバル"},       // with the prolonged sound mark
		{"재즈", "서울 재즈 페스티벌"},             // a Korean word
		{"공원", "서울 재즈 페스티벌"},             // within 올림픽공원에서 ("at the Olympic Park")
		{"ดนตรี", "เทศกาลดนตรีแจ๊ส"},     // "music", its vowel a mark, within the run
		{"เชียงใหม่", "เทศกาลดนตรีแจ๊ส"}, // Chiang Mai, in the description
		{"концерт", "Jazz festival"},     // Cyrillic, as WordPress finds it
		{"上海", ""},                       // no event holds it
		{"jazz", "Jazz festival"},        // Latin text as before
	}
	for _, c := range cases {
		for _, order := range []string{"", "&orderby=relevance"} {
			t.Run(c.search+order, func(t *testing.T) {
				if got := s.searchTitles(t, "", "search="+url.QueryEscape(c.search)+order); got != c.want {
					t.Fatalf("%s: %q, want %q", c.search, got, c.want)
				}
			})
		}
	}
}

// A venue search finds a fragment in another script than Latin as WordPress
// finds any substring (it used to match every venue).
func TestAVenueSearchFindsOtherScripts(t *testing.T) {
	t.Parallel()
	s := startService(t)
	s.create("venue", asAdmin(), "venue", "工人体育场", "city", "北京")
	s.create("venue", asAdmin(), "venue", "สวนลุมพินี", "city", "กรุงเทพมหานคร")
	s.create("venue", asAdmin(), "venue", "Salle Pleyel", "city", "Paris")
	for search, want := range map[string]string{"体育": "工人体育场", "ลุมพินี": "สวนลุมพินี", "กรุงเทพ": "สวนลุมพินี", "pleyel": "Salle Pleyel"} {
		var got []string
		for _, v := range s.do("GET", "/vendor/events/v1/venues?search="+url.QueryEscape(search)).object(t)["venues"].([]any) {
			got = append(got, v.(map[string]any)["venue"].(string))
		}
		if strings.Join(got, ",") != want {
			t.Errorf("%s: %v, want %s", search, got, want)
		}
	}
}

// A relevance search under a language segment the site has (or without one:
// the site's first language) matches words by their stems too, and the
// language's stop words select nothing; the plugin's search is left as it is.
func TestARelevanceSearchStemsInTheLanguageOfTheAddress(t *testing.T) {
	t.Parallel()
	s := startServiceSettings(t, func(set *app.Settings) { set.Languages = []string{"fr", "de"} }, noConfig)
	s.event(onDay("Grand bal des pompiers", 1, map[string]any{"description": "Un cheval de bois et des manèges"}))
	s.event(onDay("Das Haus der Musik", 2, map[string]any{"description": "Lesung aus einem neuen Buch"}))
	s.event(onDay("Concert of the year", 3, nil))
	cases := []struct{ name, prefix, search, want string }{
		{"a French plural finds its singular", "/fr", "bals", "Grand bal des pompiers"},
		{"a French irregular plural", "/fr", "chevaux", "Grand bal des pompiers"},
		{"French stop words are optional", "/fr", "le bal des pompiers", "Grand bal des pompiers"},
		{"a German plural with an umlaut", "/de", "Häuser", "Das Haus der Musik"},
		{"a German plural in the description", "/de", "Bücher", "Das Haus der Musik"},
		{"German stop words are optional", "/de", "die Musik", "Das Haus der Musik"},
		{"a regional tag names its language", "/fr-ca", "bals", "Grand bal des pompiers"},
		{"no segment: the site's first language", "", "chevaux", "Grand bal des pompiers"},
		{"a language the site has not: its first", "/es", "bals", "Grand bal des pompiers"},
		{"the segment's language, not another's", "/fr", "Häuser", ""},
		{"a typo still matches as it did", "/fr", "concerts", "Concert of the year"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := s.searchTitles(t, c.prefix, "orderby=relevance&search="+url.QueryEscape(c.search)); got != c.want {
				t.Fatalf("%s%s: %q, want %q", c.prefix, c.search, got, c.want)
			}
		})
	}
	t.Run("the plugin's search keeps its substrings, and finds stems as relevance does", func(t *testing.T) {
		for _, search := range []string{"ompier", "bals"} {
			if got := s.searchTitles(t, "/fr", "search="+search); got != "Grand bal des pompiers" {
				t.Fatalf("%s: %q", search, got)
			}
		}
	})
	t.Run("a site without languages stems nothing", func(t *testing.T) {
		plain := startService(t)
		plain.event(onDay("Grand bal des pompiers", 1, nil))
		if got := plain.searchTitles(t, "/fr", "orderby=relevance&search=bals"); got != "" {
			t.Fatalf("%q", got)
		}
	})
}

// highlights are the highlight objects of a list answer, by title; absent
// ones are left out.
func highlights(t *testing.T, res *response) map[string]map[string]any {
	t.Helper()
	res.expectStatus(t, http.StatusOK)
	out := map[string]map[string]any{}
	for _, e := range res.object(t)["events"].([]any) {
		event := e.(map[string]any)
		if h, ok := event["highlight"]; ok {
			out[event["title"].(string)] = h.(map[string]any)
		}
	}
	return out
}

// highlight=true with a search gives each event of the page its title and a
// snippet of its description's text with the matched words in <mark>, the
// rest HTML-escaped, as the search matched them (its substrings, its
// typos, its pairs of characters, its stems); without it, or without a
// search, the events are the plugin's.
func TestHighlightsMarkWhatTheSearchMatched(t *testing.T) {
	t.Parallel()
	s := startServiceSettings(t, func(set *app.Settings) { set.Languages = []string{"fr"} }, noConfig)
	long := strings.Repeat("Une soirée d'été sur les quais, ", 8) + "avec le meilleur <strong>jazz</strong> &amp; blues de la ville. " +
		strings.Repeat("Buvette et restauration sur place. ", 8)
	s.event(onDay("Rock & Jazz <live>", 1, map[string]any{"description": long}))
	s.event(onDay("北京爵士音乐节", 2, map[string]any{"description": "在工人体育场举行"}))
	s.event(onDay("Grand bal des pompiers", 3, map[string]any{"description": "<p>Concert et bals populaires.</p>"}))
	s.event(onDay("Jazzy brunch", 4, map[string]any{"description": "Pancakes", "password": "sesame"}))
	cases := []struct{ name, query, title, wantTitle, wantDescription string }{
		{"the plugin's search marks the words holding it", "search=jazz", "Rock & Jazz <live>", "Rock &amp; <mark>Jazz</mark> &lt;live&gt;",
			"…d’été sur les quais, avec le meilleur <mark>jazz</mark> &amp; blues de la ville. Buvette et restauration sur place. Buvette et restauration sur place. Buvette et restauration…"},
		{"a protected description shows nothing", "search=jazz", "Jazzy brunch", "<mark>Jazzy</mark> brunch", ""},
		{"prefixes of a relevance search", "search=jaz+roc&orderby=relevance", "Rock & Jazz <live>", "<mark>Rock</mark> &amp; <mark>Jazz</mark> &lt;live&gt;", ""},
		{"a typo of a relevance search", "search=concrt&orderby=relevance", "Grand bal des pompiers", "Grand bal des pompiers", "<mark>Concert</mark> et bals populaires."},
		{"pairs of characters", "search=" + url.QueryEscape("爵士 体育"), "北京爵士音乐节", "北京<mark>爵士</mark>音乐节", "在工人<mark>体育</mark>场举行"},
		{"stems, and not stop words", "search=le+bal&orderby=relevance", "Grand bal des pompiers", "Grand <mark>bal</mark> des pompiers", "Concert et <mark>bals</mark> populaires."},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h, ok := highlights(t, s.do("GET", eventsPath+"?"+june+c.query+"&highlight=true"))[c.title]
			if !ok {
				t.Fatalf("%s has no highlight", c.title)
			}
			if h["title"] != c.wantTitle {
				t.Errorf("title %q, want %q", h["title"], c.wantTitle)
			}
			if c.wantDescription != "" && h["description"] != c.wantDescription || c.title == "Jazzy brunch" && h["description"] != "" {
				t.Errorf("description %q, want %q", h["description"], c.wantDescription)
			}
		})
	}
	t.Run("a long description without a match begins the snippet", func(t *testing.T) {
		h := highlights(t, s.do("GET", eventsPath+"?"+june+"search=rock&highlight=true"))["Rock & Jazz <live>"]
		if d := h["description"].(string); !strings.HasPrefix(d, "Une soirée d’été") || !strings.HasSuffix(d, "…") || utf8.RuneCountInString(d) > 170 {
			t.Fatalf("%q", d)
		}
	})
	for _, query := range []string{"search=jazz", "search=jazz&highlight=false", "highlight=true"} {
		t.Run("no highlight with "+query, func(t *testing.T) {
			res := s.do("GET", eventsPath+"?"+june+query)
			if got := highlights(t, res); len(got) != 0 || strings.Contains(string(res.Body), `"highlight"`) {
				t.Fatalf("%s", res.Body)
			}
		})
	}
}

// The document shows the search's parameters, each described and none with
// an example value (Swagger UI would send them together), and the
// highlight's shape in the event's schema.
func TestTheDocShowsTheSearchParameters(t *testing.T) {
	t.Parallel()
	s := startService(t)
	doc := s.do("GET", "/vendor/events/v1/doc").object(t)
	list := doc["paths"].(map[string]any)["/events"].(map[string]any)["get"].(map[string]any)
	params := map[string]map[string]any{}
	for _, p := range asList(list["parameters"]) {
		param := p.(map[string]any)
		params[param["name"].(string)] = param
	}
	for name, says := range map[string]string{"search": "at most 9", "orderby": "relevance", "highlight": "<mark>"} {
		if description, _ := params[name]["description"].(string); params[name]["example"] != nil || !strings.Contains(description, says) {
			t.Errorf("%s: %v", name, params[name])
		}
	}
	event := doc["components"].(map[string]any)["schemas"].(map[string]any)["EventView"].(map[string]any)["properties"].(map[string]any)
	if _, ok := event["highlight"]; !ok {
		t.Errorf("EventView has no highlight: %v", keys(event))
	}
}

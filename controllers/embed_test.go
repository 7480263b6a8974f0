package controllers_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"calendar/app/calendar"
)

// WordPress' _embed (class-wp-rest-server.php: serve_request reads it,
// response_to_data and embed_links apply it) puts into _embedded, keyed by
// relation, the answers to the links of an answer's _links marked
// embeddable, each fetched as the caller with context=embed, and removes
// nothing. Of the plugin's answers only a term read, created or updated
// alone has links: Term_Single_Base::get, create and update hand back
// WordPress' own term response (WP_REST_Terms_Controller::get_item and
// prepare_links: self, collection, about, up when the term has a parent,
// embeddable, and wp:post_type) with its data replaced; its lists drop them
// (Post_Repository::prepare_term_data unsets _links from each item) and
// its deletion builds a new response. Events, venues and organizers are
// new WP_REST_Response( $data ) with no link (Single_Event::get,
// Single_Venue::get), so _embed leaves them as they are.

const categoriesPath = "/vendor/events/v1/categories"

// family makes a category Music and its child Jazz, and returns both.
func family(s *service) (parent, child map[string]any) {
	s.t.Helper()
	parent = s.term("categories", "name", "Music")
	child = s.term("categories", "name", "Jazz", "parent", idOf(parent))
	return parent, child
}

func TestATermAloneCarriesWordPressLinksItsListsAndDeletionsNone(t *testing.T) {
	t.Parallel()
	s := startService(t)
	parent, child := family(s)
	api := s.URL + "/vendor/events/v1/"
	wantLinks := func(t *testing.T, name string, body []byte, root string, term map[string]any) {
		t.Helper()
		var m struct {
			Links json.RawMessage `json:"_links"`
		}
		if err := json.Unmarshal(body, &m); err != nil || m.Links == nil {
			t.Fatalf("%s: no _links: %s", name, body)
		}
		id := idOf(term)
		want := `{"self":[{"href":"` + root + `categories/` + id + `"}],"collection":[{"href":"` + root + `categories"}],`
		if term["parent"] != float64(0) {
			want += `"up":[{"embeddable":true,"href":"` + root + `categories/` + idOf(parent) + `"}],`
		}
		want += `"wp:post_type":[{"href":"` + root + `events?categories=` + id + `"}],` +
			`"curies":[{"name":"wp","href":"https://api.w.org/{rel}","templated":true}]}`
		if string(m.Links) != want {
			t.Fatalf("%s: _links\n got %s\nwant %s", name, m.Links, want)
		}
	}
	read := s.do("GET", categoriesPath+"/"+idOf(child))
	read.expectStatus(t, http.StatusOK)
	wantLinks(t, "a read", read.Body, api, child)
	wantLinks(t, "a top-level read", s.do("GET", categoriesPath+"/"+idOf(parent)).Body, api, parent)
	created := s.do("POST", categoriesPath, asAdmin(), form("name", "Bebop", "parent", idOf(parent)))
	created.expectStatus(t, http.StatusCreated)
	wantLinks(t, "a creation", created.Body, api, created.object(t))
	updated := s.do("POST", categoriesPath+"/"+idOf(child), asAdmin(), form("description", "Swing and all"))
	updated.expectStatus(t, http.StatusOK)
	wantLinks(t, "an update", updated.Body, api, child)
	wpJSON := s.URL + "/fr/wp-json/vendor/events/v1/"
	throughWPJSON := s.do("GET", "/fr/wp-json/vendor/events/v1/categories/"+idOf(child)+"?_embed")
	wantLinks(t, "a read through /fr/wp-json/", throughWPJSON.Body, wpJSON, child)
	var embedded struct {
		Embedded struct{ Up []json.RawMessage } `json:"_embedded"`
	}
	if json.Unmarshal(throughWPJSON.Body, &embedded) != nil || len(embedded.Embedded.Up) != 1 {
		t.Fatalf("no parent embedded through /fr/wp-json/: %s", throughWPJSON.Body)
	}
	wantLinks(t, "the parent embedded through /fr/wp-json/", embedded.Embedded.Up[0], wpJSON, parent)
	tag := s.do("GET", "/vendor/events/v1/tags/"+idOf(s.term("tags", "name", "Free")))
	if !strings.Contains(string(tag.Body), `"wp:post_type":[{"href":"`+api+`events?tags=`) || strings.Contains(string(tag.Body), `"up"`) {
		t.Fatalf("a tag's links: %s", tag.Body)
	}

	for _, path := range []string{categoriesPath + "?hide_empty=false", categoriesPath + "?hide_empty=false&_embed"} {
		if body := s.do("GET", path).Body; bytes.Contains(body, []byte("_links")) || bytes.Contains(body, []byte("_embedded")) {
			t.Fatalf("%s: a list's items have links: %s", path, body)
		}
	}
	deleted := s.do("DELETE", categoriesPath+"/"+idOf(created.object(t))+"?_embed", asAdmin())
	deleted.expectStatus(t, http.StatusOK)
	if bytes.Contains(deleted.Body, []byte("_links")) || bytes.Contains(deleted.Body, []byte("_embedded")) {
		t.Fatalf("a deletion's answer has links: %s", deleted.Body)
	}
}

func TestEmbedPutsTheParentTermAsItsEmbedContextShowsItBesideAnUnchangedAnswer(t *testing.T) {
	t.Parallel()
	s := startService(t)
	parent, child := family(s)
	asEmbedded := s.do("GET", categoriesPath+"/"+idOf(parent)+"?context=embed")
	asEmbedded.expectStatus(t, http.StatusOK)
	if got := strings.Join(keyOrder(t, asEmbedded.Body), " "); got != "id name slug taxonomy url urls _links" {
		t.Fatalf("a term in context=embed has keys %s: %s", got, asEmbedded.Body)
	}
	if urls := asEmbedded.object(t)["urls"].(map[string]any); len(urls) != 2 || urls["self"] == nil || urls["collection"] == nil {
		t.Fatalf("a term's urls in context=embed: %v", urls)
	}
	plain := s.do("GET", categoriesPath+"/"+idOf(child)).Body
	for _, c := range []struct {
		name   string
		method string
		path   string
		opts   []option
	}{
		{"a read", "GET", categoriesPath + "/" + idOf(child) + "?_embed", nil},
		{"a read as a subscriber would", "GET", categoriesPath + "/" + idOf(child) + "?_embed=up", nil},
		{"an update", "POST", categoriesPath + "/" + idOf(child) + "?_embed", []option{asAdmin(), form("name", "Jazz")}},
		{"a creation", "POST", categoriesPath + "?_embed", []option{asAdmin(), form("name", "Bebop", "parent", idOf(parent))}},
	} {
		t.Run(c.name, func(t *testing.T) {
			res := s.do(c.method, c.path, c.opts...)
			if res.Status >= 300 {
				t.Fatalf("status %d: %s", res.Status, res.Body)
			}
			var got struct {
				Embedded map[string][]json.RawMessage `json:"_embedded"`
			}
			if err := json.Unmarshal(res.Body, &got); err != nil || len(got.Embedded) != 1 || len(got.Embedded["up"]) != 1 {
				t.Fatalf("_embedded should hold up alone: %s", res.Body)
			}
			if string(got.Embedded["up"][0])+"\n" != string(asEmbedded.Body) {
				t.Fatalf("embedded parent\n got %s\nwant %s", got.Embedded["up"][0], asEmbedded.Body)
			}
			if keys := keyOrder(t, res.Body); keys[len(keys)-1] != "_embedded" {
				t.Fatalf("_embedded is not last: %v", keys)
			}
			if c.method == "GET" {
				without, _, _ := bytes.Cut(res.Body, []byte(`,"_embedded":`))
				if string(without)+"}\n" != string(plain) {
					t.Fatalf("the answer around _embedded changed\n got %s\nwant %s", res.Body, plain)
				}
			}
		})
	}
}

func TestEmbedIsReadAsWordPressReadsIt(t *testing.T) {
	t.Parallel()
	s := startService(t)
	_, child := family(s)
	// What rest_parse_embed_param of WordPress 6.1 makes of each query, as
	// php-cli printed it over PHP's own parse_str: true (everything) or the
	// relations listed. A term's one embeddable link is up.
	for _, c := range []struct {
		query  string
		embeds bool
	}{
		{"", false},
		{"_embed", true},
		{"_embed=", true},
		{"_embed=1", true},
		{"_embed=true", true},
		{"_embed=0", true},             // PHP's empty "0"
		{"_embed=,", true},             // a list of nothing
		{"_embed=false", false},        // ["false"]
		{"_embed=up", true},            // ["up"]
		{"_embed=author,up", true},     // ["author","up"]
		{"_embed=%20up%20", true},      // ["up"]
		{"_embed=author", false},       // ["author"]
		{"_embed=UP", false},           // relations compare exactly
		{"_embed=wp:post_type", false}, // listed, but not embeddable
		{"_embed[]=up", true},
		{"_embed[]=author&_embed[]=up", true},
		{"_embed[]=", false},                 // [""]
		{"_embed=author&_embed[]=up", true},  // the last form wins: ["up"]
		{"_embed[]=up&_embed=author", false}, // ["author"]
	} {
		res := s.do("GET", categoriesPath+"/"+idOf(child)+"?"+c.query)
		res.expectStatus(t, http.StatusOK)
		if got := bytes.Contains(res.Body, []byte(`"_embedded":{"up":[{"id":`)); got != c.embeds {
			t.Errorf("?%s: embeds the parent: %v, want %v (%s)", c.query, got, c.embeds, res.Body)
		}
	}
}

func TestEmbedShowsWhatTheCallerMayNotReadAsTheErrorReadingItGives(t *testing.T) {
	t.Parallel()
	r := startWithRoles(t)
	draft := r.event(map[string]any{"title": "Launch", "status": "draft", "start_date": "2031-03-01 20:00",
		"end_date": "2031-03-01 22:00", "categories": "Spring launch"}, r.creds[calendar.RoleEditor])
	hidden := draft["categories"].([]any)[0].(map[string]any)
	child := r.term("categories", "name", "Keynotes", "parent", idOf(hidden))
	embedded := func(opts ...option) string {
		res := r.do("GET", categoriesPath+"/"+idOf(child)+"?_embed", opts...)
		res.expectStatus(t, http.StatusOK)
		var got struct {
			Embedded map[string][]json.RawMessage `json:"_embedded"`
		}
		if err := json.Unmarshal(res.Body, &got); err != nil || len(got.Embedded["up"]) != 1 {
			t.Fatalf("no embedded parent: %s", res.Body)
		}
		return string(got.Embedded["up"][0])
	}
	readAlone := string(bytes.TrimSpace(r.do("GET", categoriesPath+"/"+idOf(hidden)+"?context=embed").Body))
	for _, who := range []struct {
		name string
		opts []option
	}{{"a visitor", nil}, {"a subscriber", []option{r.creds[calendar.RoleSubscriber]}}} {
		got := embedded(who.opts...)
		if strings.Contains(got, "Spring launch") || !strings.Contains(got, `"code":"rest_invalid_param"`) || !strings.Contains(got, `"status":400`) {
			t.Errorf("%s is embedded the hidden parent: %s", who.name, got)
		}
		if who.opts == nil && got != readAlone {
			t.Errorf("the embedded error is not what reading the parent answers\n got %s\nwant %s", got, readAlone)
		}
	}
	if got := embedded(r.creds[calendar.RoleEditor]); !strings.Contains(got, `"name":"Spring launch"`) {
		t.Fatalf("an editor, who reads the parent, is not embedded it: %s", got)
	}
}

func TestEmbedWithFieldsEnvelopeJSONPAndConditionalReadsAsWordPress(t *testing.T) {
	t.Parallel()
	s := startService(t)
	parent, child := family(s)
	path := categoriesPath + "/" + idOf(child)
	// WordPress adds a term's links only when _fields names _links, or
	// names _embedded with _embed (get_fields_for_response,
	// rest_is_field_included), and whole: _fields trims the data alone.
	for _, c := range []struct {
		query string
		keys  string
	}{
		{"_fields=id&_embed", "id"},
		{"_fields=id,_links&_embed", "id _links _embedded"},
		{"_fields=id,_embedded&_embed", "id _links _embedded"},
		{"_fields=id,_embedded", "id"},
		{"_fields=name,_links.self", "name _links"},
		{"_embed&_fields=_embedded.up", "_links _embedded"},
	} {
		res := s.do("GET", path+"?"+c.query)
		res.expectStatus(t, http.StatusOK)
		if got := strings.Join(keyOrder(t, res.Body), " "); got != c.keys {
			t.Errorf("?%s: keys %q, want %q (%s)", c.query, got, c.keys, res.Body)
		}
		if links, ok := res.object(t)["_links"].(map[string]any); ok && len(links) != 5 {
			t.Errorf("?%s: _links trimmed: %v", c.query, links)
		}
	}
	enveloped := s.do("GET", path+"?_embed&_envelope").object(t)
	if up := enveloped["body"].(map[string]any)["_embedded"].(map[string]any)["up"].([]any); len(up) != 1 || enveloped["status"] != float64(200) {
		t.Fatalf("_envelope with _embed: %v", enveloped)
	}
	script := s.do("GET", path+"?_embed&_jsonp=show")
	if !strings.HasPrefix(string(script.Body), "/**/show({") || !bytes.Contains(script.Body, []byte(`"_embedded":{"up":[`)) {
		t.Fatalf("_jsonp with _embed: %s", script.Body)
	}

	embedded := s.do("GET", path+"?_embed")
	tag := embedded.Header.Get("ETag")
	if tag == "" || tag == s.do("GET", path).Header.Get("ETag") {
		t.Fatalf("the embedding answer's ETag %q is the plain answer's", tag)
	}
	if head := s.do("HEAD", path+"?_embed"); head.Header.Get("ETag") != tag {
		t.Fatalf("HEAD's ETag %q, GET's %q", head.Header.Get("ETag"), tag)
	}
	s.do("GET", path+"?_embed", header("If-None-Match", tag)).expectStatus(t, http.StatusNotModified)
	s.do("POST", categoriesPath+"/"+idOf(parent), asAdmin(), form("name", "Music and more")).expectStatus(t, http.StatusOK)
	again := s.do("GET", path+"?_embed", header("If-None-Match", tag))
	again.expectStatus(t, http.StatusOK)
	if !bytes.Contains(again.Body, []byte(`"name":"Music and more"`)) {
		t.Fatalf("the renamed parent is not embedded: %s", again.Body)
	}
}

func TestEmbedChangesNothingWhereThePluginsAnswersHaveNoLinks(t *testing.T) {
	t.Parallel()
	s := startService(t)
	venue := s.create("venue", asAdmin(), "venue", "Hall")
	organizer := s.create("organizer", asAdmin(), "organizer", "Ann")
	fields := at("Gala", "2031-05-01 20:00:00", "2031-05-01 23:00:00")
	fields["venue"], fields["organizer"], fields["categories"] = venue["id"], []any{organizer["id"]}, "Music"
	event := s.event(fields)
	for _, path := range []string{
		eventsPath, eventsPath + "/" + idOf(event), eventsPath + "/by-slug/" + event["slug"].(string),
		"/vendor/events/v1/venues", "/vendor/events/v1/venues/" + idOf(venue), "/vendor/events/v1/organizers/" + idOf(organizer),
		categoriesPath, "/vendor/events/v1/tags?hide_empty=false", "/vendor/events/v1", "/wp-json/",
		"/vendor/events/v1/events/999999", // an error
	} {
		for _, convention := range []string{"", "_fields=id,title", "_envelope", "_jsonp=show"} {
			sep := "?"
			if strings.Contains(path, "?") {
				sep = "&"
			}
			plain := path
			if convention != "" {
				plain += sep + convention
				sep = "&"
			}
			want := s.do("GET", plain)
			got := s.do("GET", plain+sep+"_embed")
			if got.Status != want.Status || !bytes.Equal(got.Body, want.Body) || got.Header.Get("ETag") != want.Header.Get("ETag") {
				t.Errorf("%s: _embed changed the answer: %d %s (ETag %s)\nwant %d %s (ETag %s)", plain, got.Status, got.Body,
					got.Header.Get("ETag"), want.Status, want.Body, want.Header.Get("ETag"))
				continue
			}
			if tag := want.Header.Get("ETag"); tag != "" {
				s.do("GET", plain+sep+"_embed", header("If-None-Match", tag)).expectStatus(t, http.StatusNotModified)
			}
		}
	}
}

func TestATermsContextIsViewEmbedOrEdit(t *testing.T) {
	t.Parallel()
	s := startService(t)
	_, child := family(s)
	path := categoriesPath + "/" + idOf(child)
	view := s.do("GET", path).Body
	for _, context := range []string{"view", "edit"} {
		if got := s.do("GET", path+"?context="+context).Body; !bytes.Equal(got, view) {
			t.Errorf("context=%s\n got %s\nwant %s", context, got, view)
		}
	}
	s.do("GET", path+"?context=full").expectError(t, http.StatusBadRequest, "rest_invalid_param")
}

func TestTheOpenAPIDocumentNamesEmbedAndContextWhereATermIsAnswered(t *testing.T) {
	t.Parallel()
	s := startService(t)
	var doc struct {
		Paths map[string]map[string]json.RawMessage
	}
	if err := json.Unmarshal(s.do("GET", "/vendor/events/v1/doc").Body, &doc); err != nil {
		t.Fatal(err)
	}
	for _, op := range []struct{ path, method, want string }{
		{"/categories/{id}", "get", "context _embed"}, {"/tags/{id}", "get", "context _embed"},
		{"/categories/{id}", "put", "_embed"}, {"/categories", "post", "_embed"},
	} {
		var operation struct {
			Parameters []struct {
				Name, In string
				Schema   struct{ Enum []string }
			}
		}
		if err := json.Unmarshal(doc.Paths[op.path][op.method], &operation); err != nil {
			t.Fatalf("%s %s: %v", op.method, op.path, err)
		}
		var got []string
		for _, p := range operation.Parameters {
			if p.In == "query" {
				got = append(got, p.Name)
				if p.Name == "context" && strings.Join(p.Schema.Enum, ",") != "view,embed,edit" {
					t.Errorf("%s %s: context's values %v", op.method, op.path, p.Schema.Enum)
				}
			}
		}
		if strings.Join(got, " ") != op.want {
			t.Errorf("%s %s: query parameters %v, want %s", op.method, op.path, got, op.want)
		}
	}
}

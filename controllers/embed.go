package controllers

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"regexp"
	"strings"

	"github.com/go-fuego/fuego"

	"calendar/app/calendar"
)

// MaxEmbedded is how many linked resources one answer's _embed fetches at
// most; links past it are left unembedded, as a link that is not embeddable.
const MaxEmbedded = 8

// embedDoc documents _embed on the routes whose answers have a link to
// embed; it works on every route, where the others change nothing.
var embedDoc = fuego.OptionQuery("_embed", "WordPress' _embed: the answer gains _embedded, the linked resources marked "+
	"embeddable (a category's parent, under up) as their routes answer them with context=embed, read as the caller. "+
	"Alone, empty, 1 or true: every relation; else the relations to embed, comma-separated (_embed=up) or as _embed[]=up.")

// embedRequest is what _embed asks for: every embeddable link (rels nil),
// or those of the relations it names.
type embedRequest struct {
	rels []string
}

func (e *embedRequest) wants(rel string) bool {
	return e.rels == nil || contains(e.rels, rel)
}

// embedListSeparators are wp_parse_list's: PCRE's \s (vertical tab
// included, which Go's \s leaves out) and commas.
var embedListSeparators = regexp.MustCompile(`[\t\n\v\f\r ,]+`)

// parseEmbed reads _embed as WordPress does (rest_parse_embed_param over
// PHP's $_GET): nil when absent. A plain value that PHP calls empty ("",
// "0"), "true" and "1" embed everything; another is a list of relations
// split on commas and spaces. _embed[]=a&_embed[]=b is the list [a, b], and
// whichever of the two forms comes last wins, as PHP reads a query. A list
// with no relation in it embeds everything.
func parseEmbed(rawQuery string) *embedRequest {
	var (
		present, isList bool
		scalar          string
		items           []string // the list's scalar items, in order
	)
	for _, pair := range strings.Split(rawQuery, "&") {
		rawKey, rawValue, _ := strings.Cut(pair, "=")
		key, err := url.QueryUnescape(rawKey)
		if err != nil {
			continue
		}
		value, err := url.QueryUnescape(rawValue)
		if err != nil {
			continue
		}
		name, path := splitBrackets(key)
		switch {
		case name != "_embed":
			continue
		case len(path) == 0:
			present, isList, scalar = true, false, value
		default:
			if !isList {
				items = []string{}
			}
			present, isList = true, true
			if len(path) == 1 { // deeper keys are arrays, which wp_parse_list drops
				items = append(items, value)
			}
		}
	}
	switch {
	case !present:
		return nil
	case isList && len(items) > 0:
		return &embedRequest{rels: items}
	case isList, scalar == "", scalar == "0", scalar == "true", scalar == "1":
		return &embedRequest{}
	}
	var rels []string
	for _, rel := range embedListSeparators.Split(scalar, -1) {
		if rel != "" {
			rels = append(rels, rel)
		}
	}
	if len(rels) == 0 {
		return &embedRequest{}
	}
	return &embedRequest{rels: rels}
}

// embeddedLink is one entry of a _links relation, as far as _embed reads it.
type embeddedLink struct {
	Href       string `json:"href"`
	Embeddable bool   `json:"embeddable"`
}

// embedLinks adds _embedded to a JSON object that has _links, as WordPress'
// embed_links does: for each relation _embed asks for, each link in order is
// the answer to a GET of its href with context=embed when it is embeddable,
// else [] (kept so that positions match _links); a relation with no
// embedded answer is left out. An href is fetched once per answer, and at
// most MaxEmbedded of them. Answers to the fetches are embedded as they
// are, errors included (what the caller may not read is the error reading
// it gives). The body is returned unchanged when nothing is embedded.
func embedLinks(body []byte, want *embedRequest, fetch func(href string) ([]byte, bool)) []byte {
	members, ok := objectMembers(bytes.TrimSpace(body))
	if !ok {
		return body
	}
	var links []rawMember
	for _, m := range members {
		if m.key == "_links" {
			links, _ = objectMembers(m.value)
		}
	}
	fetched := map[string][]byte{}
	var embedded []rawMember
	for _, rel := range links {
		items, ok := arrayItems(rel.value)
		if !ok || !want.wants(rel.key) {
			continue
		}
		answers, real := make([][]byte, len(items)), false
		for i, item := range items {
			answers[i] = []byte("[]")
			var link embeddedLink
			if json.Unmarshal(item, &link) != nil || !link.Embeddable {
				continue
			}
			answer, seen := fetched[link.Href]
			if !seen && len(fetched) < MaxEmbedded {
				answer, _ = fetch(link.Href)
				fetched[link.Href] = answer
			}
			if len(answer) > 0 && !bytes.Equal(answer, []byte("[]")) { // PHP's empty array embeds nothing
				answers[i], real = answer, true
			}
		}
		if real {
			embedded = append(embedded, rawMember{rel.key, writeArray(answers)})
		}
	}
	if len(embedded) == 0 {
		return body
	}
	members = append(members, rawMember{"_embedded", writeObject(embedded)})
	return append(writeObject(members), '\n')
}

// embedFetcher fetches the links of an answer for actor, as WordPress'
// internal requests do: a GET of the href, if it is one of this service's
// URLs, as the same user (the credentials already checked, not again),
// with context=embed unless the href names a context. It answers what the
// route answers, shaped by its context, or an error in the error shape.
func (api *API) embedFetcher(ctx context.Context, actor *calendar.User) func(href string) ([]byte, bool) {
	return func(href string) ([]byte, bool) {
		u, err := url.Parse(href)
		if err != nil || !strings.HasPrefix(href, api.cfg.SiteURL+"/") {
			return nil, false
		}
		query := u.Query()
		if query.Get("context") == "" {
			query.Set("context", "embed")
		}
		u.RawQuery = query.Encode()
		r, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
		if err != nil {
			return nil, false
		}
		v := readdress(r)
		sub := newAnswer(headerOnly{}, r)
		r = r.WithContext(context.WithValue(ctx, ctxKey{}, requestInfo{via: v, actor: actor, answer: sub}))
		api.serveEmbedded(sub, r)
		body := bytes.TrimSpace(sub.body.Bytes())
		if sub.status < 300 { // 0: a handler that set none
			body = bytes.TrimSpace(sub.shape(body))
		}
		return body, json.Valid(body)
	}
}

// serveEmbedded runs one internal request through its route (no access log,
// no second authentication).
func (api *API) serveEmbedded(sub *answer, r *http.Request) {
	defer api.recoverPanic(sub, r)
	if len(r.URL.Path) > 1 {
		r.URL.Path = strings.TrimSuffix(r.URL.Path, "/")
	}
	if _, pattern := api.server.Mux.Handler(r); pattern == "" {
		api.writeError(sub, r, errNoRoute())
		return
	}
	api.server.Mux.ServeHTTP(sub, r)
}

// headerOnly is the writer under an internal request's answer, which keeps
// its body itself and is never sent.
type headerOnly struct{}

func (headerOnly) Header() http.Header         { return http.Header{} }
func (headerOnly) Write(b []byte) (int, error) { return len(b), nil }
func (headerOnly) WriteHeader(int)             {}

package app

import (
	"io"
	"strings"

	"golang.org/x/net/html"
)

// Descriptions from another site are that site's HTML, not the author's:
// whoever the source writes as (often an administrator, whose own writes
// keep any HTML, as WordPress' unfiltered_html lets them), what a feed says
// is kept only as far as WordPress' post filter (wp_kses_post) lets a
// writer without that capability keep it: the tags of text, links and
// images, never scripts, styles, frames, forms or event handlers, and only
// http(s) and mailto URLs.

// importTags are the tags kept, with the attributes each keeps.
var importTags = map[string][]string{
	"p": nil, "br": nil, "b": nil, "strong": nil, "i": nil, "em": nil, "u": nil, "s": nil, "small": nil, "sub": nil, "sup": nil,
	"h1": nil, "h2": nil, "h3": nil, "h4": nil, "h5": nil, "h6": nil, "blockquote": nil, "pre": nil, "code": nil, "hr": nil,
	"ul": nil, "ol": nil, "li": nil, "dl": nil, "dt": nil, "dd": nil, "span": nil, "div": nil,
	"table": nil, "thead": nil, "tbody": nil, "tr": nil, "th": nil, "td": nil,
	"a": {"href", "title"}, "img": {"src", "alt", "width", "height"},
}

// importDropped are the tags dropped with all they hold.
var importDropped = map[string]bool{"script": true, "style": true, "iframe": true, "object": true, "embed": true,
	"noscript": true, "template": true, "svg": true, "math": true, "form": true, "textarea": true, "select": true, "head": true, "title": true}

// textEscaper escapes what text may not hold as it is; quotes and
// apostrophes stay, for wptexturize to curl.
var textEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")

// sanitizeImported keeps of a description's HTML what importTags allow.
func sanitizeImported(in string) string {
	if !strings.ContainsAny(in, "<&") {
		return in
	}
	z := html.NewTokenizer(strings.NewReader(in))
	var b strings.Builder
	dropping := 0
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			if z.Err() == io.EOF {
				return b.String()
			}
			return b.String()
		}
		tok := z.Token()
		switch tt {
		case html.TextToken:
			if dropping == 0 {
				b.WriteString(textEscaper.Replace(tok.Data))
			}
		case html.StartTagToken, html.SelfClosingTagToken:
			if importDropped[tok.Data] {
				if tt == html.StartTagToken {
					dropping++
				}
				continue
			}
			if dropping > 0 {
				continue
			}
			if allowed, ok := importTags[tok.Data]; ok {
				b.WriteString(openTag(tok, allowed, tt == html.SelfClosingTagToken))
			}
		case html.EndTagToken:
			if importDropped[tok.Data] {
				if dropping > 0 {
					dropping--
				}
				continue
			}
			if _, ok := importTags[tok.Data]; ok && dropping == 0 {
				b.WriteString("</" + tok.Data + ">")
			}
		}
	}
}

func openTag(tok html.Token, allowed []string, selfClosing bool) string {
	var b strings.Builder
	b.WriteString("<" + tok.Data)
	for _, a := range tok.Attr {
		if a.Namespace != "" || !containsString(allowed, a.Key) {
			continue
		}
		if (a.Key == "href" || a.Key == "src") && !safeURL(a.Val) {
			continue
		}
		b.WriteString(" " + a.Key + `="` + html.EscapeString(a.Val) + `"`)
	}
	if selfClosing {
		b.WriteString(" /")
	}
	b.WriteString(">")
	return b.String()
}

// safeURL: http(s), mailto, or a relative URL without a scheme.
func safeURL(u string) bool {
	u = strings.ToLower(strings.TrimSpace(u))
	if i := strings.IndexAny(u, ":/?#"); i >= 0 && u[i] == ':' {
		return strings.HasPrefix(u, "http:") || strings.HasPrefix(u, "https:") || strings.HasPrefix(u, "mailto:")
	}
	return true
}

// Package wordpress holds what the service does as WordPress does it, byte for
// byte where an oracle table pins it: the_content's default filters
// (do_blocks, wptexturize, wpautop, wp_filter_content_tags, capital_P_dangit;
// testdata/ was written by WordPress itself, with generate.php beside it),
// sanitize_title and unique slugs, numeric IDs as WordPress reads them, and
// the zones its settings name (UTC+5:30).
package wordpress

import (
	"strconv"
	"strings"
)

// apBlocks are wpautop's block-level elements ($allblocks).
var apBlocks = []string{
	"table", "thead", "tfoot", "caption", "col", "colgroup", "tbody", "tr", "td", "th", "div", "dl", "dd", "dt",
	"ul", "ol", "li", "pre", "form", "map", "area", "blockquote", "address", "math", "style", "p",
	"h1", "h2", "h3", "h4", "h5", "h6", "hr", "fieldset", "legend", "section", "article", "aside", "hgroup",
	"header", "footer", "nav", "figure", "figcaption", "details", "menu", "summary",
}

// apBrBlocks are the tags before which a <br /> is dropped.
var apBrBlocks = []string{"p", "li", "div", "dl", "dd", "dt", "th", "pre", "td", "ul", "ol"}

// wpautop is WordPress' wpautop($text, true): text separated by blank lines
// becomes paragraphs and other newlines <br />, except around block
// elements and inside pre, script, style and svg.
//
// WordPress does this with a long series of regular expressions over the
// whole text. The steps below keep their order, because each sees the
// previous one's output, and each says which pattern it stands for; \s is
// PCRE's: space, \t, \n, \v, \f and \r.
func wpautop(text string) string {
	if phpTrim(text) == "" {
		return ""
	}
	text += "\n"

	// Pre elements are set aside and put back at the end, untouched.
	var pres []string // placeholder, content, placeholder, content, ...
	if strings.Contains(text, "<pre") {
		text, pres = apStashPre(text)
	}

	// |<br\s*/?>\s*<br\s*/?>| -> two newlines, that is a paragraph break.
	text = wpReplace(text, "<br", func(s string, i int) (int, string) {
		if e := apEmptyTag(s, i, "<br"); e >= 0 {
			if e = apEmptyTag(s, wpSkipSpace(s, e), "<br"); e >= 0 {
				return e, "\n\n"
			}
		}
		return -1, ""
	})
	// Blank lines around block elements: !(<$allblocks[\s/>])! -> "\n\n$1",
	// !(</$allblocks>)! -> "$1\n\n" and !(<hr\s*?/?>)! -> "$1\n\n". Here a
	// name is whole: at most one can be followed by a byte that ends it.
	text = wpReplace(text, "<", func(s string, i int) (int, string) {
		for _, name := range apBlocks {
			if e := i + 1 + len(name); e < len(s) && s[i+1:e] == name && (wpSpace(s[e]) || s[e] == '/' || s[e] == '>') {
				return e + 1, "\n\n" + s[i:e+1]
			}
		}
		return -1, ""
	})
	text = wpReplace(text, "</", func(s string, i int) (int, string) {
		for _, name := range apBlocks {
			if e := i + 2 + len(name); e < len(s) && s[i+2:e] == name && s[e] == '>' {
				return e + 1, s[i:e+1] + "\n\n"
			}
		}
		return -1, ""
	})
	text = wpReplace(text, "<hr", func(s string, i int) (int, string) {
		if e := apEmptyTag(s, i, "<hr"); e >= 0 {
			return e, s[i:e] + "\n\n"
		}
		return -1, ""
	})

	text = strings.ReplaceAll(strings.ReplaceAll(text, "\r\n", "\n"), "\r", "\n")

	// Newlines inside tags and comments are kept out of the way
	// (wp_replace_in_html_tags, which splits like get_html_split_regex: a
	// tag runs to the next ">", a comment to the first "-->", a CDATA
	// section to the first "]]>", or each to the end of the text).
	text = wpReplace(text, "<", func(s string, i int) (int, string) {
		end := -1
		switch {
		case strings.HasPrefix(s[i:], "<!--"):
			end = apIndex(s, i+2, "-->", 3)
		case strings.HasPrefix(s[i:], "<![CDATA["):
			end = apIndex(s, i+9, "]]>", 3)
		default:
			end = apIndex(s, i+1, ">", 1)
		}
		if end < 0 {
			end = len(s)
		}
		return end, strings.ReplaceAll(s[i:end], "\n", " <!-- wpnl --> ")
	})

	// No paragraphs or line breaks around these elements: the whitespace
	// before and/or after their tags goes. Each call is one preg_replace.
	if strings.Contains(text, "<option") {
		text = apCollapse(text, "<", true, false, apTag("", "<option"))   // \s*<option
		text = apCollapse(text, "<", false, true, apTag("", "</option>")) // </option>\s*
	}
	if strings.Contains(text, "</object>") {
		text = apCollapse(text, "<", false, true, apTag(">", "<object"))  // (<object[^>]*>)\s*
		text = apCollapse(text, "<", true, false, apTag("", "</object>")) // \s*</object>
		// \s*(</?(?:param|embed)[^>]*>)\s*
		text = apCollapse(text, "<", true, true, apTag(">", "<param", "</param", "<embed", "</embed"))
	}
	if strings.Contains(text, "<source") || strings.Contains(text, "<track") {
		// ([<\[](?:audio|video)[^>\]]*[>\]])\s*, then \s*([<\[]/(?:audio|video)[>\]])
		text = apCollapse(text, "<[", false, true, apTag(">]", "<audio", "<video", "[audio", "[video"))
		text = apCollapse(text, "<[", true, false, apTag("", "</audio>", "</audio]", "</video>", "</video]",
			"[/audio>", "[/audio]", "[/video>", "[/video]"))
		text = apCollapse(text, "<", true, true, apTag(">", "<source", "<track")) // \s*(<(?:source|track)[^>]*>)\s*
	}
	if strings.Contains(text, "<figcaption") {
		text = apCollapse(text, "<", true, false, apTag(">", "<figcaption"))  // \s*(<figcaption[^>]*>)
		text = apCollapse(text, "<", false, true, apTag("", "</figcaption>")) // </figcaption>\s*
	}

	text = apFixParagraphs(apParagraphs(text))
	text = apLineBreaks(text)

	// !(</?$allblocks[^>]*>)\s*<br />! -> $1: no break right after a block tag.
	text = wpReplace(text, "<", func(s string, i int) (int, string) {
		if e := apBlockTag(s, i, apBlocks); e >= 0 {
			if j := wpSkipSpace(s, e); strings.HasPrefix(s[j:], "<br />") {
				return j + 6, s[i:e]
			}
		}
		return -1, ""
	})
	// !<br />(\s*</?(?:p|li|div|...)[^>]*>)! -> $1: nor right before some.
	text = wpReplace(text, "<br />", func(s string, i int) (int, string) {
		if e := apBlockTag(s, wpSkipSpace(s, i+6), apBrBlocks); e >= 0 {
			return e, s[i+6 : e]
		}
		return -1, ""
	})
	// |\n</p>$| -> </p> ($ also matches before a final newline).
	if t := strings.TrimSuffix(text, "\n"); strings.HasSuffix(t, "\n</p>") {
		text = t[:len(t)-5] + "</p>" + text[len(t):]
	}

	for i := 0; i < len(pres); i += 2 {
		text = strings.ReplaceAll(text, pres[i], pres[i+1])
	}
	return strings.ReplaceAll(strings.ReplaceAll(text, " <!-- wpnl --> ", "\n"), "<!-- wpnl -->", "\n")
}

// apStashPre replaces each "<pre…</pre>" with a placeholder block element.
// Like WordPress it cuts the text at each "</pre>" and takes the part from
// the first "<pre" (which also finds "<preview"); a "</pre>" with no "<pre"
// before it is dropped.
func apStashPre(text string) (string, []string) {
	parts := strings.Split(text, "</pre>")
	var b strings.Builder
	var pres []string
	for _, part := range parts[:len(parts)-1] {
		start := strings.Index(part, "<pre")
		if start < 0 {
			b.WriteString(part)
			continue
		}
		name := "<pre wp-pre-tag-" + strconv.Itoa(len(pres)/2) + "></pre>"
		pres = append(pres, name, part[start:]+"</pre>")
		b.WriteString(part[:start] + name)
	}
	b.WriteString(parts[len(parts)-1])
	return b.String(), pres
}

// apParagraphs wraps the text between blank lines in <p>…</p>\n: it
// collapses /\n\n+/ to "\n\n", then splits at /\n\s*\n/ (from a newline to
// the last newline of the whitespace that follows) and trims each part of
// newlines only, dropping empty parts.
func apParagraphs(text string) string {
	text = wpReplace(text, "\n\n", func(s string, i int) (int, string) {
		e := i + 2
		for e < len(s) && s[e] == '\n' {
			e++
		}
		return e, "\n\n"
	})
	var b strings.Builder
	emit := func(p string) {
		if p != "" {
			b.WriteString("<p>" + strings.Trim(p, "\n") + "</p>\n")
		}
	}
	start := 0
	for i := 0; i < len(text); i++ {
		if text[i] != '\n' {
			continue
		}
		if l := strings.LastIndexByte(text[i+1:wpSkipSpace(text, i+1)], '\n'); l >= 0 {
			emit(text[start:i])
			start = i + 1 + l + 1
			i = start - 1
		}
	}
	emit(text[start:])
	return b.String()
}

// apFixParagraphs undoes the paragraphs that should not be, mostly around
// block elements, in WordPress' order. In the patterns with [^>]* after
// the block names, a name need only start the tag's name: <param>, <link>
// and <picture> count too.
func apFixParagraphs(text string) string {
	// |<p>\s*</p>| -> '': paragraphs of whitespace only.
	text = wpReplace(text, "<p>", func(s string, i int) (int, string) {
		if j := wpSkipSpace(s, i+3); strings.HasPrefix(s[j:], "</p>") {
			return j + 4, ""
		}
		return -1, ""
	})
	// !<p>([^<]+)</(div|address|form)>! -> <p>$1</p></$2>: close the paragraph.
	text = wpReplace(text, "<p>", func(s string, i int) (int, string) {
		if j := strings.IndexByte(s[i+3:], '<'); j > 0 {
			j += i + 3
			for _, end := range []string{"</div>", "</address>", "</form>"} {
				if strings.HasPrefix(s[j:], end) {
					return j + len(end), s[i:j] + "</p>" + end
				}
			}
		}
		return -1, ""
	})
	// !<p>\s*(</?$allblocks[^>]*>)\s*</p>! -> $1: a block tag alone.
	text = wpReplace(text, "<p>", func(s string, i int) (int, string) {
		j := wpSkipSpace(s, i+3)
		if e := apBlockTag(s, j, apBlocks); e >= 0 {
			if k := wpSkipSpace(s, e); strings.HasPrefix(s[k:], "</p>") {
				return k + 4, s[j:e]
			}
		}
		return -1, ""
	})
	// |<p>(<li.+?)</p>| -> $1: up to the first </p> on the same line.
	closeP, newline := apFinder{s: text, sub: "</p>"}, apFinder{s: text, sub: "\n"}
	text = wpReplace(text, "<p><li", func(s string, i int) (int, string) {
		end := closeP.next(i + 7)
		if nl := newline.next(i + 6); end < 0 || nl >= 0 && nl < end {
			return -1, ""
		}
		return end + 4, s[i+3 : end]
	})
	// |<p><blockquote([^>]*)>|i -> <blockquote$1><p>, and the closing pair.
	const open = "<p><blockquote"
	text = wpReplace(text, "<", func(s string, i int) (int, string) {
		if len(s)-i >= len(open) && strings.EqualFold(s[i:i+len(open)], open) {
			if gt := strings.IndexByte(s[i+len(open):], '>'); gt >= 0 {
				gt += i + len(open)
				return gt + 1, "<blockquote" + s[i+len(open):gt] + "><p>"
			}
		}
		return -1, ""
	})
	text = strings.ReplaceAll(text, "</blockquote></p>", "</p></blockquote>")
	// !<p>\s*(</?$allblocks[^>]*>)! -> $1: no paragraph opens before a block tag,
	text = wpReplace(text, "<p>", func(s string, i int) (int, string) {
		j := wpSkipSpace(s, i+3)
		if e := apBlockTag(s, j, apBlocks); e >= 0 {
			return e, s[j:e]
		}
		return -1, ""
	})
	// !(</?$allblocks[^>]*>)\s*</p>! -> $1: nor closes after one.
	return wpReplace(text, "<", func(s string, i int) (int, string) {
		if e := apBlockTag(s, i, apBlocks); e >= 0 {
			if k := wpSkipSpace(s, e); strings.HasPrefix(s[k:], "</p>") {
				return k + 4, s[i:e]
			}
		}
		return -1, ""
	})
}

// apLineBreaks turns the remaining newlines into "<br />\n", except inside
// script, style and svg elements.
func apLineBreaks(text string) string {
	// /<(script|style|svg).*?<\/\1>/s: protect the newlines inside.
	const keep = "<WPPreserveNewline />"
	names := []string{"script", "style", "svg"}
	closers := []apFinder{{s: text, sub: "</script>"}, {s: text, sub: "</style>"}, {s: text, sub: "</svg>"}}
	text = wpReplace(text, "<", func(s string, i int) (int, string) {
		for n, name := range names {
			if !strings.HasPrefix(s[i+1:], name) {
				continue
			}
			if k := closers[n].next(i + 1 + len(name)); k >= 0 {
				end := k + len(closers[n].sub)
				return end, strings.ReplaceAll(s[i:end], "\n", keep)
			}
		}
		return -1, ""
	})
	text = strings.ReplaceAll(strings.ReplaceAll(text, "<br>", "<br />"), "<br/>", "<br />")
	// |(?<!<br />)\s*\n| -> "<br />\n": a match takes a run of whitespace up
	// to its last newline. Right after "<br />" it can only start one byte
	// later, so "<br />  \n" becomes "<br /> <br />\n", as in WordPress.
	var b strings.Builder
	last := 0
	for i := 0; i < len(text); {
		if !wpSpace(text[i]) {
			i++
			continue
		}
		q := wpSkipSpace(text, i)
		nl := strings.LastIndexByte(text[i:q], '\n')
		p := i
		if strings.HasSuffix(text[:i], "<br />") {
			p++
		}
		if nl >= 0 && p <= i+nl {
			b.WriteString(text[last:p] + "<br />\n")
			last = i + nl + 1
		}
		i = q
	}
	b.WriteString(text[last:])
	return strings.ReplaceAll(b.String(), keep, "\n")
}

// apCollapse removes the whitespace before (\s*TAG) and/or after (TAG\s*)
// each tag: tag reports the end of a tag starting at i, whose first byte
// is one of first, or -1. A match takes all the whitespace before the tag,
// which never reaches into the previous match: tags end in a non-space.
func apCollapse(s, first string, before, after bool, tag func(s string, i int) int) string {
	var b strings.Builder
	last := 0
	for i := 0; i < len(s); {
		j := strings.IndexAny(s[i:], first)
		if j < 0 {
			break
		}
		i += j
		end := tag(s, i)
		if end < 0 {
			i++
			continue
		}
		pending := s[last:i]
		if before {
			pending = strings.TrimRight(pending, wpSpaces)
		}
		b.WriteString(pending + s[i:end])
		if after {
			end = wpSkipSpace(s, end)
		}
		i, last = end, end
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// apTag matches one of starts at i and, if ends is not empty, what
// follows up to the first byte in ends, which must exist ([^>]*>).
func apTag(ends string, starts ...string) func(string, int) int {
	return func(s string, i int) int {
		for _, start := range starts {
			switch e := i + len(start); {
			case !strings.HasPrefix(s[i:], start):
			case ends == "":
				return e
			default:
				if k := strings.IndexAny(s[e:], ends); k >= 0 {
					return e + k + 1
				}
				return -1
			}
		}
		return -1
	}
}

// apEmptyTag matches name\s*/?> (as in <br\s*/?>) at i.
func apEmptyTag(s string, i int, name string) int {
	if !strings.HasPrefix(s[i:], name) {
		return -1
	}
	j := wpSkipSpace(s, i+len(name))
	if j < len(s) && s[j] == '/' {
		j++
	}
	if j < len(s) && s[j] == '>' {
		return j + 1
	}
	return -1
}

// apBlockTag matches </?(?:names)[^>]*> at i: a name need only be a prefix.
func apBlockTag(s string, i int, names []string) int {
	if i >= len(s) || s[i] != '<' {
		return -1
	}
	j := i + 1
	if j < len(s) && s[j] == '/' {
		j++
	}
	for _, name := range names {
		if strings.HasPrefix(s[j:], name) {
			return apIndex(s, j, ">", 1)
		}
	}
	return -1
}

// apIndex is the index of the first sub at or after i, plus skip; or -1.
func apIndex(s string, i int, sub string, skip int) int {
	if k := strings.Index(s[i:], sub); k >= 0 {
		return i + k + skip
	}
	return -1
}

// apFinder finds the first sub in s at or after an index. Callers ask with
// growing indexes, and an answer stays good until the index passes it, so
// the text is scanned once rather than once per question.
type apFinder struct {
	s, sub    string
	from, pos int // pos is the answer (-1: none) for a search from from
	asked     bool
}

func (f *apFinder) next(i int) int {
	if !f.asked || i < f.from || f.pos >= 0 && i > f.pos {
		f.asked, f.from, f.pos = true, i, -1
		if i <= len(f.s) {
			f.pos = apIndex(f.s, i, f.sub, 0)
		}
	}
	return f.pos
}

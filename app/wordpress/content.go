package wordpress

import "strings"

// RenderContent is a description or an excerpt as WordPress 6.1's
// the_content shows it, byte for byte, with the default filters in their
// order (wp-includes/default-filters.php):
//
//	 9 do_blocks             block delimiters removed (doBlocks); when the text has
//	                         blocks, wpautop is skipped for it
//	10 wptexturize
//	10 wpautop               only for text without blocks
//	10 shortcode_unautop     nothing: no shortcode is registered here
//	10 prepend_attachment    nothing: only for attachment pages
//	10 wp_filter_content_tags  loading="lazy" and decoding="async" (filterContentTags)
//	10 wp_replace_insecure_home_url  nothing: no site here migrated from http
//	11 capital_P_dangit
//	11 do_shortcode          not run: shortcodes are text here
//	20 convert_smilies       off, as a site with use_smilies off (docs/contract.md)
//
// The result is trimmed. testdata/cases.json holds WordPress' own answers
// for many inputs (testdata/generate.php).
func RenderContent(text string) string {
	out := wptexturize(doBlocks(text))
	if !hasBlocks(text) {
		out = wpautop(out)
	}
	return phpTrim(capitalPDangit(filterContentTags(out)))
}

// capitalPDangit is capital_P_dangit outside titles: "Wordpress" after a
// space, an opening quote, a tag or a parenthesis becomes "WordPress".
func capitalPDangit(s string) string {
	if !strings.Contains(s, "Wordpress") {
		return s
	}
	for _, before := range []string{" ", "&#8216;", txOpenDouble, ">", "("} {
		s = strings.ReplaceAll(s, before+"Wordpress", before+"WordPress")
	}
	return s
}

// filterContentTags is wp_filter_content_tags in the_content for a request
// outside the main loop (as every REST request is): each <img> with src,
// width and height gets loading="lazy", each with src decoding="async"
// (unless it has them already), and each <iframe> with src, width and
// height loading="lazy". Width, height, srcset and sizes from the media
// library's records of a wp-image-N image are not added (docs/contract.md).
//
// WordPress changes each distinct tag everywhere it occurs, in the order
// tags are found: a str_replace over the whole text per tag, quadratic for
// thousands of distinct images. When no tag holds "<img" or "<iframe" after
// its start, a tag's text occurs only where it was found, so one pass that
// changes each found tag gives the same text; otherwise the replacements
// run as WordPress runs them, while that costs less than
// maxTagReplaceBytes (past it, in texts that hide tags in attribute values
// by the thousand, the one pass: docs/contract.md).
func filterContentTags(content string) string {
	tags := contentTags(content)
	if len(tags) == 0 {
		return content
	}
	filtered := make(map[string]string, len(tags))
	var changes []string
	onePass := true
	for _, t := range tags {
		if _, ok := filtered[t.tag]; ok {
			continue
		}
		f := filterContentTag(t.tag)
		filtered[t.tag] = f
		if f != t.tag {
			changes = append(changes, t.tag, f)
		}
		onePass = onePass && !strings.Contains(t.tag[1:], "<img") && !strings.Contains(t.tag[1:], "<iframe")
	}
	if len(changes) == 0 {
		return content
	}
	if !onePass && len(changes)/2*len(content) <= maxTagReplaceBytes {
		for i := 0; i < len(changes); i += 2 {
			content = strings.ReplaceAll(content, changes[i], changes[i+1])
		}
		return content
	}
	var out strings.Builder
	out.Grow(len(content) + 32*len(tags))
	last := 0
	for _, t := range tags {
		out.WriteString(content[last:t.at])
		out.WriteString(filtered[t.tag])
		last = t.at + len(t.tag)
	}
	out.WriteString(content[last:])
	return out.String()
}

// filterContentTag is one <img> or <iframe> tag as wp_filter_content_tags
// changes it.
func filterContentTag(tag string) string {
	filtered := tag
	if strings.HasPrefix(tag, "<img") {
		if !strings.Contains(filtered, " loading=") && hasDimensions(filtered) {
			filtered = strings.ReplaceAll(filtered, "<img", `<img loading="lazy"`)
		}
		if !strings.Contains(filtered, " decoding=") && strings.Contains(filtered, ` src="`) {
			filtered = strings.ReplaceAll(filtered, "<img ", `<img decoding="async" `)
		}
	} else if !strings.Contains(filtered, " loading=") && !strings.Contains(filtered, ` data-secret="`) && hasDimensions(filtered) {
		filtered = strings.ReplaceAll(filtered, "<iframe", `<iframe loading="lazy"`)
	}
	return filtered
}

// maxTagReplaceBytes bounds the bytes WordPress' replacements, one per
// changed tag over the whole text, may go through (filterContentTags).
const maxTagReplaceBytes = 8 << 20

func hasDimensions(tag string) bool {
	return strings.Contains(tag, ` src="`) && strings.Contains(tag, ` width="`) && strings.Contains(tag, ` height="`)
}

type contentTag struct {
	at  int
	tag string
}

// contentTags are the matches of /<(img|iframe)\s[^>]+>/ in order: the tag
// name, one PCRE space, at least one byte other than ">", and the first ">".
func contentTags(s string) []contentTag {
	var tags []contentTag
	for i := 0; ; {
		k := strings.Index(s[i:], "<")
		if k < 0 {
			return tags
		}
		i += k
		name := 0
		switch {
		case strings.HasPrefix(s[i:], "<img"):
			name = 4
		case strings.HasPrefix(s[i:], "<iframe"):
			name = 7
		}
		if name == 0 || i+name >= len(s) || !wpSpace(s[i+name]) {
			i++
			continue
		}
		from := i + name + 1
		end := strings.IndexByte(s[from:], '>')
		if end < 0 {
			return tags // no later tag can end either
		}
		if end == 0 {
			i++
			continue
		}
		end += from
		tags = append(tags, contentTag{i, s[i : end+1]})
		i = end + 1
	}
}

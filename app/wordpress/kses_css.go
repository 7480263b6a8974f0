package wordpress

import "strings"

// safeCSSProperties are the properties a style attribute keeps
// (safecss_filter_attr's safe_style_css list), besides custom properties.
var safeCSSProperties = toSet("background background-color background-image background-position background-size " +
	"background-attachment background-blend-mode border border-radius border-width border-color border-style " +
	"border-right border-right-color border-right-style border-right-width border-bottom border-bottom-color " +
	"border-bottom-left-radius border-bottom-right-radius border-bottom-style border-bottom-width border-left " +
	"border-left-color border-left-style border-left-width border-top border-top-color border-top-left-radius " +
	"border-top-right-radius border-top-style border-top-width border-spacing border-collapse caption-side columns " +
	"column-count column-fill column-gap column-rule column-span column-width color filter font font-family " +
	"font-size font-style font-variant font-weight letter-spacing line-height text-align text-decoration " +
	"text-indent text-transform height min-height max-height width min-width max-width margin margin-right " +
	"margin-bottom margin-left margin-top margin-block-start margin-block-end margin-inline-start margin-inline-end " +
	"padding padding-right padding-bottom padding-left padding-top padding-block-start padding-block-end " +
	"padding-inline-start padding-inline-end flex flex-basis flex-direction flex-flow flex-grow flex-shrink flex-wrap " +
	"gap row-gap grid-template-columns grid-auto-columns grid-column-start grid-column-end grid-column-gap " +
	"grid-template-rows grid-auto-rows grid-row-start grid-row-end grid-row-gap grid-gap justify-content " +
	"justify-items justify-self align-content align-items align-self clear cursor direction float list-style-type " +
	"object-fit object-position overflow vertical-align")

// cssURLProperties may hold url() values; cssGradientProperties gradients.
var (
	cssURLProperties      = toSet("background background-image cursor list-style list-style-image")
	cssGradientProperties = toSet("background background-image")
)

// maxCSSURLs is the most url()s a declaration keeps: one with more goes
// (WordPress has no bound; removing each one's text is linear in the
// declaration's length, so the bound keeps the filter linear).
const maxCSSURLs = 16

// safeCSS keeps the declarations of a style attribute that
// safecss_filter_attr keeps: a listed property (or a custom one) whose
// value, less its url()s of allowed protocols, its gradients and its
// var()/calc()/min()/max()/minmax()/clamp() calls, holds none of
// \ ( & = } or a comment. A part without a colon is kept as it is.
// work counts the bytes examined.
func safeCSS(css string, work *int) string {
	css = removeSlashZeros(removeControls(css))
	css = strings.NewReplacer("\n", "", "\r", "", "\t", "").Replace(css)
	var out strings.Builder
	for _, item := range strings.Split(phpTrim(css), ";") {
		if item == "" {
			continue
		}
		item = phpTrim(item)
		if keepDeclaration(item, work) {
			if out.Len() > 0 {
				out.WriteByte(';')
			}
			out.WriteString(item)
		}
	}
	return out.String()
}

func keepDeclaration(item string, work *int) bool {
	*work += len(item)
	colon := strings.IndexByte(item, ':')
	if colon < 0 {
		return !cssUnsafe(item)
	}
	property, value := phpTrim(item[:colon]), item[colon+1:]
	custom := isCustomProperty(property)
	if !custom && !safeCSSProperties[property] {
		return false
	}
	hasURL, hasGradient := cssURLProperties[property], cssGradientProperties[property]
	if custom {
		v := phpTrim(value)
		hasURL, hasGradient = strings.HasPrefix(v, "url("), strings.Contains(v, "-gradient(")
	}
	test := item
	if hasURL {
		urls := cssURLs(value)
		if len(urls) > maxCSSURLs {
			return false
		}
		for _, u := range urls {
			*work += len(test) + len(u)
			url := phpTrim(cssURLTarget(u))
			if url == "" || url == "0" || badProtocol(url) != url {
				return false
			}
			test = strings.ReplaceAll(test, u, "")
		}
	}
	if hasGradient {
		if v := phpTrim(value); isSimpleGradient(v) {
			test = strings.ReplaceAll(test, v, "")
		}
	}
	*work += 2 * len(test)
	return !cssUnsafe(removeCSSFunctions(test))
}

// cssUnsafe reports a character or comment no kept declaration holds.
func cssUnsafe(s string) bool {
	return strings.ContainsAny(s, `\(&=}`) || strings.Contains(s, "/*")
}

// isCustomProperty is --name with letters, digits, "-" and "_".
func isCustomProperty(p string) bool {
	if len(p) < 3 || !strings.HasPrefix(p, "--") {
		return false
	}
	for i := 2; i < len(p); i++ {
		if c := p[i]; !(isAlpha(c) || isDigit(c) || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// cssURLs finds each "url(" with at least one character before the next ")".
func cssURLs(v string) []string {
	var out []string
	for i := 0; ; {
		j := strings.Index(v[i:], "url(")
		if j < 0 {
			return out
		}
		start := i + j
		end := strings.IndexByte(v[start+4:], ')')
		if end < 0 {
			return out
		}
		if end == 0 {
			i = start + 1
			continue
		}
		out = append(out, v[start:start+4+end+1])
		i = start + 4 + end + 1
	}
}

// cssURLTarget is what url(...) points to: without the leading spaces, and
// inside the quotes if the last character before the trailing spaces
// closes the one that opens.
func cssURLTarget(u string) string {
	inner := u[len("url(") : len(u)-1]
	p := skipSpaces(inner, 0)
	if p < len(inner) && (inner[p] == '"' || inner[p] == '\'') {
		last := len(strings.TrimRightFunc(inner, func(r rune) bool { return r < 0x80 && isSpace(byte(r)) })) - 1
		if last > p && inner[last] == inner[p] {
			return inner[p+1 : last]
		}
	}
	return inner[p:]
}

// isSimpleGradient is (repeating-)linear/radial/conic-gradient(...) whose
// parentheses inside are only rgb()/rgba() ones without parentheses.
func isSimpleGradient(v string) bool {
	rest := strings.TrimPrefix(v, "repeating-")
	var body string
	for _, kind := range []string{"linear-gradient(", "radial-gradient(", "conic-gradient("} {
		if strings.HasPrefix(rest, kind) {
			body = rest[len(kind):]
			break
		}
	}
	if body == "" || body[len(body)-1] != ')' {
		return false
	}
	body = body[:len(body)-1]
	for i := 0; i < len(body); i++ {
		switch body[i] {
		case ')':
			return false
		case '(':
			if !strings.HasSuffix(body[:i], "rgb") && !strings.HasSuffix(body[:i], "rgba") {
				return false
			}
			end := strings.IndexAny(body[i+1:], "()")
			if end < 0 || body[i+1+end] != ')' {
				return false
			}
			i += 1 + end
		}
	}
	return true
}

// removeCSSFunctions takes out each var(), calc(), min(), max(), minmax()
// and clamp() call with balanced parentheses.
func removeCSSFunctions(s string) string {
	if !strings.Contains(s, "(") {
		return s
	}
	closing := make([]int, len(s))
	var open []int
	for i := range s {
		closing[i] = -1
		switch s[i] {
		case '(':
			open = append(open, i)
		case ')':
			if len(open) > 0 {
				closing[open[len(open)-1]] = i
				open = open[:len(open)-1]
			}
		}
	}
	isWord := func(c byte) bool { return isAlpha(c) || isDigit(c) || c == '_' }
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if i == 0 || !isWord(s[i-1]) {
			for _, name := range []string{"var(", "calc(", "min(", "max(", "minmax(", "clamp("} {
				if p := i + len(name) - 1; strings.HasPrefix(s[i:], name) && closing[p] >= 0 {
					i = closing[p]
					goto next
				}
			}
		}
		b.WriteByte(s[i])
	next:
	}
	return b.String()
}

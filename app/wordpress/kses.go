package wordpress

import (
	"strconv"
	"strings"
)

// Kses keeps of s what WordPress 6.1's kses keeps with the allow-list l:
// KsesPostList is wp_filter_post_kses (post title, content and excerpt of a
// writer without unfiltered_html), KsesPlainList is wp_filter_kses (term
// descriptions and other text fields). Tags not on the list go (their text
// stays), attributes not on the list go, URL attributes lose a protocol
// not in wp_allowed_protocols, entities are normalised, a "<" or ">" that
// makes no tag becomes an entity, and comments are kept with their insides
// filtered the same way.
//
// Style attributes keep the declarations safecss_filter_attr keeps
// (kses_css.go). One part differs from WordPress on purpose: an <object>
// keeps no attributes (WordPress keeps a same-site PDF's, which the
// service does not model). And two bounds WordPress has not:
// a comment inside a comment's filtered text deeper than maxCommentDepth,
// or one whose filtering has not settled after maxCommentPasses passes,
// goes whole. Every step is linear in the length of s (see kses_test.go).
func Kses(s string, l KsesList) string {
	k := kses{list: l}
	return k.filter(s, 0)
}

const (
	maxCommentDepth  = 3
	maxCommentPasses = 8
)

type kses struct {
	list KsesList
	work int // bytes examined, for the cost test
}

func (k *kses) filter(s string, depth int) string {
	s = removeControls(s)
	s = k.normalizeEntities(s)
	s = k.escapeLoneLessThan(s)
	return k.split(s, depth)
}

// isSpace is PCRE's \s: space, tab, newline, vertical tab, form feed, CR.
func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}

func isControl(c byte) bool {
	return c <= 0x08 || c == 0x0B || c == 0x0C || (c >= 0x0E && c <= 0x1F)
}

// removeControls drops the control characters other than tab, newline
// and carriage return (wp_kses_no_null).
func removeControls(s string) string {
	i := 0
	for i < len(s) && !isControl(s[i]) {
		i++
	}
	if i == len(s) {
		return s
	}
	b := make([]byte, 0, len(s))
	for j := 0; j < len(s); j++ {
		if !isControl(s[j]) {
			b = append(b, s[j])
		}
	}
	return string(b)
}

// removeSlashZeros drops every run of backslashes followed by zeros, as
// wp_kses_no_null does to URLs.
func removeSlashZeros(s string) string {
	if !strings.Contains(s, "\\") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		if s[i] == '\\' {
			j := i
			for j < len(s) && s[j] == '\\' {
				j++
			}
			z := j
			for z < len(s) && s[z] == '0' {
				z++
			}
			if z > j {
				i = z
				continue
			}
			b.WriteString(s[i:j])
			i = j
			continue
		}
		b.WriteByte(s[i])
		i++
	}
	return b.String()
}

// validUnicode is the code points kses keeps as numeric entities.
func validUnicode(n int64) bool {
	return n == 0x9 || n == 0xA || n == 0xD || (n >= 0x20 && n <= 0xD7FF) ||
		(n >= 0xE000 && n <= 0xFFFD) || (n >= 0x10000 && n <= 0x10FFFF)
}

func isAlpha(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }
func isDigit(c byte) bool { return c >= '0' && c <= '9' }
func isHex(c byte) bool   { return isDigit(c) || (c|0x20 >= 'a' && c|0x20 <= 'f') }

func runOf(s string, i int, in func(byte) bool) int {
	j := i
	for j < len(s) && in(s[j]) {
		j++
	}
	return j
}

// normalizeEntities turns every "&" that starts no entity kses keeps into
// "&amp;" (wp_kses_normalize_entities): named entities of the allowed
// names, decimal and hexadecimal ones of valid code points (decimal ones
// padded to three digits, hexadecimal ones without leading zeros).
func (k *kses) normalizeEntities(s string) string {
	if !strings.Contains(s, "&") {
		k.work += len(s)
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for i := 0; i < len(s); {
		k.work++
		if s[i] != '&' {
			b.WriteByte(s[i])
			i++
			continue
		}
		out, n := entityAt(s[i+1:])
		b.WriteString(out)
		i += 1 + n
		k.work += n
	}
	return b.String()
}

// entityAt is what an "&" followed by rest becomes, and how much of rest
// that takes.
func entityAt(rest string) (string, int) {
	// &name; : 2 to 8 letters, up to 2 digits.
	if letters := runOf(rest, 0, isAlpha); letters >= 2 && letters <= 8 {
		digits := runOf(rest, letters, isDigit) - letters
		if end := letters + digits; digits <= 2 && end < len(rest) && rest[end] == ';' {
			name := rest[:end]
			if allowedEntityNames[name] {
				return "&" + name + ";", end + 1
			}
			return "&amp;" + name + ";", end + 1
		}
	}
	if len(rest) > 1 && rest[0] == '#' {
		if rest[1] == 'x' || rest[1] == 'X' {
			end := runOf(rest, 2, isHex)
			hex := rest[2:end]
			if trimmed := strings.TrimLeft(hex, "0"); hex != "" && len(trimmed) <= 6 && end < len(rest) && rest[end] == ';' {
				if hex == "0" {
					return "", end + 1
				}
				n, _ := strconv.ParseInt(hex, 16, 64)
				if validUnicode(n) {
					return "&#x" + trimmed + ";", end + 1
				}
				return "&amp;#x" + hex + ";", end + 1
			}
			return "&amp;", 0
		}
		end := runOf(rest, 1, isDigit)
		dec := rest[1:end]
		if trimmed := strings.TrimLeft(dec, "0"); dec != "" && len(trimmed) <= 7 && end < len(rest) && rest[end] == ';' {
			if dec == "0" {
				return "", end + 1
			}
			n, _ := strconv.ParseInt(dec, 10, 64)
			if validUnicode(n) {
				for len(trimmed) < 3 {
					trimmed = "0" + trimmed
				}
				return "&#" + trimmed + ";", end + 1
			}
			return "&amp;#" + dec + ";", end + 1
		}
	}
	return "&amp;", 0
}

// escapeLoneLessThan escapes a "<" that no ">" closes before the next "<"
// or the end, with what follows it up to there (wp_pre_kses_less_than).
func (k *kses) escapeLoneLessThan(s string) string {
	if !strings.Contains(s, "<") {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for i := 0; i < len(s); {
		k.work++
		if s[i] != '<' {
			b.WriteByte(s[i])
			i++
			continue
		}
		j := i + 1
		for j < len(s) && s[j] != '<' && s[j] != '>' && !(j == len(s)-1 && s[j] == '\n') {
			j++
		}
		k.work += j - i
		if j < len(s) && s[j] == '>' {
			b.WriteString(s[i : j+1])
			i = j + 1
			continue
		}
		b.WriteString(escapeHTMLText(s[i:j]))
		i = j
	}
	return b.String()
}

// escapeHTMLText is esc_html on text whose entities are already normal:
// "&" stays where it starts an entity HTML 4 knows.
func escapeHTMLText(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '"':
			b.WriteString("&quot;")
		case '\'':
			b.WriteString("&#039;")
		case '&':
			if strings.HasPrefix(s[i+1:], "apos;") {
				b.WriteString("&amp;")
			} else {
				b.WriteByte('&')
			}
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// forward finds the next occurrence of a string at or after a position,
// remembering its last answer so that a scan whose positions only grow
// looks at each byte once.
type forward struct {
	s, what string
	valid   bool
	from    int // the last search started here
	at      int // and found this (-1: nothing)
	work    *int
}

func (f *forward) next(p int) int {
	if f.valid && p >= f.from && (f.at < 0 || f.at >= p) {
		return f.at
	}
	f.valid, f.from, f.at = true, p, -1
	i := strings.Index(f.s[p:], f.what)
	if i < 0 {
		*f.work += len(f.s) - p
		return -1
	}
	*f.work += i + len(f.what)
	f.at = p + i
	return f.at
}

// split walks the text: each comment, tag or lone ">" is filtered, the
// text between is kept (wp_kses_split).
func (k *kses) split(s string, depth int) string {
	if !strings.ContainsAny(s, "<>") {
		return s
	}
	arrows := forward{s: s, what: "-->", work: &k.work}
	newlines := forward{s: s, what: "\n", work: &k.work}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		k.work++
		switch s[i] {
		case '>':
			b.WriteString("&gt;")
			i++
			continue
		case '<':
		default:
			b.WriteByte(s[i])
			i++
			continue
		}
		end := -1
		if strings.HasPrefix(s[i:], "<!--") {
			end = commentEnd(s, i, arrows.next(i+4), newlines.next(i+4))
		}
		if end < 0 {
			j := strings.IndexByte(s[i+1:], '>')
			if j < 0 {
				end = len(s)
			} else {
				end = i + 1 + j + 1
			}
			k.work += end - i
		}
		b.WriteString(k.tag(s[i:end], depth))
		i = end
	}
	return b.String()
}

// commentEnd is where a comment that starts at i ends: at the first "-->"
// on its line, else at the end of the text if the line is the last (or the
// last but an empty one), else -1: it is then read as a tag.
func commentEnd(s string, i, arrow, newline int) int {
	switch {
	case arrow >= 0 && (newline < 0 || arrow < newline):
		return arrow + 3
	case newline < 0:
		return len(s)
	case newline == len(s)-1:
		return newline
	}
	return -1
}

// tag filters one comment or tag (wp_kses_split2).
func (k *kses) tag(m string, depth int) string {
	m = strings.ReplaceAll(m, `\"`, `"`)
	if strings.HasPrefix(m, "<!--") {
		return k.comment(m, depth)
	}
	p := skipSpaces(m, 1)
	closing := false
	if p < len(m) && m[p] == '/' {
		closing = true
		p = skipSpaces(m, p+1)
	}
	nameEnd := runOf(m, p, func(c byte) bool { return isAlpha(c) || isDigit(c) || c == '-' })
	if nameEnd == p {
		return ""
	}
	name := m[p:nameEnd]
	attrs, ok := k.list.tags[strings.ToLower(name)]
	if !ok {
		return ""
	}
	if closing {
		return "</" + name + ">"
	}
	rest := strings.TrimSuffix(m[nameEnd:], ">")
	k.work += len(rest)
	return k.openTag(name, attrs, rest)
}

func skipSpaces(s string, i int) int { return runOf(s, i, isSpace) }

// comment keeps a comment with its insides filtered until they settle,
// with no runs of dashes (wp_kses_split2's comment branch).
func (k *kses) comment(m string, depth int) string {
	inner := strings.ReplaceAll(strings.ReplaceAll(m, "<!--", ""), "-->", "")
	if depth >= maxCommentDepth {
		return ""
	}
	settled := false
	for pass := 0; pass < maxCommentPasses; pass++ {
		next := k.filter(inner, depth+1)
		if next == inner {
			settled = true
			break
		}
		inner = next
	}
	if !settled || inner == "" {
		return ""
	}
	var b strings.Builder
	for i := 0; i < len(inner); i++ {
		if inner[i] == '-' && i > 0 && inner[i-1] == '-' {
			continue
		}
		b.WriteByte(inner[i])
	}
	inner = b.String()
	// A dash at the end (or before a final newline) would close the comment early.
	if strings.HasSuffix(inner, "-") {
		inner = inner[:len(inner)-1]
	} else if strings.HasSuffix(inner, "-\n") {
		inner = inner[:len(inner)-2] + "\n"
	}
	return "<!--" + inner + "-->"
}

// angleBrackets removes what no attribute keeps.
var angleBrackets = strings.NewReplacer("<", "", ">", "")

// attribute is one attribute as the tag wrote it.
type attribute struct {
	name, value, whole string
	valueless          bool
}

// openTag keeps the tag with its allowed attributes (wp_kses_attr).
func (k *kses) openTag(name string, allowed map[string]bool, rest string) string {
	slash := ""
	if t := strings.TrimRightFunc(rest, func(r rune) bool { return r < 0x80 && isSpace(byte(r)) }); strings.HasSuffix(t, "/") {
		slash = " /"
	}
	lower := strings.ToLower(name)
	if lower == "object" {
		// Its data attribute is required and kept only for a same-site PDF,
		// which the service does not model: the tag keeps nothing.
		if slash != "" {
			return ""
		}
		return "<" + name + ">"
	}
	if len(allowed) == 0 {
		return "<" + name + slash + ">"
	}
	var b strings.Builder
	b.WriteString("<" + name)
	for _, a := range parseAttributes(rest) {
		a, ok := allowedAttribute(lower, allowed, a, &k.work)
		if !ok {
			continue
		}
		b.WriteByte(' ')
		b.WriteString(angleBrackets.Replace(a.whole))
	}
	b.WriteString(slash + ">")
	return b.String()
}

// allowedAttribute is wp_kses_attr_check for the lists here: whether the
// attribute stays, and as what (a style keeps only its safe declarations).
func allowedAttribute(tag string, allowed map[string]bool, a attribute, work *int) (attribute, bool) {
	name := strings.ToLower(a.name)
	if !allowed[name] {
		if !allowed["data-*"] || !isDataAttribute(name) {
			return a, false
		}
	}
	switch {
	case name == "style":
		css := safeCSS(a.value, work)
		if css == "" || css == "0" {
			return a, false
		}
		if a.value != "" {
			a.whole = strings.ReplaceAll(a.whole, a.value, css)
		}
		a.value = css
	case tag == "a" && name == "download":
		return a, a.valueless
	}
	return a, true
}

// isDataAttribute is data(-[a-z0-9_]+)+.
func isDataAttribute(name string) bool {
	if !strings.HasPrefix(name, "data-") {
		return false
	}
	for _, part := range strings.Split(name[len("data"):], "-")[1:] {
		if part == "" {
			return false
		}
		for i := 0; i < len(part); i++ {
			if c := part[i]; !(c >= 'a' && c <= 'z' || isDigit(c) || c == '_') {
				return false
			}
		}
	}
	return true
}

// parseAttributes reads a tag's attributes as wp_kses_hair does: a name,
// then "=" and a value in double, single or no quotes, or nothing; what it
// cannot read is skipped up to the next space outside quotes. The first of
// two attributes of the same name wins; URL attributes lose a bad protocol.
func parseAttributes(s string) []attribute {
	var out []attribute
	seen := map[string]bool{}
	add := func(a attribute) {
		if !seen[a.name] {
			seen[a.name] = true
			out = append(out, a)
		}
	}
	value := func(name, v, whole string, quote byte) attribute {
		if uriAttributes[strings.ToLower(name)] {
			v = badProtocol(v)
		}
		return attribute{name: name, value: v, whole: name + "=" + string(quote) + v + string(quote)}
	}
	mode, name, i := 0, "", 0
	for i < len(s) {
		ok := false
		switch mode {
		case 0:
			if isAlpha(s[i]) || s[i] == '_' {
				j := runOf(s, i+1, func(c byte) bool { return isAlpha(c) || isDigit(c) || c == '-' || c == '_' || c == ':' || c == '.' })
				name, i, mode, ok = s[i:j], j, 1, true
			}
		case 1:
			j := skipSpaces(s, i)
			if j < len(s) && s[j] == '=' {
				i, mode, ok = skipSpaces(s, j+1), 2, true
			} else if j > i {
				add(attribute{name: name, whole: name, valueless: true})
				i, mode, ok = j, 0, true
			}
		case 2:
			if q := s[i]; q == '"' || q == '\'' {
				if end := strings.IndexByte(s[i+1:], q); end >= 0 {
					end += i + 1
					if after, fits := valueEnd(s, end+1); fits {
						add(value(name, s[i+1:end], "", q))
						i, mode, ok = after, 0, true
					}
				}
			} else {
				end := runOf(s, i, func(c byte) bool { return !isSpace(c) && c != '"' && c != '\'' })
				if after, fits := valueEnd(s, end); fits {
					add(value(name, s[i:end], "", '"'))
					i, mode, ok = after, 0, true
				}
			}
		}
		if !ok {
			i = skipMalformed(s, i)
			mode = 0
		}
	}
	if mode == 1 {
		add(attribute{name: name, whole: name, valueless: true})
	}
	return out
}

// valueEnd reports whether a value ending at i is followed by spaces or by
// the end (an optional "/" then the end, or a final newline), and where
// the next attribute starts.
func valueEnd(s string, i int) (int, bool) {
	if j := skipSpaces(s, i); j > i {
		return j, true
	}
	rest := s[i:]
	rest = strings.TrimPrefix(rest, "/")
	if rest == "" || rest == "\n" {
		return len(s), true
	}
	return i, false
}

// skipMalformed skips what wp_kses_html_error does: quoted strings and
// other non-spaces, then spaces.
func skipMalformed(s string, i int) int {
	for i < len(s) && !isSpace(s[i]) {
		if q := s[i]; q == '"' || q == '\'' {
			if end := strings.IndexByte(s[i+1:], q); end >= 0 {
				i += end + 2
				continue
			}
			return len(s)
		}
		i++
	}
	return skipSpaces(s, i)
}

// badProtocol takes off a URL's protocols that are not allowed until none
// is left, or gives "" when that has not settled after six passes
// (wp_kses_bad_protocol).
func badProtocol(s string) string {
	s = removeSlashZeros(removeControls(s))
	for pass := 0; pass < 6; pass++ {
		next := badProtocolOnce(s, 1)
		if next == s {
			return s
		}
		s = next
	}
	return ""
}

// badProtocolOnce checks the part before the first colon (or encoded
// colon) once.
func badProtocolOnce(s string, count int) string {
	s = terminateColonEntities(s)
	at, width := firstColon(s)
	if at < 0 || strings.Contains(s[:at], "/?") {
		return s
	}
	rest := phpTrim(s[at+width:])
	protocol := checkedProtocol(s[:at])
	if protocol == "feed:" {
		if count > 2 {
			return ""
		}
		rest = badProtocolOnce(rest, count+1)
		if rest == "" || rest == "0" {
			return rest
		}
	}
	return protocol + rest
}

// colonEntity reads "&#0*58" or "&#x0*3a" at s[i:] and tells where it ends.
func colonEntity(s string, i int) (int, bool) {
	if !strings.HasPrefix(s[i:], "&#") {
		return 0, false
	}
	j := i + 2
	hex := j < len(s) && (s[j] == 'x' || s[j] == 'X')
	if hex {
		j++
	}
	for j < len(s) && s[j] == '0' {
		j++
	}
	want := "58"
	if hex {
		want = "3a"
	}
	if len(s) < j+2 || strings.ToLower(s[j:j+2]) != want {
		return 0, false
	}
	return j + 2, true
}

// terminateColonEntities adds the ";" a colon entity left open lacks.
func terminateColonEntities(s string) string {
	if !strings.Contains(s, "&#") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		if end, ok := colonEntity(s, i); ok {
			b.WriteString(s[i:end])
			hex := s[i+2] == 'x' || s[i+2] == 'X'
			if end == len(s) || !(s[end] == ';' || isDigit(s[end]) || hex && isHex(s[end])) {
				b.WriteByte(';')
			}
			i = end
			continue
		}
		b.WriteByte(s[i])
		i++
	}
	return b.String()
}

// firstColon finds the first ":", "&#58;", "&#x3a;" or "&colon;".
func firstColon(s string) (int, int) {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ':':
			return i, 1
		case '&':
			if end, ok := colonEntity(s, i); ok && end < len(s) && s[end] == ';' {
				return i, end + 1 - i
			}
			if len(s) >= i+7 && strings.EqualFold(s[i:i+7], "&colon;") {
				return i, 7
			}
		}
	}
	return -1, 0
}

// checkedProtocol is "name:" when the part before the colon, decoded,
// without spaces and lower-cased, is an allowed protocol, else "".
func checkedProtocol(s string) string {
	s = decodeNumericEntities(s, false)
	s = decodeNumericEntities(s, true)
	s = strings.Map(func(r rune) rune {
		if r < 0x80 && isSpace(byte(r)) {
			return -1
		}
		return r
	}, s)
	s = strings.ToLower(removeSlashZeros(removeControls(s)))
	if allowedProtocols[s] {
		return s + ":"
	}
	return ""
}

// decodeNumericEntities turns "&#N;" (or "&#xN;") into the byte N mod 256,
// as wp_kses_decode_entities does.
func decodeNumericEntities(s string, hex bool) string {
	if !strings.Contains(s, "&#") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		if strings.HasPrefix(s[i:], "&#") {
			j := i + 2
			if hex {
				if j < len(s) && (s[j] == 'x' || s[j] == 'X') {
					j++
				} else {
					b.WriteByte(s[i])
					i++
					continue
				}
			}
			digits := isDigit
			if hex {
				digits = isHex
			}
			end := runOf(s, j, digits)
			if end > j && end < len(s) && s[end] == ';' {
				b.WriteByte(byteOf(s[j:end], hex))
				i = end + 1
				continue
			}
		}
		b.WriteByte(s[i])
		i++
	}
	return b.String()
}

// byteOf is PHP's chr of the number: its value mod 256.
func byteOf(digits string, hex bool) byte {
	var n byte
	for i := 0; i < len(digits); i++ {
		d := digits[i] - '0'
		if hex {
			switch c := digits[i] | 0x20; {
			case c >= 'a':
				d = c - 'a' + 10
			}
			n = n*16 + d
		} else {
			n = n*10 + d
		}
	}
	return n
}

package wordpress

import "strings"

// This file is WordPress 6.1's wptexturize() (wp-includes/formatting.php)
// with its default settings: English curly quotes and dashes, the default
// no-texturize elements (pre, code, kbd, style, script, tt) and no shortcode
// registered, so "[caption]" and the like are ordinary text.
//
// WordPress runs a fixed sequence of PCRE replacements; several use
// lookbehind and lookahead, which Go's regexp lacks, so each is a small
// matcher here, run by wpReplace. The order of the passes matters: the
// temporary flags one pass inserts (such as "<!--apos-->") are what the
// next pass's lookarounds see.

// The entities wptexturize writes.
const (
	txOpenDouble  = "&#8220;"
	txCloseDouble = "&#8221;"
	txOpenSingle  = "&#8216;"
	txCloseSingle = "&#8217;" // also the apostrophe
	txPrime       = "&#8242;"
	txDoublePrime = "&#8243;"
	txEnDash      = "&#8211;"
	txEmDash      = "&#8212;"
)

// Placeholders for quotes whose final form is decided later; they cannot
// occur in the text itself, which holds no "<" between tags.
const (
	txOpenQFlag  = "<!--oq-->"
	txOpenSQFlag = "<!--osq-->"
	txAposFlag   = "<!--apos-->"
	txPrimeFlag  = "<!--wp-prime-or-quote-->"
)

// txStatic are plain replacements, made one after the other in this order
// (str_replace with arrays); the later ones are the "cockney" words whose
// leading apostrophe is not an opening quote.
var txStatic = [][2]string{
	{"...", "&#8230;"}, {"``", txOpenDouble}, {"''", txCloseDouble}, {" (tm)", " &#8482;"},
	{"'tain't", "&#8217;tain&#8217;t"}, {"'twere", "&#8217;twere"}, {"'twas", "&#8217;twas"},
	{"'tis", "&#8217;tis"}, {"'twill", "&#8217;twill"}, {"'til", "&#8217;til"}, {"'bout", "&#8217;bout"},
	{"'nuff", "&#8217;nuff"}, {"'round", "&#8217;round"}, {"'cause", "&#8217;cause"}, {"'em", "&#8217;em"},
}

// txNoTexturize are the elements whose content is left alone.
var txNoTexturize = []string{"pre", "code", "kbd", "style", "script", "tt"}

// wptexturize curls quotes and apostrophes, turns dashes, ellipses, " (tm)"
// and 9x9 into entities and escapes stray ampersands, in the text outside
// tags, comments and no-texturize elements; it also escapes ampersands in
// tags.
func wptexturize(text string) string {
	if text == "" || text == "0" { // PHP's empty()
		return text
	}
	var b strings.Builder
	var stack []string // open no-texturize elements, innermost last
	for _, piece := range txSplit(text) {
		switch {
		case strings.HasPrefix(piece, "<!--"):
			// Comments are kept as they are.
		case piece[0] == '<':
			piece = txEscapeAmpersands(piece)
			stack = txPushPop(piece, stack)
		case phpTrim(piece) == "":
		case len(stack) == 0:
			piece = txText(piece)
		}
		b.WriteString(piece)
	}
	return b.String()
}

// txSplit cuts text into tags and the text between them (no empty pieces).
// A tag runs from "<" to the next ">", or to the end of the text if there
// is none; a comment from "<!--" to the first "-->" after "<!", or to the
// end.
func txSplit(text string) []string {
	var pieces []string
	for text != "" {
		lt := strings.IndexByte(text, '<')
		if lt < 0 {
			return append(pieces, text)
		}
		if lt > 0 {
			pieces, text = append(pieces, text[:lt]), text[lt:]
		}
		end := len(text)
		if strings.HasPrefix(text, "<!--") {
			if i := strings.Index(text[2:], "-->"); i >= 0 {
				end = i + 5
			}
		} else if i := strings.IndexByte(text, '>'); i >= 0 {
			end = i + 1
		}
		pieces, text = append(pieces, text[:end]), text[end:]
	}
	return pieces
}

// txPushPop tracks no-texturize elements, as _wptexturize_pushpop_element
// does: the name is what follows "<" or "</" up to the first space, or up
// to the last byte but one when there is no space (so "<pre\n>" is not pre,
// nor is "<PRE>"). A closing tag pops only the innermost element.
func txPushPop(tag string, stack []string) []string {
	opening := len(tag) > 1 && tag[1] != '/'
	if !opening && len(stack) == 0 {
		return stack
	}
	start := 2
	if opening {
		start = 1
	}
	end := strings.IndexByte(tag, ' ')
	if end < 0 {
		end = len(tag) - 1
	}
	name := ""
	if start < end {
		name = tag[start:end]
	}
	for _, t := range txNoTexturize {
		switch {
		case name != t:
		case opening:
			return append(stack, name)
		case stack[len(stack)-1] == name:
			return stack[:len(stack)-1]
		}
	}
	return stack
}

// txText texturizes one piece of text between tags.
func txText(s string) string {
	for _, r := range txStatic {
		if strings.Contains(s, r[0]) {
			s = strings.ReplaceAll(s, r[0], r[1])
		}
	}
	if strings.Contains(s, "'") {
		for _, rule := range txAposRules {
			s = wpReplace(s, "'", rule)
		}
		s = txPrimes(s, "'", txPrime, txOpenSQFlag, txCloseSingle)
		s = strings.ReplaceAll(s, txAposFlag, txCloseSingle)
		s = strings.ReplaceAll(s, txOpenSQFlag, txOpenSingle)
	}
	if strings.Contains(s, `"`) {
		s = wpReplace(s, `"`, txQuotedNumber('"', txOpenQFlag, txCloseDouble))
		// An opening quote: at the start or after ( [ { - &lt; or a space,
		// and not before a space.
		s = wpReplace(s, `"`, wpWhen(1, txOpenQFlag, func(s string, i int) bool {
			return txOpensAfter(s, i, `([{-`) && !txSpaceAt(s, i+1)
		}))
		s = txPrimes(s, `"`, txDoublePrime, txOpenQFlag, txCloseDouble)
		s = strings.ReplaceAll(s, txOpenQFlag, txOpenDouble)
	}
	if strings.Contains(s, "-") {
		s = strings.ReplaceAll(s, "---", txEmDash)
		// Two or one dashes alone between spaces, then -- anywhere but in
		// punycode (xn--).
		s = wpReplace(s, "--", wpWhen(2, txEmDash, func(s string, i int) bool {
			return (i == 0 || txSpaceBefore(s, i)) && (txAtEnd(s, i+2) || txSpaceAt(s, i+2))
		}))
		s = wpReplace(s, "--", wpWhen(2, txEnDash, func(s string, i int) bool {
			return !strings.HasSuffix(s[:i], "xn")
		}))
		s = wpReplace(s, "-", wpWhen(1, txEnDash, func(s string, i int) bool {
			return (i == 0 || txSpaceBefore(s, i)) && (txAtEnd(s, i+1) || txSpaceAt(s, i+1))
		}))
	}
	return txEscapeAmpersands(txTimes(s))
}

// txAposRules decide single quotes, in WordPress' order: the quote in a
// two-digit year is an apostrophe, one after a space or an opening bracket
// opens, one inside a word is an apostrophe. The quotes left are closing
// quotes or primes, which txPrimes decides.
var txAposRules = []wpRule{
	// '99' and '99" before the end of a quotation: a year, then a closing quote.
	txYear('\'', txCloseSingle),
	txYear('"', txCloseDouble),
	// '99, '99s, '99's; never '9, '99%, '999 or '99.0.
	wpWhen(1, txAposFlag, func(s string, i int) bool {
		if i+2 >= len(s) || !txDigit(s[i+1]) || !txDigit(s[i+2]) {
			return false
		}
		r := s[i+3:]
		return r == "" || !(r[0] == '%' || txDigit(r[0]) || len(r) > 1 && (r[0] == '.' || r[0] == ',') && txDigit(r[1]))
	}),
	txQuotedNumber('\'', txOpenSQFlag, txCloseSingle),
	// Opening: at the start or after ( [ { " - &lt; or a space.
	wpWhen(1, txOpenSQFlag, func(s string, i int) bool { return txOpensAfter(s, i, `([{"-`) }),
	// In a word: no space before, and no end, punctuation or space after.
	wpWhen(1, txAposFlag, func(s string, i int) bool {
		return !txSpaceBefore(s, i) && !txAtEnd(s, i+1) && strings.IndexByte(`.,:;!?"'(){}[]-`, s[i+1]) < 0 &&
			!strings.HasPrefix(s[i+1:], "&lt;") && !strings.HasPrefix(s[i+1:], "&gt;") && !txSpaceAt(s, i+1)
	}),
}

// txYear matches '99 followed by the quote q and the end of a quotation.
func txYear(q byte, closeQuote string) wpRule {
	return func(s string, i int) (int, string) {
		if i+3 < len(s) && txDigit(s[i+1]) && txDigit(s[i+2]) && s[i+3] == q && txClosingAt(s, i+4) {
			return i + 4, txAposFlag + s[i+1:i+3] + closeQuote
		}
		return -1, ""
	}
}

// txQuotedNumber matches a quoted number such as '0.42' or "42" at the
// start or after a space.
func txQuotedNumber(q byte, openFlag, closeQuote string) wpRule {
	return func(s string, i int) (int, string) {
		if (i == 0 || txSpaceBefore(s, i)) && i+1 < len(s) && txDigit(s[i+1]) {
			j := i + 2
			for j < len(s) && txNumByte(s[j]) {
				j++
			}
			if j < len(s) && s[j] == q {
				return j + 1, openFlag + s[i+1:j] + closeQuote
			}
		}
		return -1, ""
	}
}

// txOpensAfter reports whether a quote at i is at the start or after one
// of the bytes in after, "&lt;" or a space.
func txOpensAfter(s string, i int, after string) bool {
	return i == 0 || strings.IndexByte(after, s[i-1]) >= 0 || strings.HasSuffix(s[:i], "&lt;") || txSpaceBefore(s, i)
}

// txPrimes decides the quotes (needle) left after the opening ones: after a
// digit a quote is a prime (5' or 12"), elsewhere a closing quote. The text
// is cut at opening quotes; in a part that follows an opening quote but has
// no closing one yet, the closing candidates (quotes before punctuation, a
// space or the end of the part) win over primes, and when there are several
// the ones not after a digit win, else the last one before a period, else
// the last one.
func txPrimes(s, needle, prime, openFlag, closeQuote string) string {
	afterDigit := func(s string, i int) bool { return i > 0 && txDigit(s[i-1]) }
	primes := func(s string) string { return wpReplace(s, needle, wpWhen(1, prime, afterDigit)) }
	sentences := strings.Split(s, openFlag)
	for k, sen := range sentences {
		if !strings.Contains(sen, needle) {
			continue
		}
		if k == 0 || strings.Contains(sen, closeQuote) {
			sen = wpReplace(primes(sen), needle, wpWhen(1, closeQuote, txClosingAfter))
		} else {
			sen = wpReplace(sen, needle, wpWhen(1, txPrimeFlag, txClosingAfter))
			if strings.Count(sen, txPrimeFlag) > 1 {
				n := 0
				sen = wpReplace(sen, txPrimeFlag, wpWhen(len(txPrimeFlag), closeQuote, func(s string, i int) bool {
					if afterDigit(s, i) {
						return false
					}
					n++
					return true
				}))
				if n == 0 {
					pos := strings.LastIndex(sen, txPrimeFlag+".")
					if pos < 0 {
						pos = strings.LastIndex(sen, txPrimeFlag)
					}
					sen = sen[:pos] + closeQuote + sen[pos+len(txPrimeFlag):]
				}
				sen = primes(sen)
				sen = wpReplace(sen, txPrimeFlag, wpWhen(len(txPrimeFlag), prime, afterDigit))
			}
			sen = primes(strings.ReplaceAll(sen, txPrimeFlag, closeQuote))
		}
		if needle == `"` {
			sen = strings.ReplaceAll(sen, `"`, closeQuote)
		}
		sentences[k] = sen
	}
	return strings.Join(sentences, openFlag)
}

// txTimes writes 9x9 as 9&#215;9: digits (with . and ,) on both sides of
// the x, a word boundary around the whole, and never a hexadecimal 0x9.
func txTimes(s string) string {
	found := false
	for i := 1; i+1 < len(s) && !found; i++ {
		found = s[i] == 'x' && txDigit(s[i-1]) && txDigit(s[i+1])
	}
	if !found {
		return s
	}
	var b strings.Builder
	last := 0
	for i := 0; i < len(s); i++ {
		if !txDigit(s[i]) || i > 0 && txWordByte(s[i-1]) {
			continue
		}
		x := i + 1
		for x < len(s) && txNumByte(s[x]) {
			x++
		}
		// A failed start fails for every later start in the same run (they
		// share its end), so the scan resumes after the run.
		if s[i] == '0' && x == i+1 || x+1 >= len(s) || s[x] != 'x' || !txDigit(s[x+1]) {
			i = x - 1
			continue
		}
		// The right-hand number is the longest run ending at a word boundary.
		end := x + 2
		for end < len(s) && txNumByte(s[end]) {
			end++
		}
		for end > x+2 && !txBoundary(s, end) {
			end--
		}
		if !txBoundary(s, end) {
			i = x - 1
			continue
		}
		b.WriteString(s[last:x])
		b.WriteString("&#215;")
		last, i = x+1, end-1
	}
	b.WriteString(s[last:])
	return b.String()
}

// txEscapeAmpersands writes & as &#038; unless it starts something that
// looks like an entity: &#123; &#x1f; or &name; with 1 to 8 letters or 1-4.
func txEscapeAmpersands(s string) string {
	return wpReplace(s, "&", wpWhen(1, "&#038;", func(s string, i int) bool {
		r := s[i+1:]
		span := func(from int, ok func(byte) bool) int {
			j := from
			for j < len(r) && ok(r[j]) {
				j++
			}
			if j > from && j < len(r) && r[j] == ';' {
				return j - from
			}
			return 0
		}
		if strings.HasPrefix(r, "#") {
			return span(1, txDigit) == 0 && (len(r) < 2 || r[1] != 'x' && r[1] != 'X' || span(2, txHexByte) == 0)
		}
		n := span(0, func(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' || c >= '1' && c <= '4' })
		return n == 0 || n > 8
	}))
}

// A wpRule looks for a match starting at s[i] and returns its end and
// replacement, or -1.
type wpRule func(s string, i int) (end int, repl string)

// wpReplace is preg_replace's global replacement for a pattern whose
// matches start with prefix: rule is tried at each occurrence, left to
// right, resuming after each match. Rules see the text as it was before
// the pass, as lookbehinds do in PCRE.
func wpReplace(s, prefix string, rule wpRule) string {
	var b strings.Builder
	last := 0
	for i := 0; i < len(s); {
		j := strings.Index(s[i:], prefix)
		if j < 0 {
			break
		}
		i += j
		end, repl := rule(s, i)
		if end < 0 {
			i++
			continue
		}
		b.WriteString(s[last:i])
		b.WriteString(repl)
		i, last = end, end
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// wpWhen replaces the n bytes at i with repl when ok says so.
func wpWhen(n int, repl string, ok func(s string, i int) bool) wpRule {
	return func(s string, i int) (int, string) {
		if ok(s, i) {
			return i + n, repl
		}
		return -1, ""
	}
}

// phpTrim is PHP's trim(): it strips " \t\n\r\0\x0B" (not \f).
func phpTrim(s string) string {
	return strings.Trim(s, " \t\n\r\x00\x0B")
}

// wpSpaces are PCRE's \s without Unicode: no \0 and no no-break space.
const wpSpaces = " \t\n\v\f\r"

func wpSpace(c byte) bool { return strings.IndexByte(wpSpaces, c) >= 0 }

func wpSkipSpace(s string, i int) int {
	for i < len(s) && wpSpace(s[i]) {
		i++
	}
	return i
}

// txClosingAt reports whether what follows a quote ending at i makes it a
// closing quote: the end, punctuation, "&gt;" or a space.
func txClosingAt(s string, i int) bool {
	return txAtEnd(s, i) || strings.IndexByte(".,:;!?)}-]", s[i]) >= 0 || strings.HasPrefix(s[i:], "&gt;") || txSpaceAt(s, i)
}

func txClosingAfter(s string, i int) bool { return txClosingAt(s, i+1) }

// txAtEnd is PCRE's \Z and $: the end, or just before a final newline.
func txAtEnd(s string, i int) bool { return i == len(s) || i == len(s)-1 && s[i] == '\n' }

// txSpaceAt and txSpaceBefore match wp_spaces_regexp() after and before i:
// \r \n \t, a space, a UTF-8 no-break space or "&nbsp;".
func txSpaceAt(s string, i int) bool {
	return i < len(s) && strings.IndexByte("\r\n\t ", s[i]) >= 0 ||
		strings.HasPrefix(s[i:], "\u00a0") || strings.HasPrefix(s[i:], "&nbsp;")
}

func txSpaceBefore(s string, i int) bool {
	return i > 0 && strings.IndexByte("\r\n\t ", s[i-1]) >= 0 ||
		strings.HasSuffix(s[:i], "\u00a0") || strings.HasSuffix(s[:i], "&nbsp;")
}

// txBoundary is PCRE's ASCII \b.
func txBoundary(s string, i int) bool {
	return (i > 0 && txWordByte(s[i-1])) != (i < len(s) && txWordByte(s[i]))
}

func txDigit(c byte) bool   { return c >= '0' && c <= '9' }
func txNumByte(c byte) bool { return txDigit(c) || c == '.' || c == ',' }
func txHexByte(c byte) bool { return txDigit(c) || c|0x20 >= 'a' && c|0x20 <= 'f' }
func txWordByte(c byte) bool {
	return txDigit(c) || c|0x20 >= 'a' && c|0x20 <= 'z' || c == '_'
}

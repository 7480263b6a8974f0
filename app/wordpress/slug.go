package wordpress

import (
	"context"
	"errors"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// maxSlugLength is WordPress' limit on post_name.
const maxSlugLength = 200

var (
	htmlTag    = regexp.MustCompile(`<[^>]*>`)
	htmlEntity = regexp.MustCompile(`&[A-Za-z0-9#]+;`)
	dashRun    = regexp.MustCompile(`-+`)
)

// Letters that do not decompose into a base letter and marks.
var transliterations = map[rune]string{
	'ß': "ss", 'æ': "ae", 'Æ': "AE", 'ø': "o", 'Ø': "O", 'œ': "oe", 'Œ': "OE", 'đ': "d", 'Đ': "D",
	'ł': "l", 'Ł': "L", 'þ': "th", 'Þ': "TH", 'ð': "d", 'Ð': "D", 'ı': "i", '×': "x",
}

// StripTags removes HTML tags, as WordPress' wp_strip_all_tags does before
// trimming.
func StripTags(s string) string { return htmlTag.ReplaceAllString(s, "") }

// SanitizeTitle turns a title into a slug the way WordPress does: tags and
// entities stripped, accents transliterated, lower case, dashes for spaces, "/"
// and ".", everything else outside a-z 0-9 _ - dropped, except letters with no
// ASCII form, which are kept percent-encoded.
func SanitizeTitle(title string) string {
	s := htmlTag.ReplaceAllString(title, "")
	s = htmlEntity.ReplaceAllString(s, "")
	var b strings.Builder
	for _, r := range norm.NFD.String(s) {
		switch {
		case unicode.Is(unicode.Mn, r):
			// a combining accent: its base letter was written already
		case transliterations[r] != "":
			b.WriteString(strings.ToLower(transliterations[r]))
		case r < 0x80:
			b.WriteRune(unicode.ToLower(r))
		case r == '\u00a0' || r == '\u2013' || r == '\u2014' || unicode.IsSpace(r):
			b.WriteByte('-')
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			for _, c := range []byte(norm.NFC.String(strings.ToLower(string(r)))) {
				fmt.Fprintf(&b, "%%%02x", c)
			}
		}
	}
	var out strings.Builder
	for _, r := range b.String() {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '_', r == '-', r == '%':
			out.WriteRune(r)
		case r == ' ', r == '/', r == '.', r == '\t', r == '\n':
			out.WriteByte('-')
		}
	}
	slug := strings.Trim(dashRun.ReplaceAllString(out.String(), "-"), "-")
	return truncateSlug(slug, maxSlugLength)
}

// truncateSlug cuts a slug to n bytes without splitting a %xx escape.
func truncateSlug(slug string, n int) string {
	if len(slug) <= n {
		return slug
	}
	slug = slug[:n]
	if i := strings.LastIndexByte(slug, '%'); i >= 0 && i > len(slug)-3 {
		slug = slug[:i]
	}
	return strings.TrimRight(slug, "-")
}

// Slugs WordPress never gives a post, because its feeds and embeds own them.
var reservedSlugs = map[string]bool{"feed": true, "rdf": true, "rss": true, "rss2": true, "atom": true, "embed": true}

// ErrSlugsExhausted means no free suffix was found: practically unreachable.
var ErrSlugsExhausted = errors.New("no free slug")

// UniqueSlug returns the first of base, base-2, base-3... from the from-th
// on (1 is base itself) that taken says is free, and its number. A writer
// whose slug another took meanwhile (the store refused it) goes on from the
// next number, so that many writers of one title all end up with a slug.
func UniqueSlug(ctx context.Context, base string, from int, taken func(context.Context, string) (bool, error)) (string, int, error) {
	if base == "" {
		base = "untitled"
	}
	for n := max(from, 1); n < 10000; n++ {
		candidate := base
		if n > 1 {
			suffix := fmt.Sprintf("-%d", n)
			candidate = truncateSlug(base, maxSlugLength-len(suffix)) + suffix
		} else if reservedSlugs[base] {
			continue
		}
		used, err := taken(ctx, candidate)
		if err != nil {
			return "", 0, err
		}
		if !used {
			return candidate, n, nil
		}
	}
	return "", 0, ErrSlugsExhausted
}

// WholeNumber reads an ID the way WordPress reads numeric strings: "7",
// " 7 ", "7.0", "7e2", within the int64 range.
func WholeNumber(s string) (int64, bool) {
	s = strings.TrimSpace(s)
	if i, err := strconv.ParseInt(s, 10, 64); err == nil {
		return i, true
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) || f != math.Trunc(f) || math.Abs(f) >= 1<<63 {
		return 0, false
	}
	return int64(f), true
}

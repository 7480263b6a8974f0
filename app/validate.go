package app

import (
	"net/mail"
	"net/url"
	"regexp"
	"strings"

	"calendar/app/wordpress"
)

var whitespaceRun = regexp.MustCompile(`\s+`)

// sanitizeText is WordPress' text-field sanitizer: tags stripped, whitespace
// collapsed, trimmed.
func sanitizeText(s string) string {
	return strings.TrimSpace(whitespaceRun.ReplaceAllString(wordpress.StripTags(s), " "))
}

func isURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && u.Scheme != "" && u.Host != ""
}

func isHTTPURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
}

func isEmail(s string) bool {
	a, err := mail.ParseAddress(s)
	return err == nil && a.Address == s && strings.Contains(s[strings.LastIndexByte(s, '@'):], ".")
}

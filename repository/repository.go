// Package repository holds the storage behind app.Store, twice: MongoDB through
// the official driver, and an embedded bbolt database for running without a
// server. Both encode documents as BSON with the app types' bson tags, allocate
// IDs per collection and change sequence numbers store-wide, and enforce the
// unique keys each document declares. No resource rules live here.
package repository

import (
	"encoding/binary"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"calendar/app/calendar"
)

// Collection names, one per app.Store repo.
const (
	usersCollection  = "users"
	postsCollection  = "posts"
	termsCollection  = "terms"
	guardsCollection = "guards"
)

// uniqueFields returns the names of the unique keys documents of type T declare.
func uniqueFields[U any, T interface {
	*U
	calendar.Document
}]() []string {
	var zero U
	var fields []string
	for f := range T(&zero).UniqueKeys() {
		fields = append(fields, f)
	}
	return fields
}

// checkKeys: every field has a value (an index of MongoDB's keeps an absent
// or empty one as null, which two documents could not share), none empty.
func checkKeys(keys map[string][]string) error {
	for f, values := range keys {
		if len(values) == 0 {
			return fmt.Errorf("unique key %q has no value", f)
		}
		for _, v := range values {
			if v == "" {
				return fmt.Errorf("unique key %q is empty", f)
			}
		}
	}
	return nil
}

// checkFileName accepts only clean relative names ("2026/11/poster.jpg"), so
// that no stored file lands outside its store: no empty segment (a leading,
// doubled or trailing slash), none starting with a dot ("..", ".", hidden
// names, the embedded store's .tmp), no backslash, no control character, valid
// UTF-8. Both backends share it so that a name one takes the other takes too.
func checkFileName(name string) error {
	bad := name == "" || !utf8.ValidString(name) ||
		strings.ContainsFunc(name, func(r rune) bool { return r == '\\' || unicode.IsControl(r) })
	for _, seg := range strings.Split(name, "/") {
		bad = bad || seg == "" || seg[0] == '.'
	}
	if bad {
		return fmt.Errorf("file name %q is not a clean relative path", name)
	}
	return nil
}

func itob(id int64) []byte {
	b := make([]byte, 8)
	binary.BigEndian.PutUint64(b, uint64(id))
	return b
}

func btoi(b []byte) int64 { return int64(binary.BigEndian.Uint64(b)) }

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

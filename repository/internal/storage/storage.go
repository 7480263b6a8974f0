// Package storage is what the two stores (repository/bolt and
// repository/mongo) decide alike: their collections' names, the unique keys
// a document may declare and the file names they take, so that what one
// store accepts the other accepts too. No resource rules live here.
package storage

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"calendar/app/calendar"
)

// Collection names, one per calendar.Store repo.
const (
	UsersCollection  = "users"
	PostsCollection  = "posts"
	TermsCollection  = "terms"
	GuardsCollection = "guards"
	// WebhooksCollection holds the subscriptions to the change feed.
	WebhooksCollection = "webhooks"
	// WebhookMarksCollection holds what filtered subscriptions delivered.
	WebhookMarksCollection = "webhook_marks"
	// SynonymsCollection holds the groups of words searches treat alike.
	SynonymsCollection = "synonyms"
	// ImportsCollection holds the sources of imports, ImportItemsCollection
	// what their items became.
	ImportsCollection     = "imports"
	ImportItemsCollection = "import_items"
	// FieldsCollection holds the one set of custom field declarations.
	FieldsCollection = "fields"
)

// UniqueFields returns the names of the unique keys documents of type T declare.
func UniqueFields[U any, T interface {
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

// CheckKeys: every field has a value (an index of MongoDB's keeps an absent
// or empty one as null, which two documents could not share), none empty.
func CheckKeys(keys map[string][]string) error {
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

// CheckFileName accepts only clean relative names ("2026/11/poster.jpg"), so
// that no stored file lands outside its store: no empty segment (a leading,
// doubled or trailing slash), none starting with a dot ("..", ".", hidden
// names, the embedded store's .tmp), no backslash, no control character, valid
// UTF-8. Both stores share it so that a name one takes the other takes too.
func CheckFileName(name string) error {
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

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

	"calendar/app"
)

// Collection names, one per app.Store repo.
const (
	usersCollection = "users"
	postsCollection = "posts"
	termsCollection = "terms"
)

// uniqueFields returns the names of the unique keys documents of type T declare.
func uniqueFields[U any, T interface {
	*U
	app.Document
}]() []string {
	var zero U
	var fields []string
	for f := range T(&zero).UniqueKeys() {
		fields = append(fields, f)
	}
	return fields
}

func checkKeys(keys map[string]string) error {
	for f, v := range keys {
		if v == "" {
			return fmt.Errorf("unique key %q is empty", f)
		}
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

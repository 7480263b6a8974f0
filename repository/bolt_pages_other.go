//go:build !linux

package repository

import "go.etcd.io/bbolt"

// forgetPages: only on Linux (bolt_pages_linux.go).
func forgetPages(*bbolt.Tx) {}

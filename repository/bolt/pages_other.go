//go:build !linux

package bolt

import "go.etcd.io/bbolt"

// forgetPages: only on Linux (pages_linux.go).
func forgetPages(*bbolt.Tx) {}

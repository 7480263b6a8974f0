// Package backuptest reads and writes the archives backup tests restore:
// gzipped tar streams, taken apart and put together again altered or
// hostile, as a test needs.
package backuptest

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"testing"
)

// Entry is one entry of an archive: its header and, for a regular file,
// its content.
type Entry struct {
	Header tar.Header
	Data   []byte
}

// File is a regular file of an archive.
func File(name, content string) Entry {
	return Entry{Header: tar.Header{Name: name, Typeflag: tar.TypeReg, Mode: 0o600}, Data: []byte(content)}
}

// Read takes an archive apart.
func Read(t testing.TB, archive []byte) []Entry {
	t.Helper()
	gz, err := gzip.NewReader(bytes.NewReader(archive))
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(gz)
	var out []Entry
	for {
		hdr, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		data, err := io.ReadAll(tr)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, Entry{Header: *hdr, Data: data})
	}
}

// Write puts entries together into an archive; a regular file's size is
// its content's.
func Write(t testing.TB, entries ...Entry) []byte {
	t.Helper()
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	for _, e := range entries {
		hdr := e.Header
		if hdr.Typeflag == tar.TypeReg {
			hdr.Size = int64(len(e.Data))
		}
		err := tw.WriteHeader(&hdr)
		if err == nil {
			_, err = tw.Write(e.Data)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := errors.Join(tw.Close(), gz.Close()); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

package index

import (
	"context"
	"strconv"
	"testing"
)

func TestOpenCreatesThenReopensTheIndex(t *testing.T) {
	dir := t.TempDir()
	idx, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !idx.Fresh {
		t.Fatal("a new index is not marked fresh")
	}
	if err := idx.Ping(context.Background()); err != nil {
		t.Fatal(err)
	}
	idx.Close()
	again, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	if again.Fresh {
		t.Fatal("an existing index of the current mapping version was recreated")
	}
}

func TestOpenRebuildsAnIndexOfAnotherMappingVersion(t *testing.T) {
	dir := t.TempDir()
	idx, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := idx.bleve.SetInternal(versionKey, []byte(strconv.Itoa(MappingVersion-1))); err != nil {
		t.Fatal(err)
	}
	idx.Close()
	again, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	if !again.Fresh {
		t.Fatal("an index of an older mapping version was kept")
	}
}

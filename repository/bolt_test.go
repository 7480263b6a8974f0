package repository

import (
	"context"
	"testing"

	"calendar/app"
)

func TestBoltContract(t *testing.T) {
	dirs := map[app.Store]string{}
	open := func(t *testing.T, dir string) app.Store {
		s, err := OpenBolt(dir)
		if err != nil {
			t.Fatal(err)
		}
		dirs[s] = dir
		t.Cleanup(func() { s.Close(context.Background()) })
		return s
	}
	runContract(t, storeUnderTest{
		open: func(t *testing.T) app.Store { return open(t, t.TempDir()) },
		reopen: func(t *testing.T, s app.Store) app.Store {
			if err := s.Close(context.Background()); err != nil {
				t.Fatal(err)
			}
			return open(t, dirs[s])
		},
		concurrent: true,
	})
}

func TestBoltRefusesADataDirInUse(t *testing.T) {
	dir := t.TempDir()
	s, err := OpenBolt(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close(context.Background())
	if _, err := OpenBolt(dir); err == nil {
		t.Fatal("a second open of the same data dir succeeded")
	}
}

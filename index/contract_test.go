package index

import (
	"testing"

	"calendar/app/calendar"
	"calendar/index/indextest"
)

// TestTheIndexContract: the bleve index, as the service holds it (Live),
// passes the contract of every index.
func TestTheIndexContract(t *testing.T) {
	dirs := map[calendar.Index]string{}
	open := func(t *testing.T, dir string) calendar.Index {
		idx, err := Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		dirs[idx] = dir
		t.Cleanup(func() { idx.Close() })
		return idx
	}
	indextest.Run(t, indextest.Backend{
		Open: func(t *testing.T) calendar.Index { return open(t, t.TempDir()) },
		Reopen: func(t *testing.T, idx calendar.Index) calendar.Index {
			if err := idx.Close(); err != nil {
				t.Fatal(err)
			}
			return open(t, dirs[idx])
		},
	})
}

package storetest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"calendar/app/calendar"
)

// runFiles is the contract of Store.Files, part of Run.
func runFiles(t *testing.T, sut Backend) {
	ctx := context.Background()

	t.Run("put then open gives the bytes, size and owner back, from any offset", func(t *testing.T) {
		t.Parallel()
		files := sut.Open(t).Files()
		data := RandomBytes(1000)
		start := time.Now().Truncate(time.Millisecond)
		if err := files.PutFile(ctx, "2026/11/poster.jpg", 7, data); err != nil {
			t.Fatal(err)
		}
		f := MustOpen(t, files, "2026/11/poster.jpg", data)
		info := f.Info()
		if info.Name != "2026/11/poster.jpg" || info.Owner != 7 || info.Size != 1000 ||
			info.Written.Before(start) || info.Written.After(time.Now()) {
			t.Fatalf("Info = %+v", info)
		}
		if stat, err := files.StatFile(ctx, "2026/11/poster.jpg"); err != nil || !sameInfo(stat, info) {
			t.Fatalf("StatFile = %+v, %v; want %+v", stat, err, info)
		}
		for _, c := range []struct {
			offset int64
			whence int
			pos    int64
			want   []byte // nil: at the end
		}{{100, io.SeekStart, 100, data[100:105]}, {-5, io.SeekEnd, 995, data[995:]}, {10, io.SeekCurrent, 1010, nil}} {
			if pos, err := f.Seek(c.offset, c.whence); err != nil || pos != c.pos {
				t.Fatalf("Seek(%d, %d) = %d, %v; want %d", c.offset, c.whence, pos, err, c.pos)
			}
			got, err := io.ReadAll(io.LimitReader(f, 5))
			if err != nil || !bytes.Equal(got, c.want) {
				t.Fatalf("5 bytes at %d = %v, %v; want %v", c.pos, got, err, c.want)
			}
		}
		if err := files.PutFile(ctx, "2026/11/empty.txt", 7, nil); err != nil {
			t.Fatal(err)
		}
		if f := MustOpen(t, files, "2026/11/empty.txt", nil); f.Info().Size != 0 {
			t.Fatalf("empty file Info = %+v", f.Info())
		}
	})

	t.Run("a taken name is a conflict and the first file stays", func(t *testing.T) {
		t.Parallel()
		files := sut.Open(t).Files()
		first := RandomBytes(300)
		if err := files.PutFile(ctx, "2026/11/a.jpg", 1, first); err != nil {
			t.Fatal(err)
		}
		if err := files.PutFile(ctx, "2026/11/a.jpg", 2, RandomBytes(400)); !errors.Is(err, calendar.ErrConflict) {
			t.Fatalf("second put err = %v, want ErrConflict", err)
		}
		if f := MustOpen(t, files, "2026/11/a.jpg", first); f.Info().Owner != 1 || f.Info().Size != 300 {
			t.Fatalf("after the conflict Info = %+v", f.Info())
		}
	})

	{
		t.Run("of concurrent puts of one name exactly one wins", func(t *testing.T) {
			t.Parallel()
			files := sut.Open(t).Files()
			const n = 20
			errs := make([]error, n)
			var wg sync.WaitGroup
			for i := range n {
				wg.Go(func() {
					errs[i] = files.PutFile(ctx, "2026/11/race.jpg", int64(i+1), bytes.Repeat([]byte{byte(i)}, 1000+i))
				})
			}
			wg.Wait()
			winner := -1
			for i, err := range errs {
				switch {
				case err == nil && winner >= 0:
					t.Fatalf("puts %d and %d both won", winner, i)
				case err == nil:
					winner = i
				case !errors.Is(err, calendar.ErrConflict):
					t.Fatalf("put %d: %v", i, err)
				}
			}
			if winner < 0 {
				t.Fatal("no put won")
			}
			if f := MustOpen(t, files, "2026/11/race.jpg", bytes.Repeat([]byte{byte(winner)}, 1000+winner)); f.Info().Owner != int64(winner+1) {
				t.Fatalf("winner %d, Info %+v", winner, f.Info())
			}
		})
	}

	t.Run("a deleted file is not found and its name is free", func(t *testing.T) {
		t.Parallel()
		files := sut.Open(t).Files()
		if err := files.PutFile(ctx, "2026/11/gone.jpg", 1, RandomBytes(10)); err != nil {
			t.Fatal(err)
		}
		for range 2 { // the second time it is missing: not an error
			if err := files.DeleteFile(ctx, "2026/11/gone.jpg"); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := files.OpenFile(ctx, "2026/11/gone.jpg"); !errors.Is(err, calendar.ErrNotFound) {
			t.Fatalf("open after delete err = %v, want ErrNotFound", err)
		}
		if _, err := files.StatFile(ctx, "2026/11/gone.jpg"); !errors.Is(err, calendar.ErrNotFound) {
			t.Fatalf("stat after delete err = %v, want ErrNotFound", err)
		}
		if err := files.DeleteFile(ctx, "never/was.jpg"); err != nil {
			t.Fatal(err)
		}
		again := RandomBytes(20)
		if err := files.PutFile(ctx, "2026/11/gone.jpg", 2, again); err != nil {
			t.Fatal(err)
		}
		MustOpen(t, files, "2026/11/gone.jpg", again)
	})

	t.Run("ListFiles lists what was written before the instant, in name order", func(t *testing.T) {
		t.Parallel()
		files := sut.Open(t).Files()
		early := []calendar.FileInfo{{Name: "2026/10/z.jpg", Owner: 3, Size: 3}, {Name: "2026/11/b-1.jpg", Owner: 2, Size: 2},
			{Name: "2026/11/b.jpg", Owner: 1, Size: 1}}
		for _, i := range []int{2, 0, 1} {
			if err := files.PutFile(ctx, early[i].Name, early[i].Owner, RandomBytes(int(early[i].Size))); err != nil {
				t.Fatal(err)
			}
		}
		time.Sleep(3 * time.Millisecond) // more than MongoDB's millisecond, either side
		cut := time.Now()
		time.Sleep(3 * time.Millisecond)
		if err := files.PutFile(ctx, "2026/09/late.jpg", 4, RandomBytes(4)); err != nil {
			t.Fatal(err)
		}
		if got := mustList(t, files, cut); fmt.Sprint(Names(got)) != fmt.Sprint(Names(early)) {
			t.Fatalf("before the cut: %v, want %v", Names(got), Names(early))
		}
		all := mustList(t, files, time.Now().Add(time.Second))
		if want := "[2026/09/late.jpg 2026/10/z.jpg 2026/11/b-1.jpg 2026/11/b.jpg]"; fmt.Sprint(Names(all)) != want {
			t.Fatalf("all: %v, want %s", Names(all), want)
		}
		for _, got := range all {
			stat, err := files.StatFile(ctx, got.Name)
			if err != nil || !sameInfo(got, stat) || got.Size != got.Owner {
				t.Fatalf("listed %+v, stat %+v, %v", got, stat, err)
			}
		}
		if got := mustList(t, files, cut.Add(-time.Hour)); len(got) != 0 {
			t.Fatalf("before everything: %v", Names(got))
		}
	})

	t.Run("names that are not clean relative paths are refused", func(t *testing.T) {
		t.Parallel()
		files := sut.Open(t).Files()
		for _, name := range []string{"", "/etc/passwd", "../x", "a/../../x", "a/..", "a//b", "a/", "./a", ".tmp/x",
			".hidden", `a\b`, `..\x`, "a\x00b", "a\nb", "a\x7fb", "a\xffb"} {
			if err := files.PutFile(ctx, name, 1, []byte("x")); err == nil || errors.Is(err, calendar.ErrConflict) {
				t.Errorf("PutFile(%q) err = %v, want a refusal", name, err)
			}
			if _, err := files.OpenFile(ctx, name); !errors.Is(err, calendar.ErrNotFound) {
				t.Errorf("OpenFile(%q) err = %v, want ErrNotFound", name, err)
			}
			if _, err := files.StatFile(ctx, name); !errors.Is(err, calendar.ErrNotFound) {
				t.Errorf("StatFile(%q) err = %v, want ErrNotFound", name, err)
			}
			if err := files.DeleteFile(ctx, name); err == nil {
				t.Errorf("DeleteFile(%q) was accepted", name)
			}
		}
		if got := mustList(t, files, time.Now().Add(time.Hour)); len(got) != 0 {
			t.Fatalf("refused names listed: %v", Names(got))
		}
	})

	t.Run("a 10 MiB file round-trips", func(t *testing.T) {
		t.Parallel()
		files := sut.Open(t).Files()
		data := RandomBytes(10<<20 + 123)
		if err := files.PutFile(ctx, "2026/11/big.bin", 9, data); err != nil {
			t.Fatal(err)
		}
		f := MustOpen(t, files, "2026/11/big.bin", data)
		if _, err := f.Seek(5<<20+7, io.SeekStart); err != nil {
			t.Fatal(err)
		}
		got := make([]byte, 300<<10)
		if _, err := io.ReadFull(f, got); err != nil || !bytes.Equal(got, data[5<<20+7:5<<20+7+300<<10]) {
			t.Fatalf("a range across chunks differs: %v", err)
		}
	})

	if sut.Reopen != nil {
		t.Run("files persist across close and reopen", func(t *testing.T) {
			t.Parallel()
			s := sut.Open(t)
			data := RandomBytes(5000)
			if err := s.Files().PutFile(ctx, "2026/11/kept.jpg", 5, data); err != nil {
				t.Fatal(err)
			}
			s = sut.Reopen(t, s)
			if f := MustOpen(t, s.Files(), "2026/11/kept.jpg", data); f.Info().Owner != 5 {
				t.Fatalf("after reopen Info = %+v", f.Info())
			}
		})
	}
}

// MustOpen opens name, checks its content and size, and rewinds it; it is
// closed when the test ends.
func MustOpen(t *testing.T, files calendar.Files, name string, want []byte) calendar.StoredFile {
	t.Helper()
	f, err := files.OpenFile(context.Background(), name)
	if err != nil {
		t.Fatalf("OpenFile(%q): %v", name, err)
	}
	t.Cleanup(func() { f.Close() })
	got, err := io.ReadAll(f)
	if err != nil || !bytes.Equal(got, want) || f.Info().Size != int64(len(want)) {
		t.Fatalf("%s: %d bytes (Info says %d), %v; want %d bytes as put", name, len(got), f.Info().Size, err, len(want))
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		t.Fatal(err)
	}
	return f
}

func mustList(t *testing.T, files calendar.Files, before time.Time) []calendar.FileInfo {
	t.Helper()
	got, err := files.ListFiles(context.Background(), before)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// Names are the files' names, in order.
func Names(infos []calendar.FileInfo) []string {
	out := make([]string, len(infos))
	for i, f := range infos {
		out[i] = f.Name
	}
	return out
}

func sameInfo(a, b calendar.FileInfo) bool {
	return a.Name == b.Name && a.Owner == b.Owner && a.Size == b.Size && a.Written.Equal(b.Written)
}

// RandomBytes are n bytes of noise, the same for the same n.
func RandomBytes(n int) []byte {
	b := make([]byte, n)
	r := rand.NewChaCha8([32]byte{byte(n), byte(n >> 8), byte(n >> 16)})
	_, _ = r.Read(b)
	return b
}

package index

// Where the indexes are under the data directory, so that a crash at any
// moment of a rebuild beside the live index leaves the live one to open:
//
//	index/, index-1/, index-2/...  one bleve index each
//	index.live                     names the live one (absent: index/)
//
// A successor is built in the next name; once it is complete on disk,
// index.live is replaced (a temporary file, fsynced, renamed, the
// directory fsynced) to name it, and only then is the old one removed.
// Open removes every other index directory it finds: a successor a crash
// cut short (index.live still names the old one), or an old one whose
// removal it cut short (index.live names the new one).

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

const (
	firstName = "index" // the one directory of releases before successors
	liveFile  = "index.live"
)

var indexName = regexp.MustCompile(`^index(-[1-9][0-9]{0,17})?$`)

// liveName reads which directory under dir holds the live index.
func liveName(dir string) (string, error) {
	raw, err := os.ReadFile(filepath.Join(dir, liveFile))
	if errors.Is(err, fs.ErrNotExist) {
		return firstName, nil
	}
	if err != nil {
		return "", err
	}
	name := strings.TrimSpace(string(raw))
	if !indexName.MatchString(name) {
		return "", fmt.Errorf("%s names %q, which is not an index directory: remove it and run reindex", filepath.Join(dir, liveFile), name)
	}
	return name, nil
}

// successorName is the directory a successor of the index in name is built in.
func successorName(name string) string {
	n, _ := strconv.ParseInt(strings.TrimPrefix(strings.TrimPrefix(name, firstName), "-"), 10, 64)
	return firstName + "-" + strconv.FormatInt(n+1, 10)
}

// setLiveName makes name the live index, durably, in one step: a crash
// leaves index.live naming either the old index or the new one.
func setLiveName(dir, name string) error {
	tmp := filepath.Join(dir, liveFile+".tmp")
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o640)
	if err != nil {
		return err
	}
	_, err = f.WriteString(name + "\n")
	if err == nil {
		err = f.Sync()
	}
	if err := errors.Join(err, f.Close()); err != nil {
		return err
	}
	if err := os.Rename(tmp, filepath.Join(dir, liveFile)); err != nil {
		return err
	}
	return syncDir(dir)
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	return errors.Join(d.Sync(), d.Close())
}

// removeOthers removes every index directory under dir but keep, and a
// temporary file of index.live a crash left.
func removeOthers(dir, keep string) error {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	var errs []error
	for _, e := range entries {
		name := e.Name()
		if (e.IsDir() && indexName.MatchString(name) && name != keep) || name == liveFile+".tmp" {
			errs = append(errs, os.RemoveAll(filepath.Join(dir, name)))
		}
	}
	return errors.Join(errs...)
}

// Remove deletes every index under dir, so the next Open builds a new one.
func Remove(dir string) error {
	if err := removeOthers(dir, ""); err != nil {
		return err
	}
	if err := os.Remove(filepath.Join(dir, liveFile)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// Found says how the live index under dir was built, changing nothing: its
// mapping version and the languages it stems in (0 and nil: none, or one
// that does not open).
func Found(dir string) (version int, languages []string) {
	name, err := liveName(dir)
	if err != nil {
		return 0, nil
	}
	idx, version, err := openExisting(filepath.Join(dir, name))
	if err != nil {
		return 0, nil
	}
	languages = idx.languages
	_ = idx.closeNow()
	return version, languages
}

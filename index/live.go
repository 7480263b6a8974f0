package index

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/blevesearch/bleve/v2"

	"calendar/app/calendar"
)

// Live implements app's ports: the index, and building its successor.
var (
	_ calendar.Index       = (*Live)(nil)
	_ calendar.Rebuildable = (*Live)(nil)
	_ calendar.Successor   = (*Successor)(nil)
	_ calendar.Compactable = (*Live)(nil)
)

// Live is the index the service serves: one bleve index at a time, which a
// rebuild replaces by a successor built beside it (Successor, Promote)
// while it goes on serving. Every call runs on the index that was live when
// it began; the one replaced is closed once those calls end.
type Live struct {
	dir      string
	versions Versions
	current  atomic.Pointer[serving]
	// mu makes successors, promotions and Close take turns.
	mu        sync.Mutex
	successor *Successor
	closed    bool
	// Fresh: there was no index this release serves, so an empty one was
	// made in its place, to fill from the store before it answers truly.
	Fresh bool
	// Outdated: the index is of an older mapping version that this release
	// still serves (Versions.ServesFrom): build its successor.
	Outdated bool
	// Version is the mapping version of the index opened.
	Version int
	// Found is the mapping version of the index found on disk (0: none),
	// FoundLanguages those it stems in, and Why says, when it is Fresh or
	// Outdated, why it is rebuilt: what was found, and what this release
	// builds and serves; Cause names it (one of the Cause constants).
	Found          int
	FoundLanguages []string
	Why            string
	Cause          string
}

// Why an index is rebuilt (Live.Cause), as app.ReindexStatus.Reason and the
// log name it.
const (
	CauseNoIndex        = "no_index"        // none was found: a first start, a restore, an index removed
	CauseMappingVersion = "mapping_version" // it is of another mapping version than this release builds
	CauseLanguages      = "languages"       // it stems in other languages than the service (CALENDAR_LANGUAGES)
	CauseStoreRestored  = "store_restored"  // it has applied changes the store does not have (Reset)
)

// serving is one bleve index while it is live: each call holds calls
// shared, and retiring the index takes it whole, so that it is closed only
// once the calls that began on it have ended.
type serving struct {
	idx     *Index
	version int    // its mapping version
	name    string // its directory under the data directory
	epoch   uint64 // how many indexes were live before it in this process
	calls   sync.RWMutex
	gone    bool // retired: calls go to the current one
}

// Open opens the live index under dir as this release reads it, stemming
// its events' words in each of languages (some of Languages) besides.
func Open(dir string, languages ...string) (*Live, error) {
	return OpenVersions(dir, ThisRelease.WithLanguages(languages))
}

// OpenVersions opens the live index under dir as a release of those
// versions reads it: an index of a version it serves is kept (Outdated when
// older than its own), any other is replaced by an empty one (Fresh).
// Index directories a crashed rebuild left are removed first.
func OpenVersions(dir string, versions Versions) (*Live, error) {
	if err := checkLanguages(versions.Languages); err != nil {
		return nil, err
	}
	name, err := liveName(dir)
	if err != nil {
		return nil, err
	}
	if err := removeOthers(dir, name); err != nil {
		return nil, fmt.Errorf("removing what an interrupted rebuild left: %w", err)
	}
	l := &Live{dir: dir, versions: versions}
	path := filepath.Join(dir, name)
	idx, version, err := openExisting(path)
	switch {
	case err == nil && versions.serves(version):
		l.Version, l.Found, l.FoundLanguages, l.Why = version, version, idx.languages, versions.outdated(version, idx.languages)
		l.Outdated = l.Why != ""
		switch {
		case version != versions.Mapping:
			l.Cause = CauseMappingVersion
		case l.Outdated:
			l.Cause = CauseLanguages
		}
	case err == nil:
		l.Found, l.FoundLanguages, l.Why, l.Cause = version, idx.languages, versions.unserved(version), CauseMappingVersion
		err = errors.Join(idx.closeNow(), os.RemoveAll(path))
		idx = nil
	case errors.Is(err, bleve.ErrorIndexPathDoesNotExist):
		l.Why, l.Cause, err = "there was no index (a first start, a restore, or the index was removed)", CauseNoIndex, nil
	default:
		return nil, fmt.Errorf("opening index %s: %w", path, err)
	}
	if err != nil {
		return nil, err
	}
	if idx == nil {
		if idx, err = create(path, versions); err != nil {
			return nil, err
		}
		l.Version, l.Fresh = versions.Mapping, true
	}
	l.current.Store(&serving{idx: idx, version: l.Version, name: name})
	return l, nil
}

// Reset replaces the live index by an empty one of this release's mapping
// in the same directory (Fresh from then on), for why: it is not the
// store's (app.IndexOfAnotherStore). Calls on the one replaced end first.
func (l *Live) Reset(why string) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed || l.successor != nil {
		return errors.New("the index is closed, or its successor is being built")
	}
	old := l.current.Load()
	old.calls.Lock()
	defer old.calls.Unlock()
	path := filepath.Join(l.dir, old.name)
	if err := errors.Join(old.idx.closeNow(), os.RemoveAll(path)); err != nil {
		return err
	}
	idx, err := create(path, l.versions)
	if err != nil {
		return err
	}
	old.gone = true
	l.current.Store(&serving{idx: idx, version: l.versions.Mapping, name: old.name, epoch: old.epoch + 1})
	l.Fresh, l.Outdated, l.Version, l.Why, l.Cause = true, false, l.versions.Mapping, why, CauseStoreRestored
	return nil
}

// hold returns the live index, held until release is called.
func (l *Live) hold() *serving {
	for {
		s := l.current.Load()
		s.calls.RLock()
		if !s.gone {
			return s
		}
		s.calls.RUnlock() // retired meanwhile: the next one is live
	}
}

func (s *serving) release() { s.calls.RUnlock() }

// on runs f on the live index.
func on[T any](l *Live, f func(*Index) (T, error)) (T, error) {
	s := l.hold()
	defer s.release()
	return f(s.idx)
}

func (l *Live) Highlight(q calendar.PostQuery, texts []string) [][]calendar.Span {
	s := l.hold()
	defer s.release()
	return s.idx.Highlight(q, texts)
}

func (l *Live) PutPosts(ctx context.Context, posts []*calendar.Post) error {
	_, err := on(l, func(i *Index) (struct{}, error) { return struct{}{}, i.PutPosts(ctx, posts) })
	return err
}

func (l *Live) DeletePost(ctx context.Context, id int64) error {
	_, err := on(l, func(i *Index) (struct{}, error) { return struct{}{}, i.DeletePost(ctx, id) })
	return err
}

func (l *Live) SearchPosts(ctx context.Context, q calendar.PostQuery) (calendar.PostPage, error) {
	return on(l, func(i *Index) (calendar.PostPage, error) { return i.SearchPosts(ctx, q) })
}

func (l *Live) PutTerms(ctx context.Context, terms []*calendar.Term) error {
	_, err := on(l, func(i *Index) (struct{}, error) { return struct{}{}, i.PutTerms(ctx, terms) })
	return err
}

func (l *Live) DeleteTerm(ctx context.Context, id int64) error {
	_, err := on(l, func(i *Index) (struct{}, error) { return struct{}{}, i.DeleteTerm(ctx, id) })
	return err
}

func (l *Live) SearchTerms(ctx context.Context, q calendar.TermQuery) ([]int64, error) {
	return on(l, func(i *Index) ([]int64, error) { return i.SearchTerms(ctx, q) })
}

func (l *Live) CountLinks(ctx context.Context, link calendar.Link, among calendar.PostQuery) (map[int64]int, error) {
	return on(l, func(i *Index) (map[int64]int, error) { return i.CountLinks(ctx, link, among) })
}

// Generation changes with every write to the live index, and when another
// index becomes live: answers kept from the old one are not taken for the
// new one's.
func (l *Live) Generation() uint64 {
	s := l.current.Load()
	return s.epoch<<40 | s.idx.Generation()
}

func (l *Live) AppliedSeq(ctx context.Context) (int64, error) {
	return on(l, func(i *Index) (int64, error) { return i.AppliedSeq(ctx) })
}

func (l *Live) SetAppliedSeq(ctx context.Context, seq int64) error {
	_, err := on(l, func(i *Index) (struct{}, error) { return struct{}{}, i.SetAppliedSeq(ctx, seq) })
	return err
}

func (l *Live) FieldsIndexed(ctx context.Context) (calendar.FieldsIndexed, error) {
	return on(l, func(i *Index) (calendar.FieldsIndexed, error) { return i.FieldsIndexed(ctx) })
}

func (l *Live) SetFieldsIndexed(ctx context.Context, f calendar.FieldsIndexed) error {
	_, err := on(l, func(i *Index) (struct{}, error) { return struct{}{}, i.SetFieldsIndexed(ctx, f) })
	return err
}

func (l *Live) DocCount(ctx context.Context) (int64, error) {
	return on(l, func(i *Index) (int64, error) { return i.DocCount(ctx) })
}

func (l *Live) Ping(ctx context.Context) error {
	_, err := on(l, func(i *Index) (struct{}, error) { return struct{}{}, i.Ping(ctx) })
	return err
}

// VerifyPost and CountPosts compare the live index with the store (calendar
// verify, the crash tests).
func (l *Live) VerifyPost(ctx context.Context, p *calendar.Post) error {
	_, err := on(l, func(i *Index) (struct{}, error) { return struct{}{}, i.VerifyPost(ctx, p) })
	return err
}

func (l *Live) CountPosts(ctx context.Context) (int, error) {
	return on(l, func(i *Index) (int, error) { return i.CountPosts(ctx) })
}

// Segments is the live index's (Index.Segments).
func (l *Live) Segments() (files int, merging bool) {
	s := l.hold()
	defer s.release()
	return s.idx.Segments()
}

// ServingVersion is the mapping version of the index live now (Version is
// the one opened; a promoted successor is of this release's).
func (l *Live) ServingVersion() int { return l.current.Load().version }

// ServingLanguages are the languages the live index stems in.
func (l *Live) ServingLanguages() []string { return slices.Clone(l.current.Load().idx.languages) }

// Dir is the directory of the live index.
func (l *Live) Dir() string { return filepath.Join(l.dir, l.current.Load().name) }

// Close closes the live index once the calls on it have ended, every write
// on disk (Index.Close), and removes a successor left unpromoted.
func (l *Live) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return nil
	}
	l.closed = true
	var err error
	if l.successor != nil {
		err = l.successor.discard()
	}
	s := l.current.Load()
	s.calls.Lock()
	defer s.calls.Unlock()
	return errors.Join(err, s.idx.Close())
}

// Successor is an index being built beside the live one, of this release's
// mapping: written only by its builder, until Promote makes it the live
// one or Discard removes it.
type Successor struct {
	*Index
	live *Live
	name string
}

// Successor makes an empty index beside the live one, for a rebuild to
// fill while the live one serves. One at a time.
func (l *Live) Successor() (calendar.Successor, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return nil, errors.New("the index is closed")
	}
	if l.successor != nil {
		return nil, errors.New("a successor of the index is being built already")
	}
	name := successorName(l.current.Load().name)
	path := filepath.Join(l.dir, name)
	if err := os.RemoveAll(path); err != nil { // one this process discarded and could not remove
		return nil, err
	}
	idx, err := create(path, l.versions)
	if err != nil {
		return nil, err
	}
	l.successor = &Successor{Index: idx, live: l, name: name}
	return l.successor, nil
}

// Flush returns once everything written to the successor so far is on disk.
func (s *Successor) Flush() error { return s.persist(closeWait) }

// Promote makes the successor the live index: index.live names it, then
// every call from now on goes to it. The caller makes sure no write is
// under way meanwhile (app: its sync gate), and has flushed the bulk of
// the successor first, so that what a crash leaves names a complete index.
// retire closes and removes the index replaced, once the calls that began
// on it have ended: call it after letting writes go on.
func (s *Successor) Promote() (retire func() error, err error) {
	l := s.live
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.successor != s || l.closed {
		return nil, errors.New("not the index's successor any more")
	}
	if err := setLiveName(l.dir, s.name); err != nil {
		return nil, fmt.Errorf("naming the new index live: %w", err)
	}
	old := l.current.Load()
	l.current.Store(&serving{idx: s.Index, version: l.versions.Mapping, name: s.name, epoch: old.epoch + 1})
	l.successor = nil
	return func() error {
		old.calls.Lock()
		old.gone = true
		old.calls.Unlock()
		// Its files are not needed any more: no wait for its persister.
		return errors.Join(old.idx.closeNow(), os.RemoveAll(filepath.Join(l.dir, old.name)))
	}, nil
}

// Discard closes and removes a successor that will not be promoted.
func (s *Successor) Discard() error {
	l := s.live
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.successor != s {
		return nil // promoted, or removed by Close
	}
	return s.discard()
}

func (s *Successor) discard() error {
	s.live.successor = nil
	return errors.Join(s.closeNow(), os.RemoveAll(filepath.Join(s.live.dir, s.name)))
}

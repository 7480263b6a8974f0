package app

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"calendar/app/calendar"
)

// Synonyms are groups of words a search treats alike, managed by
// administrators under {base}/vendor/admin/v1/synonyms and kept in the store
// (calendar.Synonym). They apply when a search runs, in every language and
// every order, so a change needs no reindex: a word of the search is also
// looked for as each of its synonyms (at most calendar.MaxSynonymsPerWord),
// as relevance looks for a word (itself, a prefix, one typo, its stems),
// every alternative read from the search's one budget of terms. The
// plugin's own search (fragments within words) is unchanged: the synonyms
// widen the relevance side of a search, which every order matches
// (index/tolerant.go). The table is read from the store once, then again
// after a change: a write here, or another replica's heard from the change
// feed (indexSync.hear, within CALENDAR_SYNC_INTERVAL).
type Synonyms struct {
	store calendar.Store
	now   func() time.Time

	mu    sync.Mutex
	table map[string][]string // a word -> the words a search for it also looks for; nil: to be read
}

func newSynonyms(store calendar.Store, now func() time.Time) *Synonyms {
	return &Synonyms{store: store, now: now}
}

// SynonymInput is a group's fields as sent (nil: not sent).
type SynonymInput struct {
	Root  *string
	Words *[]string
}

// SynonymView is a group as the API shows it.
type SynonymView struct {
	ID       int64    `json:"id"`
	Root     string   `json:"root,omitempty"`
	Words    []string `json:"words"`
	revision int64
}

// Revision is the group's revision (its ETag).
func (v *SynonymView) Revision() int64 { return v.revision }

// DeletedSynonym is the answer of a delete.
type DeletedSynonym struct {
	Deleted  bool        `json:"deleted"`
	Previous SynonymView `json:"previous"`
}

func synonymView(g *calendar.Synonym) SynonymView {
	return SynonymView{ID: g.ID, Root: g.Root, Words: slices.Clone(g.Words), revision: g.Seq}
}

func errCannotManageSynonyms(actor *calendar.User) *calendar.Error {
	return calendar.ForbiddenAs(actor, "rest_cannot_manage_synonyms", "Sorry, you are not allowed to manage synonyms.")
}

func errSynonymMissing() *calendar.Error {
	return calendar.NewError(calendar.KindNotFound, "rest_synonym_invalid_id", "Invalid synonym group ID.")
}

func (s *Synonyms) mayManage(caller Caller) error {
	if !caller.Can(calendar.CapManageOptions) {
		return errCannotManageSynonyms(caller.User)
	}
	return nil
}

// List answers every group, by ID.
func (s *Synonyms) List(ctx context.Context, caller Caller) ([]SynonymView, error) {
	if err := s.mayManage(caller); err != nil {
		return nil, err
	}
	groups, err := s.all(ctx)
	out := make([]SynonymView, len(groups))
	for k, g := range groups {
		out[k] = synonymView(g)
	}
	return out, err
}

// all reads every group (at most calendar.MaxSynonymGroups), by ID.
func (s *Synonyms) all(ctx context.Context) ([]*calendar.Synonym, error) {
	return s.store.Synonyms().Scan(ctx, 0, calendar.MaxSynonymGroups)
}

// Get answers one group.
func (s *Synonyms) Get(ctx context.Context, caller Caller, id int64) (*SynonymView, error) {
	g, err := s.load(ctx, caller, id)
	if err != nil {
		return nil, err
	}
	v := synonymView(g)
	return &v, nil
}

func (s *Synonyms) load(ctx context.Context, caller Caller, id int64) (*calendar.Synonym, error) {
	if err := s.mayManage(caller); err != nil {
		return nil, err
	}
	g, err := s.store.Synonyms().Get(ctx, id)
	if errors.Is(err, calendar.ErrNotFound) {
		return nil, errSynonymMissing()
	}
	return g, err
}

// Create adds a group: words that mean each other, or, with a root, the
// words a search for the root also finds.
func (s *Synonyms) Create(ctx context.Context, caller Caller, in SynonymInput) (*SynonymView, error) {
	if err := s.mayManage(caller); err != nil {
		return nil, err
	}
	if in.Words == nil {
		return nil, calendar.ErrMissingParams([]string{"words"})
	}
	g := &calendar.Synonym{}
	if err := applySynonym(g, in); err != nil {
		return nil, err
	}
	if n, err := s.store.Synonyms().Count(ctx); err != nil {
		return nil, err
	} else if n >= calendar.MaxSynonymGroups {
		return nil, calendar.ErrInvalidParam("words", fmt.Sprintf("A site keeps at most %d synonym groups.", calendar.MaxSynonymGroups))
	}
	if err := s.store.Synonyms().Insert(ctx, g); err != nil {
		return nil, err
	}
	s.forget()
	v := synonymView(g)
	return &v, nil
}

// Update changes the fields sent (a compare-and-swap on the group's
// revision, through the one loop of writes: editRecord).
func (s *Synonyms) Update(ctx context.Context, caller Caller, id int64, in SynonymInput) (*SynonymView, error) {
	g, err := s.load(ctx, caller, id)
	if err != nil {
		return nil, err
	}
	if err := applySynonym(&calendar.Synonym{Root: g.Root, Words: g.Words}, in); err != nil { // checked once, before the write
		return nil, err
	}
	err = editRecord(ctx, s.store.Synonyms(), g, caller.Expect, func(cur *calendar.Synonym) *calendar.Synonym {
		return &calendar.Synonym{ID: cur.ID, Seq: cur.Seq, Root: cur.Root, Words: slices.Clone(cur.Words)}
	}, func(next *calendar.Synonym) error { return applySynonym(next, in) })
	if errors.Is(err, calendar.ErrNotFound) {
		return nil, errSynonymMissing()
	}
	if err != nil {
		return nil, err
	}
	s.forget()
	v := synonymView(g)
	return &v, nil
}

// Delete removes a group for good.
func (s *Synonyms) Delete(ctx context.Context, caller Caller, id int64) (*DeletedSynonym, error) {
	g, err := s.load(ctx, caller, id)
	if err != nil {
		return nil, err
	}
	out, err := discardRecord(ctx, s.store.Synonyms(), g, caller.Expect)
	if errors.Is(err, calendar.ErrNotFound) {
		return nil, errSynonymMissing()
	}
	if err != nil {
		return nil, err
	}
	s.forget()
	return &DeletedSynonym{Deleted: true, Previous: synonymView(out)}, nil
}

// applySynonym sets the fields sent on g, folded as a search folds them,
// and checks the group: each a single word, distinct, a root apart from its
// words, two words at least without a root, at most
// calendar.MaxSynonymWords.
func applySynonym(g *calendar.Synonym, in SynonymInput) error {
	var bad calendar.InvalidParams
	if in.Root != nil {
		g.Root = ""
		if strings.TrimSpace(*in.Root) != "" {
			root, ok := synonymWord(*in.Root)
			if !ok {
				bad.Add("root", "root must be one word.", nil)
			}
			g.Root = root
		}
	}
	if in.Words != nil {
		g.Words = nil
		for _, w := range *in.Words {
			word, ok := synonymWord(w)
			if !ok {
				bad.Add("words", fmt.Sprintf("every item must be one word (%q is not).", w), nil)
				continue
			}
			if !slices.Contains(g.Words, word) {
				g.Words = append(g.Words, word)
			}
		}
	}
	switch {
	case len(g.Words) > calendar.MaxSynonymWords:
		bad.Add("words", fmt.Sprintf("a group holds at most %d words.", calendar.MaxSynonymWords), nil)
	case g.Root == "" && len(g.Words) < 2:
		bad.Add("words", "a group without a root holds two words at least.", nil)
	case g.Root != "" && (len(g.Words) < 1 || slices.Contains(g.Words, g.Root)):
		bad.Add("words", "a root's group holds one word at least, other than the root.", nil)
	}
	return bad.Err()
}

// synonymWord is w folded as a search folds it, when it is one word the
// search splits no further, within the indexed word length.
func synonymWord(w string) (string, bool) {
	folded := foldSearch(strings.TrimSpace(w))
	words := SearchFragments(folded)
	return folded, len(words) == 1 && words[0] == folded && len(folded) <= calendar.MaxWordBytes
}

// forget makes the next search read the table again.
func (s *Synonyms) forget() {
	s.mu.Lock()
	s.table = nil
	s.mu.Unlock()
}

// forSearch are the synonyms of the words of a search: each word of it
// that has some, with at most calendar.MaxSynonymsPerWord of them.
func (s *Synonyms) forSearch(ctx context.Context, search string) (map[string][]string, error) {
	table, err := s.current(ctx)
	if err != nil || len(table) == 0 {
		return nil, err
	}
	var out map[string][]string
	for _, w := range SearchFragments(foldSearch(search)) {
		if alts := table[w]; len(alts) > 0 {
			if out == nil {
				out = map[string][]string{}
			}
			out[w] = alts
		}
	}
	return out, nil
}

// current is the table, read again after a change (forget); the store is
// read under mu, so a forget waits for a read under way.
func (s *Synonyms) current(ctx context.Context) (map[string][]string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.table != nil {
		return s.table, nil
	}
	groups, err := s.all(ctx)
	if err != nil {
		return nil, err
	}
	s.table = synonymTable(groups)
	return s.table, nil
}

// synonymTable lists, for each word, the words a search for it also looks
// for: the others of its groups without a root, a root's words; the first
// calendar.MaxSynonymsPerWord, by group.
func synonymTable(groups []*calendar.Synonym) map[string][]string {
	table := map[string][]string{}
	add := func(word, alt string) {
		if alt != word && !slices.Contains(table[word], alt) && len(table[word]) < calendar.MaxSynonymsPerWord {
			table[word] = append(table[word], alt)
		}
	}
	for _, g := range groups {
		if g.Root != "" {
			for _, w := range g.Words {
				add(g.Root, w)
			}
			continue
		}
		for _, w := range g.Words {
			for _, alt := range g.Words {
				add(w, alt)
			}
		}
	}
	return table
}

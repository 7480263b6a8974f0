package calendar

// Synonym is one group of words that a search treats alike, applied when a
// search runs (no reindex): with no Root, each of Words finds what the
// others find; with a Root, a search for the Root also finds Words, and a
// search for one of them finds no more than itself ("gig" for "concert",
// "jazz" under "music" one way). Words are single words, folded as a
// search folds them.
type Synonym struct {
	ID    int64    `bson:"_id"`
	Seq   int64    `bson:"seq"`
	Root  string   `bson:"root,omitempty"`
	Words []string `bson:"words"`
}

func (s *Synonym) DocID() int64      { return s.ID }
func (s *Synonym) SetDocID(id int64) { s.ID = id }
func (s *Synonym) SetSeq(seq int64)  { s.Seq = seq }
func (s *Synonym) DocSeq() int64     { return s.Seq }

// UniqueKeys: none (two groups may share a word: their synonyms add up).
func (s *Synonym) UniqueKeys() map[string][]string { return nil }

// Bounds of the synonyms: how many groups a site keeps, the words of one
// group, and the alternatives one word of a search is looked for by (each
// read from the search's budget of terms, MaxSearchTerms, as its own
// words are).
const (
	MaxSynonymGroups   = 1000
	MaxSynonymWords    = 20
	MaxSynonymsPerWord = 10
)

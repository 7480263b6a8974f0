package calendar

import (
	"maps"
	"reflect"
	"slices"
	"sort"
	"sync"
)

// What a write changed, kept with the record: per field, the sequence of
// the last write that changed it (Post.Changed, Term.Changed). A reader of
// the change feed that last saw the record at a sequence knows which fields
// changed since, however many writes the feed folded into its one entry
// (ChangedSince): a webhook's "changed". Fields are named as the API names
// them (description, start_date, venue, organizer, a venue's city...);
// bookkeeping (the revision, the modification time, a lease, how far a
// series' occurrences are made) is not a change.

// NoteChanges records, on next (the record about to be written over prev),
// the fields it changes; the store's write stamps them with its sequence.
func (p *Post) NoteChanges(prev *Post) {
	p.changing = diffFields(reflect.ValueOf(prev).Elem(), reflect.ValueOf(p).Elem(), postNames)
	p.changing = append(p.changing, changedMeta(prev.Meta, p.Meta)...)
	p.standing = 0
	if prev.Status != p.Status || prev.Author != p.Author {
		p.Standings = append(slices.Clone(prev.Standings), Standing{Status: prev.Status, Author: prev.Author})
		if len(p.Standings) > MaxStandings {
			p.Standings = p.Standings[len(p.Standings)-MaxStandings:]
		}
		p.standing = len(p.Standings)
	}
}

// Standing is a post's status and author until a write (its sequence)
// changed them.
type Standing struct {
	Until  int64  `bson:"until"`
	Status string `bson:"status"`
	Author int64  `bson:"author"`
}

// Standings are a post's status and author, and their values before its
// latest changes of them (Post.Standings): who could read it, now and
// earlier. Status "" is not known (Change.Standing of an old tombstone).
type Standings struct {
	Status string     `bson:"status"`
	Author int64      `bson:"author"`
	Before []Standing `bson:"before,omitempty"`
}

// DocStanding is what the post's tombstone keeps of who could read it.
func (p *Post) DocStanding() Standings {
	return Standings{Status: p.Status, Author: p.Author, Before: slices.Clone(p.Standings)}
}

// MaxStandings is how many of its changes of status and author a post keeps.
const MaxStandings = 8

// StandingAt is the post's status and author just after the change feed's
// sequence seq: existed is false when it was made after seq; known is false
// when it changed them more often since than it keeps.
func (p *Post) StandingAt(seq int64) (status string, author int64, existed, known bool) {
	if p.CreatedSeq > seq {
		return "", 0, false, true
	}
	for i, s := range p.Standings {
		if s.Until > seq {
			return s.Status, s.Author, true, i > 0 || len(p.Standings) < MaxStandings
		}
	}
	return p.Status, p.Author, true, true
}

// NoteChanges is Post.NoteChanges for a term.
func (t *Term) NoteChanges(prev *Term) {
	t.changing = diffFields(reflect.ValueOf(prev).Elem(), reflect.ValueOf(t).Elem(), termNames)
}

// ChangedSince lists, in order, the fields a write after seq changed.
func (p *Post) ChangedSince(seq int64) []string { return changedSince(p.Changed, seq) }

// ChangedSince lists, in order, the fields a write after seq changed.
func (t *Term) ChangedSince(seq int64) []string { return changedSince(t.Changed, seq) }

func changedSince(changed map[string]int64, seq int64) []string {
	out := []string{}
	for f, at := range changed {
		if at > seq {
			out = append(out, f)
		}
	}
	sort.Strings(out)
	return out
}

// stamp gives the fields a write changes its sequence, in a map of the
// record's own: records made as copies of another (a series' occurrences,
// written at once) share its map, which no write may change under them.
func stamp(changed *map[string]int64, changing []string, seq int64) {
	if len(changing) == 0 {
		return
	}
	own := make(map[string]int64, len(*changed)+len(changing))
	maps.Copy(own, *changed)
	for _, f := range changing {
		own[f] = seq
	}
	*changed = own
}

// The API's names of the stored fields ("": not a change a client sees);
// a field not listed keeps its stored name.
var (
	postNames = map[string]string{"_id": "", "seq": "", "modified": "", "revisions": "", "lease": "", "materialized_until": "",
		"created_seq": "", "changed": "", "standings": "", "meta": "", "image_file": "", "occurrence": "", "detached": "",
		"content": "description", "start": "start_date", "end": "end_date", "date_utc": "date", "image_id": "image",
		"cost_symbol": "cost", "cost_position": "cost", "organizers": "organizer", "parent": "post_parent",
		"excluded": "recurrence", "media": "media_details", "previous_start": "previous_start_date", "custom": "custom_fields"}
	termNames = map[string]string{"_id": "", "seq": "", "created_seq": "", "changed": "", "from_event": "", "from_routes": ""}
)

// storedFields are a record type's fields by their bson names, found once.
var storedFields sync.Map // reflect.Type -> []storedField

type storedField struct {
	index int
	name  string
}

func fieldsOf(t reflect.Type) []storedField {
	if f, ok := storedFields.Load(t); ok {
		return f.([]storedField)
	}
	var out []storedField
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("bson")
		if !f.IsExported() || tag == "" || tag == "-" {
			continue
		}
		name := tag
		if comma := indexByte(tag, ','); comma >= 0 {
			name = tag[:comma]
		}
		out = append(out, storedField{i, name})
	}
	storedFields.Store(t, out)
	return out
}

func indexByte(s string, c byte) int {
	for i := range len(s) {
		if s[i] == c {
			return i
		}
	}
	return -1
}

// diffFields names the fields whose values differ, each once.
func diffFields(prev, next reflect.Value, names map[string]string) []string {
	var out []string
	for _, f := range fieldsOf(next.Type()) {
		name, listed := names[f.name]
		if !listed {
			name = f.name
		}
		if name == "" || slices.Contains(out, name) {
			continue
		}
		if !reflect.DeepEqual(prev.Field(f.index).Interface(), next.Field(f.index).Interface()) {
			out = append(out, name)
		}
	}
	return out
}

// changedMeta names the text fields (a venue's city...) whose values differ.
func changedMeta(prev, next map[string]string) []string {
	var out []string
	for k, v := range next {
		if prev[k] != v {
			out = append(out, k)
		}
	}
	for k := range prev {
		if _, kept := next[k]; !kept {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

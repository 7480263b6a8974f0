package calendar

import (
	"fmt"
	"regexp"
	"time"
)

// FieldSet is the one record of the custom fields administrators declare
// for events, venues and organizers (app/fields.go): every declaration in
// one document, so a change of one is a compare-and-swap of the set, and a
// post's values (Post.Custom) are read against the set as it is.
type FieldSet struct {
	ID       int64              `bson:"_id"`
	Seq      int64              `bson:"seq"`
	Name     string             `bson:"name"`
	Fields   []FieldDeclaration `bson:"fields"`
	Modified time.Time          `bson:"modified"`
}

// FieldSetName names the one field set (its unique key).
const FieldSetName = "fields"

func (f *FieldSet) DocID() int64      { return f.ID }
func (f *FieldSet) SetDocID(id int64) { f.ID = id }
func (f *FieldSet) SetSeq(seq int64)  { f.Seq = seq }
func (f *FieldSet) DocSeq() int64     { return f.Seq }

// UniqueKeys: one set, found by its name.
func (f *FieldSet) UniqueKeys() map[string][]string { return map[string][]string{"name": {f.Name}} }

// Field returns the declaration of key, nil when none.
func (f *FieldSet) Field(key string) *FieldDeclaration {
	if f == nil {
		return nil
	}
	for i := range f.Fields {
		if f.Fields[i].Key == key {
			return &f.Fields[i]
		}
	}
	return nil
}

// FieldDeclaration is one custom field: what its values are, who sees
// them, whether lists filter, count and order by them, and which post
// types carry it.
type FieldDeclaration struct {
	Key   string `bson:"key"`
	Label string `bson:"label"`
	Type  string `bson:"type"`
	// Options are the values a select or a multiselect takes.
	Options  []string `bson:"options,omitempty"`
	Required bool     `bson:"required,omitempty"`
	// Public fields are seen by every reader of the post; the others only
	// by those who may edit it (and filtered, counted and ordered by only
	// by those who may edit every post).
	Public     bool `bson:"public,omitempty"`
	Filterable bool `bson:"filterable,omitempty"`
	// PostTypes are the post types that carry the field (events, venues,
	// organizers).
	PostTypes []string `bson:"post_types"`
	// SchemaOrg is the schema.org property of an event's JSON-LD the value
	// is written as ("" none).
	SchemaOrg string    `bson:"schema_org,omitempty"`
	Created   time.Time `bson:"created"`
	Modified  time.Time `bson:"modified"`
}

// AppliesTo reports whether posts of postType carry the field.
func (d *FieldDeclaration) AppliesTo(postType string) bool {
	for _, t := range d.PostTypes {
		if t == postType {
			return true
		}
	}
	return false
}

// The types of a custom field.
const (
	FieldText        = "text"
	FieldTextarea    = "textarea"
	FieldURL         = "url"
	FieldNumber      = "number"
	FieldDate        = "date"
	FieldBoolean     = "boolean"
	FieldSelect      = "select"
	FieldMultiselect = "multiselect"
)

// FieldTypes are the types a declaration may have.
var FieldTypes = []string{FieldText, FieldTextarea, FieldURL, FieldNumber, FieldDate, FieldBoolean, FieldSelect, FieldMultiselect}

// FieldPostTypes are the post types that may carry custom fields.
var FieldPostTypes = []string{PostTypeEvent, PostTypeVenue, PostTypeOrganizer}

// FieldKeyPattern is what a field's key is: a lower-case letter, then
// lower-case letters, digits and underscores.
var FieldKeyPattern = regexp.MustCompile(`^[a-z][a-z0-9_]*$`)

// FieldSchemaOrgProperties are the properties of a schema.org Event a
// declaration may name: those whose value is a text, a number, a date, a
// URL or a boolean as the field holds it.
var FieldSchemaOrgProperties = []string{"typicalAgeRange", "inLanguage", "isAccessibleForFree", "maximumAttendeeCapacity",
	"audience", "keywords", "doorTime", "sameAs", "alternateName", "accessibilitySummary"}

// IndexedField is what the index keeps of one custom field of a post: its
// values as terms (filters and facets) and one key that orders it. The app
// sets them from the declarations before a post is indexed (filterable
// fields only); never stored.
type IndexedField struct {
	Key   string
	Terms []string
	Sort  string
}

// CustomFilter keeps the posts whose field Key holds one of Terms, or a
// sort key within [Min, Max] (numbers and dates, encoded as the index
// orders them; nil: no bound on that side).
type CustomFilter struct {
	Key      string
	Terms    []string
	Min, Max *string
}

// FacetCustomPrefix begins the facet of a custom field: "cf.<key>".
const FacetCustomPrefix = "cf."

// FieldsIndexed is what an index records of the declarations its posts are
// indexed under, so that a change of them is brought to the index once,
// across restarts (app/fields_upkeep.go).
type FieldsIndexed struct {
	// Revision is the field set's revision (its Seq) the index holds.
	Revision int64 `json:"revision"`
	// Shapes are, per key, what of that revision's declaration the index
	// and the posts' values depend on (FieldShape); nil: nothing recorded
	// (an index made before these were kept).
	Shapes map[string]string `json:"shapes"`
	// Job is the bringing in line under way, nil when none.
	Job *FieldsJob `json:"job,omitempty"`
}

// FieldsJob is a bringing of the posts holding some fields in line with a
// revision of the declarations: their values the declarations no longer
// accept removed, then indexed again, in the order of their IDs.
type FieldsJob struct {
	Revision int64    `json:"revision"`
	Keys     []string `json:"keys"`
	// After is the highest post ID done.
	After int64 `json:"after"`
}

// FieldShape is what of a declaration the index and the posts' values
// depend on: its type, whether lists filter by it, the post types that
// carry it and its options ("" when the field is not declared).
func FieldShape(d *FieldDeclaration) string {
	if d == nil {
		return ""
	}
	return fmt.Sprint(d.Type, "|", d.Filterable, "|", d.PostTypes, "|", d.Options)
}

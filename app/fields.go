package app

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"calendar/app/calendar"
)

// Custom fields: administrators declare fields of their own for events,
// venues and organizers (an age limit, a language, a ticket URL); writes
// check the values sent against the declarations (field_values.go), answers
// carry them in custom_fields (public ones to every reader, the others to
// those who may edit the post), and lists filter, count and order by the
// filterable ones. The declarations are one record (calendar.FieldSet),
// written by compare-and-swap (editFieldSet in writes.go).
//
// Every replica keeps the set it read until it hears of a change: its own
// write, or another replica's from the store's change feed (indexSync.follow,
// within CALENDAR_SYNC_INTERVAL). A change the index or the posts' values
// depend on (a field made filterable or not, its post types or options,
// a field deleted) is brought to the index in the background, resumably:
// fields_upkeep.go. A declaration is never changed or deleted in a way
// that would drop a stored value silently: that needs force=true, and then
// the values no longer valid are removed from their posts by that same
// job, through the posts' own write loop.

// Fields is the service of the declarations.
type Fields struct {
	store calendar.Store
	sync  *indexSync
	// posts edits the posts whose values a forced change removes.
	posts *postService
	now   func() time.Time
	// batch is how many posts the upkeep brings in line at a time.
	batch int

	mu    sync.Mutex
	known *calendar.FieldSet // as last read; nil before the first read
	// kicks tells Run that the declarations changed.
	kicks chan struct{}
	// upkeep is held by the one job bringing the index in line.
	upkeep sync.Mutex
}

// FieldInput is a declaration's create or change: nil was not sent.
type FieldInput struct {
	Key, Label, Type, SchemaOrg  *string
	Options, PostTypes           *[]string
	Required, Public, Filterable *bool
}

// FieldView is a declaration as its routes answer it.
type FieldView struct {
	Key        string   `json:"key"`
	Label      string   `json:"label"`
	Type       string   `json:"type"`
	Options    []string `json:"options"`
	Required   bool     `json:"required"`
	Public     bool     `json:"public"`
	Filterable bool     `json:"filterable"`
	PostTypes  []string `json:"post_types"`
	SchemaOrg  string   `json:"schema_org"`
	Created    string   `json:"created"`
	Modified   string   `json:"modified"`
	revision   int64
}

// Revision is the set's revision when the view was made: its ETag, and
// what If-Match names.
func (v *FieldView) Revision() int64 { return v.revision }

// DeletedField is the answer to a delete.
type DeletedField struct {
	Deleted  bool      `json:"deleted"`
	Previous FieldView `json:"previous"`
	// Removing counts the posts whose values a forced delete removes in
	// the background.
	Removing int `json:"removing"`
}

func fieldView(d *calendar.FieldDeclaration, revision int64) FieldView {
	return FieldView{Key: d.Key, Label: d.Label, Type: d.Type, Options: append([]string{}, d.Options...), Required: d.Required,
		Public: d.Public, Filterable: d.Filterable, PostTypes: append([]string{}, d.PostTypes...), SchemaOrg: d.SchemaOrg,
		Created: rfc3339(d.Created), Modified: rfc3339(d.Modified), revision: revision}
}

// mayDeclare: administrators declare fields.
func mayDeclare(caller Caller) error {
	if !caller.Can(calendar.CapManageOptions) {
		return calendar.ErrForbidden(caller.User)
	}
	return nil
}

// seesHiddenFields: those who may edit others' posts see every declaration,
// and filter, count and order by fields that are not public.
func seesHiddenFields(caller Caller) bool { return caller.Can(calendar.CapEditOthersPosts) }

// current is the set of declarations as this replica knows it: read from
// the store the first time, then again when a change is heard of (refresh).
func (s *Fields) current(ctx context.Context) (*calendar.FieldSet, error) {
	s.mu.Lock()
	known := s.known
	s.mu.Unlock()
	if known != nil {
		return known, nil
	}
	return s.refresh(ctx)
}

// refresh reads the set from the store and keeps it (the store read under
// mu, so no older read is kept after a newer one).
func (s *Fields) refresh(ctx context.Context) (*calendar.FieldSet, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	set, err := s.store.Fields().FindByKey(ctx, "name", calendar.FieldSetName)
	switch {
	case errors.Is(err, calendar.ErrNotFound):
		set = &calendar.FieldSet{Name: calendar.FieldSetName}
	case err != nil:
		return nil, err
	}
	s.learn(set)
	return set, nil
}

// learn keeps set as the current one (the caller holds mu) and, when it is
// another revision than the one known, tells the upkeep (Run).
func (s *Fields) learn(set *calendar.FieldSet) {
	if s.known != nil && s.known.Seq >= set.Seq {
		return
	}
	s.known = set
	s.kick()
}

// kick tells Run to bring the index in line again.
func (s *Fields) kick() {
	select {
	case s.kicks <- struct{}{}:
	default: // one is pending already
	}
}

// holding answers the posts that hold a value of key, as the index has them.
func (s *Fields) holding(ctx context.Context, key string) ([]int64, error) {
	q := calendar.PostQuery{Statuses: calendar.PostStatuses, Reader: calendar.ReadEverything, HasCustom: key, Order: calendar.OrderPublished,
		Limit: calendar.MaxFieldReindexBatch}
	var ids []int64
	for {
		page, err := s.sync.index.SearchPosts(ctx, q)
		if err != nil {
			return nil, err
		}
		ids = append(ids, page.IDs...)
		if len(page.IDs) < q.Limit {
			return ids, nil
		}
		q.Offset += q.Limit
	}
}

// List answers the declarations the caller may see: the public ones to
// everyone, every one to those who may edit others' posts.
func (s *Fields) List(ctx context.Context, caller Caller) ([]FieldView, error) {
	set, err := s.current(ctx)
	if err != nil {
		return nil, err
	}
	out := []FieldView{}
	for i := range set.Fields {
		if d := &set.Fields[i]; d.Public || seesHiddenFields(caller) {
			out = append(out, fieldView(d, set.Seq))
		}
	}
	return out, nil
}

// Get answers one declaration; a hidden one is missing to those who may
// not see it.
func (s *Fields) Get(ctx context.Context, caller Caller, key string) (*FieldView, error) {
	set, err := s.current(ctx)
	if err != nil {
		return nil, err
	}
	d := set.Field(key)
	if d == nil || (!d.Public && !seesHiddenFields(caller)) {
		return nil, errFieldMissing(key)
	}
	v := fieldView(d, set.Seq)
	return &v, nil
}

func errFieldMissing(key string) *calendar.Error {
	return calendar.NewError(calendar.KindNotFound, "rest_field_invalid_key", fmt.Sprintf("No custom field has the key %q.", key))
}

// Create declares a field.
func (s *Fields) Create(ctx context.Context, caller Caller, in FieldInput) (*FieldView, error) {
	if err := mayDeclare(caller); err != nil {
		return nil, err
	}
	var missing []string
	for name, v := range map[string]*string{"key": in.Key, "label": in.Label, "type": in.Type} {
		if v == nil {
			missing = append(missing, name)
		}
	}
	if len(missing) > 0 {
		slices.Sort(missing)
		return nil, calendar.ErrMissingParams(missing)
	}
	now := s.now().UTC().Truncate(time.Second)
	d := calendar.FieldDeclaration{Key: *in.Key, PostTypes: []string{calendar.PostTypeEvent}, Created: now, Modified: now}
	if err := checkDeclaration(&d, in); err != nil {
		return nil, err
	}
	set, err := s.editFieldSet(ctx, caller.Expect, func(set *calendar.FieldSet) error {
		if set.Field(d.Key) != nil {
			return calendar.NewError(calendar.KindConflict, "rest_field_exists", fmt.Sprintf("A custom field has the key %q already.", d.Key))
		}
		if len(set.Fields) >= calendar.MaxFields {
			return calendar.NewError(calendar.KindForbidden, "rest_fields_limit",
				fmt.Sprintf("The site declares %d custom fields, as many as it takes; delete one first.", calendar.MaxFields))
		}
		set.Fields = append(set.Fields, d)
		return nil
	})
	if err != nil {
		return nil, err
	}
	v := fieldView(set.Field(d.Key), set.Seq)
	return &v, nil
}

// Update changes a declaration: the fields sent (replace: a PUT, every
// field not sent back to its default). A change that would leave stored
// values invalid (options or post types taken away from a field that holds
// values) needs force, and then removes those values in the background.
// A field's type is what its stored values are: it does not change.
func (s *Fields) Update(ctx context.Context, caller Caller, key string, in FieldInput, replace, force bool) (*FieldView, error) {
	if err := mayDeclare(caller); err != nil {
		return nil, err
	}
	if in.Key != nil && *in.Key != key {
		return nil, calendar.ErrInvalidParam("key", "A custom field's key does not change; declare another field.")
	}
	set, err := s.current(ctx)
	if err != nil {
		return nil, err
	}
	old := set.Field(key)
	if old == nil {
		return nil, errFieldMissing(key)
	}
	next := *old
	if replace {
		next = calendar.FieldDeclaration{Key: key, Type: old.Type, PostTypes: []string{calendar.PostTypeEvent}, Created: old.Created}
	}
	if in.Type != nil && *in.Type != old.Type {
		return nil, calendar.ErrInvalidParam("type", "A custom field's type does not change (its stored values are of it): delete the field (force=true) and declare it again.")
	}
	if err := checkDeclaration(&next, in); err != nil {
		return nil, err
	}
	next.Modified = s.now().UTC().Truncate(time.Second)
	narrower := narrows(old, &next)
	var holders []int64
	if narrower {
		if holders, err = s.holding(ctx, key); err != nil {
			return nil, err
		}
		if len(holders) > 0 && !force {
			return nil, errFieldInUse(key, len(holders), "taking options or post types away from it")
		}
	}
	set, err = s.editFieldSet(ctx, caller.Expect, func(set *calendar.FieldSet) error {
		d := set.Field(key)
		if d == nil {
			return errFieldMissing(key)
		}
		*d = next
		return nil
	})
	if err != nil {
		return nil, err
	}
	v := fieldView(set.Field(key), set.Seq)
	return &v, nil
}

// narrows reports whether next takes away values old accepts.
func narrows(old, next *calendar.FieldDeclaration) bool {
	for _, t := range old.PostTypes {
		if !next.AppliesTo(t) {
			return true
		}
	}
	for _, o := range old.Options {
		if !slices.Contains(next.Options, o) {
			return true
		}
	}
	return false
}

func errFieldInUse(key string, posts int, doing string) *calendar.Error {
	return calendar.NewError(calendar.KindConflict, "rest_field_in_use",
		fmt.Sprintf("%d posts hold values of the custom field %q, which %s would remove; send force=true to remove them.", posts, key, doing)).
		With("posts", posts)
}

// Delete removes a declaration. A field that holds values needs force,
// and then its values are removed from their posts in the background.
func (s *Fields) Delete(ctx context.Context, caller Caller, key string, force bool) (*DeletedField, error) {
	if err := mayDeclare(caller); err != nil {
		return nil, err
	}
	holders, err := s.holding(ctx, key)
	if err != nil {
		return nil, err
	}
	if len(holders) > 0 && !force {
		return nil, errFieldInUse(key, len(holders), "deleting it")
	}
	var gone calendar.FieldDeclaration
	set, err := s.editFieldSet(ctx, caller.Expect, func(set *calendar.FieldSet) error {
		i := slices.IndexFunc(set.Fields, func(d calendar.FieldDeclaration) bool { return d.Key == key })
		if i < 0 {
			return errFieldMissing(key)
		}
		gone = set.Fields[i]
		set.Fields = slices.Delete(set.Fields, i, i+1)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &DeletedField{Deleted: true, Previous: fieldView(&gone, set.Seq), Removing: len(holders)}, nil
}

// checkDeclaration checks the fields sent and sets them on d.
func checkDeclaration(d *calendar.FieldDeclaration, in FieldInput) error {
	var bad calendar.InvalidParams
	if !calendar.FieldKeyPattern.MatchString(d.Key) || len(d.Key) > calendar.MaxFieldKeyBytes {
		bad.Add("key", fmt.Sprintf("key must be a lower-case letter followed by lower-case letters, digits and underscores, at most %d bytes.", calendar.MaxFieldKeyBytes), nil)
	}
	if in.Label != nil {
		label := strings.TrimSpace(*in.Label)
		switch {
		case label == "":
			bad.Add("label", "label must not be empty.", nil)
		case len(label) > calendar.MaxFieldLabelBytes:
			bad.AddTooLong("label", calendar.MaxFieldLabelBytes)
		}
		d.Label = label
	}
	if in.Type != nil {
		d.Type = *in.Type
	}
	if !slices.Contains(calendar.FieldTypes, d.Type) {
		bad.Add("type", "type must be one of "+strings.Join(calendar.FieldTypes, ", ")+".", nil)
	}
	if in.Options != nil {
		d.Options = nil
		for _, o := range *in.Options {
			o = strings.TrimSpace(o)
			switch {
			case o == "" || !utf8.ValidString(o) || strings.Contains(o, ","):
				bad.Add("options", "each option must be a text without commas (a filter separates values with them).", nil)
			case len(o) > calendar.MaxFieldOptionBytes:
				bad.AddTooLong("options", calendar.MaxFieldOptionBytes)
			case !slices.Contains(d.Options, o):
				d.Options = append(d.Options, o)
			}
		}
		if len(d.Options) > calendar.MaxFieldOptions {
			bad.AddTooManyItems("options", calendar.MaxFieldOptions)
		}
	}
	choice := d.Type == calendar.FieldSelect || d.Type == calendar.FieldMultiselect
	switch {
	case choice && len(d.Options) == 0:
		bad.Add("options", "a "+d.Type+" field needs its options.", nil)
	case !choice && len(d.Options) > 0:
		bad.Add("options", "only select and multiselect fields have options.", nil)
	}
	for dst, src := range map[*bool]*bool{&d.Required: in.Required, &d.Public: in.Public, &d.Filterable: in.Filterable} {
		if src != nil {
			*dst = *src
		}
	}
	if d.Filterable && d.Type == calendar.FieldTextarea {
		bad.Add("filterable", "a textarea field is not filterable; declare a text or select field to filter by.", nil)
	}
	if in.PostTypes != nil {
		d.PostTypes = nil
		for _, t := range *in.PostTypes {
			if !slices.Contains(calendar.FieldPostTypes, t) {
				bad.Add("post_types", "post_types must be some of "+strings.Join(calendar.FieldPostTypes, ", ")+".", nil)
			} else if !slices.Contains(d.PostTypes, t) {
				d.PostTypes = append(d.PostTypes, t)
			}
		}
		if len(d.PostTypes) == 0 {
			bad.Add("post_types", "post_types must name at least one of "+strings.Join(calendar.FieldPostTypes, ", ")+".", nil)
		}
	}
	if in.SchemaOrg != nil {
		d.SchemaOrg = *in.SchemaOrg
	}
	if d.SchemaOrg != "" && !slices.Contains(calendar.FieldSchemaOrgProperties, d.SchemaOrg) {
		bad.Add("schema_org", "schema_org must be one of "+strings.Join(calendar.FieldSchemaOrgProperties, ", ")+".", nil)
	}
	return bad.Err()
}

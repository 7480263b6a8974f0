package app

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"calendar/app/calendar"
	"calendar/app/wordpress"
)

// The values of custom fields: checked against the declarations when a post
// is written, rendered in custom_fields, kept in the index (filterable
// fields), read from a list's cf[...] filters.

// checkCustomValues checks the custom_fields a write of a post of postType
// sent (nil: none sent) and answers them in their canonical form, a nil
// value for a field cleared. A field sent that the post type does not have,
// a value of the wrong kind and a required field left empty on a create (or
// cleared) are failures named custom_fields[<key>].
func checkCustomValues(set *calendar.FieldSet, postType string, sent map[string]any, creating bool, bad *calendar.InvalidParams) map[string][]string {
	if sent == nil && !creating {
		return nil
	}
	out := map[string][]string{}
	for key, raw := range sent {
		name := "custom_fields[" + key + "]"
		d := set.Field(key)
		if d == nil || !d.AppliesTo(postType) {
			bad.Add(name, fmt.Sprintf("%s has no custom field %q.", postType, key), nil)
			continue
		}
		values, reason := canonicalValues(d, raw)
		if reason != "" {
			bad.Add(name, fmt.Sprintf("%s (%s): %s", key, d.Label, reason), nil)
			continue
		}
		out[key] = values
	}
	for _, d := range set.Fields {
		if !d.Required || !d.AppliesTo(postType) {
			continue
		}
		values, sentIt := out[d.Key]
		if (sentIt && len(values) == 0) || (creating && !sentIt) {
			bad.Add("custom_fields["+d.Key+"]", fmt.Sprintf("%s (%s) is required.", d.Key, d.Label), nil)
		}
	}
	return out
}

// canonicalValues reads one sent value as the field's type takes it; nil
// or "" clears the field. The reason says what is wrong, "" when nothing.
func canonicalValues(d *calendar.FieldDeclaration, raw any) ([]string, string) {
	if raw == nil {
		return nil, ""
	}
	if s, ok := raw.(string); ok && strings.TrimSpace(s) == "" {
		return nil, ""
	}
	if d.Type == calendar.FieldMultiselect {
		var items []string
		switch x := raw.(type) {
		case string:
			items = strings.Split(x, ",")
		case []any:
			for _, item := range x {
				s, ok := item.(string)
				if !ok {
					return nil, "a multiselect takes a list of its options."
				}
				items = append(items, s)
			}
		case []string:
			items = x
		default:
			return nil, "a multiselect takes a list of its options."
		}
		if len(items) > calendar.MaxFieldOptions {
			return nil, fmt.Sprintf("at most %d values.", calendar.MaxFieldOptions)
		}
		var out []string
		for _, item := range items {
			item = strings.TrimSpace(item)
			if !slices.Contains(d.Options, item) {
				return nil, "each value must be one of " + strings.Join(d.Options, ", ") + "."
			}
			if !slices.Contains(out, item) {
				out = append(out, item)
			}
		}
		return out, ""
	}
	v, reason := canonicalValue(d, raw)
	if reason != "" {
		return nil, reason
	}
	return []string{v}, ""
}

// canonicalValue reads one value of a field of one value.
func canonicalValue(d *calendar.FieldDeclaration, raw any) (string, string) {
	text, isText := raw.(string)
	switch d.Type {
	case calendar.FieldNumber:
		var f float64
		var err error
		switch x := raw.(type) {
		case float64:
			f = x
		case int64:
			f = float64(x)
		case string:
			f, err = strconv.ParseFloat(strings.TrimSpace(x), 64)
		default:
			err = strconv.ErrSyntax
		}
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
			return "", "a number is expected."
		}
		return strconv.FormatFloat(f, 'f', -1, 64), ""
	case calendar.FieldBoolean:
		switch x := raw.(type) {
		case bool:
			return strconv.FormatBool(x), ""
		case string:
			switch strings.ToLower(strings.TrimSpace(x)) {
			case "true", "1":
				return "true", ""
			case "false", "0":
				return "false", ""
			}
		}
		return "", "true or false is expected."
	}
	if !isText {
		return "", "a text is expected."
	}
	text = strings.TrimSpace(text)
	switch d.Type {
	case calendar.FieldDate:
		t, err := time.Parse(time.DateOnly, text)
		if err != nil {
			return "", "a date as YYYY-MM-DD is expected."
		}
		return t.Format(time.DateOnly), ""
	case calendar.FieldSelect:
		if !slices.Contains(d.Options, text) {
			return "", "the value must be one of " + strings.Join(d.Options, ", ") + "."
		}
		return text, ""
	case calendar.FieldURL:
		if len(text) > calendar.MaxFieldValueBytes {
			return "", fmt.Sprintf("at most %d bytes.", calendar.MaxFieldValueBytes)
		}
		if !isHTTPURL(text) {
			return "", "an http(s) URL is expected."
		}
		return text, ""
	case calendar.FieldTextarea:
		if len(text) > calendar.MaxFieldTextareaBytes {
			return "", fmt.Sprintf("at most %d bytes.", calendar.MaxFieldTextareaBytes)
		}
		return strings.TrimSpace(wordpress.StripTags(text)), ""
	}
	if len(text) > calendar.MaxFieldValueBytes {
		return "", fmt.Sprintf("at most %d bytes.", calendar.MaxFieldValueBytes)
	}
	return sanitizeText(text), ""
}

// validValues are the stored values d still accepts on a post of
// postType (none when d is gone or does not apply).
func validValues(d *calendar.FieldDeclaration, postType string, values []string) []string {
	if d == nil || !d.AppliesTo(postType) {
		return nil
	}
	var kept []string
	for _, v := range values {
		if _, reason := canonicalValue(d, v); reason == "" || (d.Type == calendar.FieldMultiselect && slices.Contains(d.Options, v)) {
			kept = append(kept, v)
		}
	}
	return kept
}

// applyCustomValues writes checked values onto p: a nil one clears its field.
func applyCustomValues(p *calendar.Post, values map[string][]string) {
	for key, v := range values {
		if len(v) == 0 {
			delete(p.Custom, key)
			continue
		}
		if p.Custom == nil {
			p.Custom = map[string][]string{}
		}
		p.Custom[key] = v
	}
	if len(p.Custom) == 0 {
		p.Custom = nil
	}
}

// CustomFieldView is one field of a post's custom_fields: its label and
// value (a text, a number, a boolean, a date as YYYY-MM-DD, a multiselect's
// list).
type CustomFieldView struct {
	Label string `json:"label"`
	Value any    `json:"value"`
}

// customFieldsOf is what custom_fields says of p to a reader: an object
// keyed by each declared field's key that holds a value the reader may
// see (hidden ones only when seesHidden), in declaration order; [] when
// none, as the plugin answers without its PRO edition (PHP's empty array).
func customFieldsOf(set *calendar.FieldSet, p *calendar.Post, seesHidden bool) any {
	if set == nil || len(p.Custom) == 0 {
		return []any{}
	}
	out := orderedObject{}
	for i := range set.Fields {
		d := &set.Fields[i]
		values := p.Custom[d.Key]
		if len(values) == 0 || !d.AppliesTo(p.Type) || (!d.Public && !seesHidden) {
			continue
		}
		out = append(out, orderedField{Key: d.Key, Value: CustomFieldView{Label: d.Label, Value: typedValue(d, values)}})
	}
	if len(out) == 0 {
		return []any{}
	}
	return out
}

// typedValue is a stored value as JSON writes its type.
func typedValue(d *calendar.FieldDeclaration, values []string) any {
	switch d.Type {
	case calendar.FieldMultiselect:
		return slices.Clone(values)
	case calendar.FieldNumber:
		f, _ := strconv.ParseFloat(values[0], 64)
		return f
	case calendar.FieldBoolean:
		return values[0] == "true"
	}
	return values[0]
}

// indexedFields is what the index keeps of p's custom values: the
// filterable declared fields of its type, each value as a term and the
// first as the key that orders it.
func indexedFields(set *calendar.FieldSet, p *calendar.Post) []calendar.IndexedField {
	var out []calendar.IndexedField
	for key, values := range p.Custom {
		d := set.Field(key)
		if d == nil || !d.Filterable || !d.AppliesTo(p.Type) || len(values) == 0 {
			continue
		}
		out = append(out, calendar.IndexedField{Key: key, Terms: slices.Clone(values), Sort: customSortKey(d.Type, values[0])})
	}
	slices.SortFunc(out, func(a, b calendar.IndexedField) int { return strings.Compare(a.Key, b.Key) })
	return out
}

// customSortKey writes a value so that byte order is the field's order:
// numbers by their IEEE 754 bits made to sort, dates as they are, texts
// folded and cut to 64 bytes.
func customSortKey(fieldType, v string) string {
	switch fieldType {
	case calendar.FieldNumber:
		f, _ := strconv.ParseFloat(v, 64)
		return numberSortKey(f)
	case calendar.FieldDate, calendar.FieldBoolean:
		return v
	}
	folded := calendar.FoldTitle(v)
	if len(folded) > 64 {
		folded = folded[:64]
	}
	return folded
}

func numberSortKey(f float64) string {
	bits := math.Float64bits(f)
	if f >= 0 {
		bits ^= 1 << 63
	} else {
		bits = ^bits
	}
	return fmt.Sprintf("%016x", bits)
}

// CustomParam is one cf[<key>] of a list: Values (any of them), or the
// bounds gte and lte of a number or a date.
type CustomParam struct {
	Values   []string
	Gte, Lte *string
}

// customFilters reads a list's cf[...] into the index's filters. Only
// filterable fields of events filter, and those that are not public only
// for callers who see hidden fields: to anyone else such a key is refused
// as one that does not exist, so the answer tells nothing of it.
func customFilters(set *calendar.FieldSet, caller Caller, params map[string]CustomParam, bad *calendar.InvalidParams) []calendar.CustomFilter {
	var out []calendar.CustomFilter
	keys := make([]string, 0, len(params))
	for k := range params {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, key := range keys {
		param, name := params[key], "cf["+key+"]"
		d, reason := filterableField(set, caller, key)
		if reason != "" {
			bad.Add(name, reason, nil)
			continue
		}
		f := calendar.CustomFilter{Key: key}
		for _, raw := range param.Values {
			v, reason := canonicalValue(d, raw)
			if d.Type == calendar.FieldMultiselect {
				v, reason = raw, ""
				if !slices.Contains(d.Options, raw) {
					reason = "each value must be one of " + strings.Join(d.Options, ", ") + "."
				}
			}
			if reason != "" {
				bad.Add(name, reason, nil)
				break
			}
			f.Terms = append(f.Terms, v)
		}
		for _, b := range []struct {
			raw *string
			dst **string
			op  string
		}{{param.Gte, &f.Min, "gte"}, {param.Lte, &f.Max, "lte"}} {
			if b.raw == nil {
				continue
			}
			if d.Type != calendar.FieldNumber && d.Type != calendar.FieldDate {
				bad.Add(name, fmt.Sprintf("cf[%s][%s] bounds numbers and dates only.", key, b.op), nil)
				break
			}
			v, reason := canonicalValue(d, *b.raw)
			if reason != "" {
				bad.Add(name, reason, nil)
				break
			}
			k := customSortKey(d.Type, v)
			*b.dst = &k
		}
		out = append(out, f)
	}
	return out
}

// filterableField is the declaration a list may filter, count or order by
// under key, or why not.
func filterableField(set *calendar.FieldSet, caller Caller, key string) (*calendar.FieldDeclaration, string) {
	d := set.Field(key)
	if d == nil || !d.AppliesTo(calendar.PostTypeEvent) || !d.Filterable || (!d.Public && !seesHiddenFields(caller)) {
		return nil, fmt.Sprintf("events have no filterable custom field %q.", key)
	}
	return d, ""
}

// customFacets checks the facets of custom fields a list asks for
// (cf.<key>) as its filters are checked.
func customFacets(set *calendar.FieldSet, caller Caller, facets []string, bad *calendar.InvalidParams) {
	for _, f := range facets {
		if key, ok := strings.CutPrefix(f, calendar.FacetCustomPrefix); ok {
			if _, reason := filterableField(set, caller, key); reason != "" {
				bad.Add("facets", reason, nil)
			}
		}
	}
}

// forIndex sets what the index keeps of each post's custom values from the
// declarations as they are now.
func (s *Fields) forIndex(ctx context.Context, posts []*calendar.Post) error {
	var set *calendar.FieldSet
	for _, p := range posts {
		p.Indexed = nil
		if len(p.Custom) == 0 {
			continue
		}
		if set == nil {
			var err error
			if set, err = s.current(ctx); err != nil {
				return err
			}
		}
		p.Indexed = indexedFields(set, p)
	}
	return nil
}

// orderedObject is a JSON object whose members keep their order.
type orderedObject []orderedField

type orderedField struct {
	Key   string
	Value any
}

func (o orderedObject) MarshalJSON() ([]byte, error) {
	return OrderedObject(len(o), func(i int) (string, any) { return o[i].Key, o[i].Value })
}

// addCustomFields gives each event shown to its caller the custom fields
// the caller may see (hidden ones to those who may edit it), and its
// JSON-LD the public ones that name a schema.org property. Neither is kept
// with the views: the declarations change apart from the events.
func (s *Events) addCustomFields(ctx context.Context, caller Caller, events []*calendar.Post, views []EventView, password string) error {
	var set *calendar.FieldSet
	for i, e := range events {
		if len(e.Custom) == 0 || !s.shown(caller, e, password) {
			continue
		}
		if set == nil {
			var err error
			if set, err = s.fields.current(ctx); err != nil {
				return err
			}
		}
		views[i].CustomFields = customFieldsOf(set, e, canEdit(caller.User, e))
		if views[i].JSONLD != nil {
			views[i].JSONLD = withSchemaOrg(views[i].JSONLD, set, e)
		}
	}
	return nil
}

// withSchemaOrg adds to an event's JSON-LD the public custom fields that
// name a schema.org property.
func withSchemaOrg(ld json.RawMessage, set *calendar.FieldSet, e *calendar.Post) json.RawMessage {
	var props map[string]any
	for i := range set.Fields {
		d := &set.Fields[i]
		if d.SchemaOrg == "" || !d.Public || !d.AppliesTo(e.Type) || len(e.Custom[d.Key]) == 0 {
			continue
		}
		if props == nil {
			props = map[string]any{}
		}
		props[d.SchemaOrg] = typedValue(d, e.Custom[d.Key])
	}
	if props == nil {
		return ld
	}
	var m map[string]any
	if json.Unmarshal(ld, &m) != nil {
		return ld
	}
	for k, v := range props {
		if _, taken := m[k]; !taken { // the event's own properties stand
			m[k] = v
		}
	}
	if out := encodeLD(m); out != nil {
		return out
	}
	return ld
}

// checkCustom checks the custom field values a write of a post of
// postType sent against the declarations as they are now.
func (s *postService) checkCustom(ctx context.Context, postType string, sent map[string]any, creating bool, bad *calendar.InvalidParams) (map[string][]string, error) {
	if sent == nil && !creating {
		return nil, nil
	}
	set, err := s.fields.current(ctx)
	if err != nil {
		return nil, err
	}
	return checkCustomValues(set, postType, sent, creating, bad), nil
}

// readCustom reads a list's filters, facets and order by custom fields
// (cf[<key>], facets=cf.<key>, orderby=cf.<key>) against the declarations
// and the caller (filterableField).
func (s *Events) readCustom(ctx context.Context, caller Caller, f EventFilter, q *calendar.PostQuery, bad *calendar.InvalidParams) error {
	orderKey, ordered := strings.CutPrefix(f.OrderBy, calendar.FacetCustomPrefix)
	faceted := slices.ContainsFunc(q.Facets, func(name string) bool { return strings.HasPrefix(name, calendar.FacetCustomPrefix) })
	if len(f.Custom) == 0 && !ordered && !faceted {
		return nil
	}
	set, err := s.fields.current(ctx)
	if err != nil {
		return err
	}
	q.Custom = customFilters(set, caller, f.Custom, bad)
	customFacets(set, caller, q.Facets, bad)
	if ordered {
		if _, reason := filterableField(set, caller, orderKey); reason != "" {
			bad.Add("orderby", reason, nil)
		}
		q.Order, q.OrderCustom = calendar.OrderByCustom, orderKey
	}
	return nil
}

// customOf is the custom_fields of a venue or an organizer shown to its
// caller: nil when it holds none the caller may see, or is masked (a
// password protects them). Declarations that cannot be read leave them
// out: the answer is the post's without them.
func (s *postService) customOf(ctx context.Context, caller Caller, p *calendar.Post, masked bool) any {
	if masked || len(p.Custom) == 0 {
		return nil
	}
	set, err := s.fields.current(ctx)
	if err != nil {
		return nil
	}
	if v, ok := customFieldsOf(set, p, canEdit(caller.User, p)).(orderedObject); ok {
		return v
	}
	return nil
}

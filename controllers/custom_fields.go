package controllers

import (
	"context"
	"net/http"
	"slices"
	"strings"

	"github.com/go-fuego/fuego"

	"calendar/app"
	"calendar/app/calendar"
)

// fieldService is what the custom fields' routes ask of the domain (app.Fields).
type fieldService interface {
	List(ctx context.Context, caller app.Caller) ([]app.FieldView, error)
	Get(ctx context.Context, caller app.Caller, key string) (*app.FieldView, error)
	Create(ctx context.Context, caller app.Caller, in app.FieldInput) (*app.FieldView, error)
	Update(ctx context.Context, caller app.Caller, key string, in app.FieldInput, replace, force bool) (*app.FieldView, error)
	Delete(ctx context.Context, caller app.Caller, key string, force bool) (*app.DeletedField, error)
}

// mountFields registers the declarations of custom fields under
// {base_url}/vendor/admin/v1/fields.
func mountFields(api *API, fields fieldService) {
	api.publicFields = func(ctx context.Context) ([]app.FieldView, error) { return fields.List(ctx, app.Caller{}) }
	const who = " Everyone reads the public ones; editors and administrators every one; administrators declare them."
	handle(api, AdminNamespace, []string{http.MethodGet}, "/fields", nil, func(r *Request) ([]app.FieldView, error) {
		return fields.List(r.Context(), r.Caller)
	}, fuego.OptionSummary("List custom fields"), fuego.OptionDescription("The custom fields events, venues and organizers carry, in declaration order."+who))

	handle(api, AdminNamespace, []string{http.MethodPost}, "/fields", fieldArgs(true), func(r *Request) (*app.FieldView, error) {
		f, err := fields.Create(r.Context(), r.Caller, readFieldInput(r.Values))
		if err == nil {
			r.SetStatus(http.StatusCreated)
		}
		return f, err
	}, fuego.OptionSummary("Declare a custom field"),
		fuego.OptionDescription("Writes of the post types it applies to take its values in custom_fields; answers carry them there. At most "+calendar.Thousands(calendar.MaxFields)+" fields."+who),
		fuego.OptionAddResponse(http.StatusCreated, "The declaration", fuego.Response{Type: app.FieldView{}}))

	handle(api, AdminNamespace, []string{http.MethodGet}, "/fields/{key}", fieldKeyArgs, func(r *Request) (*app.FieldView, error) {
		key, _ := r.Values.String("key")
		return fields.Get(r.Context(), r.Caller, key)
	}, fuego.OptionSummary("Read a custom field"), fuego.OptionDescription("One declaration."+who))

	for _, method := range editable {
		replace := method == http.MethodPut
		handle(api, AdminNamespace, []string{method}, "/fields/{key}", append(slices.Clone(fieldKeyArgs), append(fieldArgs(false), fieldForceArg)...), func(r *Request) (*app.FieldView, error) {
			key, _ := r.Values.String("key")
			force, _ := r.Values.Bool("force")
			return fields.Update(r.Context(), r.Caller, key, readFieldInput(r.Values), replace, force)
		}, fuego.OptionSummary("Change a custom field"),
			fuego.OptionDescription("The fields sent (PUT: the others back to their defaults). Its type does not change. Taking options or post types away from a field that holds values needs force=true (else 409 rest_field_in_use), and then removes the values no longer valid, in the background. Posts holding the field are indexed again in the background; lists answer meanwhile."+who),
			mayAnswer(calendar.KindConflict))
	}

	handle(api, AdminNamespace, []string{http.MethodDelete}, "/fields/{key}", append(slices.Clone(fieldKeyArgs), fieldForceArg), func(r *Request) (*app.DeletedField, error) {
		key, _ := r.Values.String("key")
		force, _ := r.Values.Bool("force")
		return fields.Delete(r.Context(), r.Caller, key, force)
	}, fuego.OptionSummary("Delete a custom field"),
		fuego.OptionDescription("A field that holds values needs force=true (else 409 rest_field_in_use); its values are then removed from their posts in the background (removing says how many)."+who),
		mayAnswer(calendar.KindConflict))
}

var fieldKeyArgs = []Arg{{Name: "key", Type: TypeString, Required: true, MaxBytes: calendar.MaxFieldKeyBytes, Description: "The field's key."}}

var fieldForceArg = Arg{Name: "force", Type: TypeBoolean, Default: false,
	Description: "true: remove the stored values the change no longer accepts (every one of a deleted field)."}

// fieldArgs are the parameters of a declaration's create (key, label and
// type required) or change.
func fieldArgs(create bool) []Arg {
	args := []Arg{
		{Name: "label", Type: TypeString, Required: create, MaxBytes: calendar.MaxFieldLabelBytes, Example: "Age limit", Description: "What readers are shown."},
		{Name: "type", Type: TypeString, Required: create, Enum: calendar.FieldTypes, Example: calendar.FieldNumber,
			Description: "text, textarea, url (http or https), number, date (YYYY-MM-DD), boolean, select (one of options), multiselect (some of options)."},
		{Name: "options", Type: TypeArray, Items: TypeString, MaxItems: calendar.MaxFieldOptions,
			Description: "The values of a select or a multiselect (each at most " + calendar.Thousands(calendar.MaxFieldOptionBytes) + " bytes, without commas)."},
		{Name: "required", Type: TypeBoolean, Description: "Creates must send a value, and no write may clear it."},
		{Name: "public", Type: TypeBoolean, Description: "Every reader sees it (the feed, embeds and lists included); otherwise only those who may edit the post, and only editors and administrators filter, count and order by it."},
		{Name: "filterable", Type: TypeBoolean, Description: "Lists filter (cf[<key>]), count (facets=cf.<key>) and order (orderby=cf.<key>) by it; not for textarea."},
		{Name: "post_types", Type: TypeArray, Items: TypeString, Enum: calendar.FieldPostTypes, MaxItems: len(calendar.FieldPostTypes),
			Description: "The posts that carry it: tribe_events' event, venue, organizer (event by default)."},
		{Name: "schema_org", Type: TypeString, Enum: append([]string{""}, calendar.FieldSchemaOrgProperties...),
			Description: "The schema.org property of an event's json_ld its value is written as (public fields only): " + strings.Join(calendar.FieldSchemaOrgProperties, ", ") + "."},
	}
	if create {
		args = append([]Arg{{Name: "key", Type: TypeString, Required: true, MaxBytes: calendar.MaxFieldKeyBytes, Example: "age_limit",
			Description: "A lower-case letter, then lower-case letters, digits and underscores; custom_fields, cf[<key>] and facets name it."}}, args...)
	}
	return args
}

func readFieldInput(v Values) app.FieldInput {
	in := app.FieldInput{Key: stringParam(v, "key"), Label: stringParam(v, "label"), Type: stringParam(v, "type"), SchemaOrg: stringParam(v, "schema_org"),
		Options: stringsParam(v, "options"), PostTypes: stringsParam(v, "post_types"),
		Required: boolParam(v, "required"), Public: boolParam(v, "public"), Filterable: boolParam(v, "filterable")}
	return in
}

// customFieldsArg is the custom field values of a write of an event, a
// venue or an organizer.
var customFieldsArg = Arg{Name: "custom_fields", Type: TypeObject, MaxItems: calendar.MaxFields,
	Description: "Values of the custom fields declared for the post type ({admin}/fields), by key: a text, a number, true or false, a date (YYYY-MM-DD), an option, a list of options; null or \"\" clears one. Fields not sent stay as they are."}

// customFiltersArg is the list's filters by custom fields.
var customFiltersArg = Arg{Name: "cf", Type: TypeObject, MaxItems: calendar.MaxCustomFilters,
	Description: "Filters by filterable custom fields, by key: cf[<key>]=a,b (any of the values; true or false for a boolean), cf[<key>][gte]= and cf[<key>][lte]= (numbers and dates, bounds included). At most " +
		calendar.Thousands(calendar.MaxCustomFilters) + " fields, " + calendar.Thousands(calendar.MaxCustomFilterValues) + " values each, each at most " + calendar.Thousands(calendar.MaxFieldValueBytes) +
		" bytes. A field that is not public is refused, as one that does not exist, to callers other than editors and administrators."}

// readCustomFilters reads cf[<key>] (a list of values, or an object of
// gte and lte).
func readCustomFilters(v Values, bad *calendar.InvalidParams) map[string]app.CustomParam {
	raw, ok := v["cf"].(map[string]any)
	if !ok || len(raw) == 0 {
		return nil
	}
	out := make(map[string]app.CustomParam, len(raw))
	text := func(x any) (string, bool) {
		s, ok := x.(string)
		return s, ok && len(s) <= calendar.MaxFieldValueBytes
	}
	for key, x := range raw {
		name, p := "cf["+key+"]", app.CustomParam{}
		switch x := x.(type) {
		case map[string]any:
			for op, bound := range x {
				s, ok := text(bound)
				switch {
				case !ok:
					bad.Add(name, name+"["+op+"] must be a number or a date.", nil)
				case op == "gte":
					p.Gte = &s
				case op == "lte":
					p.Lte = &s
				default:
					bad.Add(name, name+" takes values, or the bounds [gte] and [lte].", nil)
				}
			}
		default:
			items, ok := ToList(x)
			for _, item := range items {
				s, isText := text(item)
				if !isText {
					ok = false
					break
				}
				for _, part := range strings.Split(s, ",") {
					p.Values = append(p.Values, strings.TrimSpace(part))
				}
			}
			switch {
			case !ok || len(p.Values) == 0:
				bad.Add(name, name+" takes values separated by commas, each at most "+calendar.Thousands(calendar.MaxFieldValueBytes)+" bytes.", nil)
			case len(p.Values) > calendar.MaxCustomFilterValues:
				bad.AddTooManyItems(name, calendar.MaxCustomFilterValues)
			}
		}
		out[key] = p
	}
	return out
}

package controllers

import (
	"net/http"
	"reflect"
	"slices"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
)

// What the generated document says only roughly, said as the service does
// it: who may call an operation (Basic or Bearer, required for writes and the
// administration, optional for reads), which resource an operation is of, the
// one content type each answer has, and the schemas reflection cannot read
// from Go types (an image or false, a venue or [], JSON-LD objects, the
// error's params and details, sizes kept in order).

// The security schemes of the document: WordPress application passwords.
var securitySchemes = openapi3.SecuritySchemes{
	"basic": &openapi3.SecuritySchemeRef{Value: openapi3.NewSecurityScheme().WithType("http").WithScheme("basic").
		WithDescription("login:application password (the spaces of the password are optional).")},
	"bearer": &openapi3.SecuritySchemeRef{Value: openapi3.NewSecurityScheme().WithType("http").WithScheme("bearer").
		WithDescription("The application password alone.")},
}

var (
	signedIn         = openapi3.SecurityRequirements{{"basic": {}}, {"bearer": {}}}
	optionallySigned = openapi3.SecurityRequirements{{}, {"basic": {}}, {"bearer": {}}}
)

// describeOperations tags each operation with its resource, says who may call
// it, and keeps the content types the service sends.
func describeOperations(path string, item *openapi3.PathItem, admin bool) {
	tag := resourceTag(path)
	for method, op := range item.Operations() {
		op.Tags = []string{tag}
		// Reads are open but in the administration, whose index and
		// document only are.
		security := optionallySigned
		if method != http.MethodGet || (admin && path != "/" && path != "/doc") {
			security = signedIn
		}
		op.Security = &security
		for _, response := range op.Responses.Map() {
			if response.Value == nil {
				continue
			}
			for contentType := range response.Value.Content {
				if contentType != "application/json" && contentType != calendarType {
					delete(response.Value.Content, contentType)
				}
			}
		}
	}
}

// resourceTag is the resource a path is of: its first segment.
func resourceTag(path string) string {
	first, _, _ := strings.Cut(strings.TrimPrefix(path, "/"), "/")
	switch first {
	case "":
		return "namespace"
	case "events.ics":
		return "events"
	}
	return first
}

// refineSchemas replaces what reflection wrote roughly.
func refineSchemas(schemas openapi3.Schemas) {
	object := func(description string) *openapi3.SchemaRef {
		s := openapi3.NewObjectSchema().WithAnyAdditionalProperties()
		s.Description = description
		return openapi3.NewSchemaRef("", s)
	}
	empty := openapi3.NewArraySchema().WithMaxItems(0)
	empty.Items = openapi3.NewSchemaRef("", openapi3.NewObjectSchema())
	schemaRef := func(name string) *openapi3.SchemaRef { return openapi3.NewSchemaRef("#/components/schemas/"+name, nil) }
	jsonLD := object("schema.org JSON-LD; on single reads only.")
	for _, name := range []string{"EventView", "VenueView", "OrganizerView"} {
		if s := schemas[name]; s != nil && s.Value != nil {
			s.Value.Properties["json_ld"] = jsonLD
			if name != "EventView" {
				s.Value.Properties["custom_fields"] = openapi3.NewSchemaRef("", customFieldsObject(
					"The custom fields of "+strings.ToLower(strings.TrimSuffix(name, "View"))+"s the caller may see, by key, each with its label and value; absent when none."))
			}
		}
	}
	if s := schemas["ChangeView"]; s != nil && s.Value != nil {
		s.Value.Properties["object"] = object("With embed=object: the item as its route answers the caller (an event, a venue, an organizer, a category or tag, an image); never for a deleted one.")
	}
	if s := schemas["EventView"]; s != nil && s.Value != nil {
		noImage := openapi3.NewBoolSchema()
		noImage.Enum = []any{false}
		image := openapi3.NewOneOfSchema(schemaRef("ImageView").Value, noImage)
		image.OneOf[0] = schemaRef("ImageView")
		image.Description = "The featured image, or false."
		s.Value.Properties["image"] = openapi3.NewSchemaRef("", image)
		venue := openapi3.NewOneOfSchema(nil, empty)
		venue.OneOf[0] = schemaRef("VenueView")
		venue.Description = "The venue, or [] when the event has none (or none the caller may read)."
		s.Value.Properties["venue"] = openapi3.NewSchemaRef("", venue)
		s.Value.Properties["custom_fields"] = openapi3.NewSchemaRef("", customFieldsSchema(empty))
	}
	// Sizes are Go lists so that they keep WordPress' order; they are
	// written as objects keyed by size name.
	for schema, size := range map[string]string{"ImageView": "ImageSizeView", "MediaDetails": "MediaDetailsSize"} {
		if s := schemas[schema]; s != nil && s.Value != nil {
			sizes := openapi3.NewObjectSchema()
			sizes.AdditionalProperties = openapi3.AdditionalProperties{Schema: schemaRef(size)}
			sizes.Description = "By size name, in the order WordPress makes them (medium, large, thumbnail, medium_large, 1536x1536, 2048x2048), each only when the original is larger."
			if schema == "MediaDetails" {
				sizes.Description += " Then full, the original, when there is any other."
			}
			s.Value.Properties["sizes"] = openapi3.NewSchemaRef("", sizes)
		}
	}
	// context=embed leaves these out of a term read, as WordPress' embed
	// context does.
	if s := schemas["TermAnswer"]; s != nil && s.Value != nil {
		s.Value.Required = slices.DeleteFunc(s.Value.Required, func(name string) bool {
			return name == "count" || name == "description" || name == "meta"
		})
	}
	if s := schemas["ErrorBody"]; s != nil && s.Value != nil {
		data := s.Value.Properties["data"].Value
		params := openapi3.NewOneOfSchema(openapi3.NewObjectSchema().WithAdditionalProperties(openapi3.NewStringSchema()),
			openapi3.NewArraySchema().WithItems(openapi3.NewStringSchema()))
		params.Description = "rest_invalid_param: the reason per parameter; rest_missing_callback_param: the names missing."
		data.Properties["params"] = openapi3.NewSchemaRef("", params)
		details := openapi3.NewOneOfSchema(openapi3.NewObjectSchema().WithAnyAdditionalProperties(), empty)
		details.Description = "The nested error per parameter, or [] when there is none (as WordPress writes it)."
		data.Properties["details"] = openapi3.NewSchemaRef("", details)
	}
	for _, s := range schemas {
		notNull(s)
	}
}

// notNull: Go's slices and maps document as "array or null", but the service
// always writes them, as [] or {} when empty.
func notNull(s *openapi3.SchemaRef) {
	if s == nil || s.Value == nil || s.Ref != "" {
		return
	}
	for _, p := range s.Value.Properties {
		if p.Value == nil || p.Ref != "" || p.Value.Type == nil || len(*p.Value.Type) != 2 || !p.Value.Type.Includes("null") {
			continue
		}
		for _, t := range *p.Value.Type {
			if t == openapi3.TypeArray || t == openapi3.TypeObject {
				p.Value.Type = &openapi3.Types{t}
			}
		}
		notNull(p)
	}
}

// nullWhereWritten says which pointers the service writes as null. The
// generator marks every pointer field nullable, a keyword OpenAPI 3.1 no
// longer has; a nil pointer the service leaves out (omitempty, omitzero) is
// never null, and one it writes is its type or null. Structs are left alone:
// a component's schema is the type's, not one field's (the generator drops
// their mark).
func nullWhereWritten(_ string, t reflect.Type, tag reflect.StructTag, schema *openapi3.Schema) error {
	if !schema.Nullable || t.Kind() == reflect.Struct {
		return nil
	}
	schema.Nullable = false
	_, options, _ := strings.Cut(tag.Get("json"), ",")
	omitted := slices.ContainsFunc(strings.Split(options, ","), func(o string) bool { return o == "omitempty" || o == "omitzero" })
	if !omitted && schema.Type != nil && !schema.Type.Includes(openapi3.TypeNull) {
		types := append(schema.Type.Slice(), openapi3.TypeNull)
		schema.Type = (*openapi3.Types)(&types)
	}
	return nil
}

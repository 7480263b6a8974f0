package controllers

import (
	"bytes"
	"encoding/json"
	"slices"

	"github.com/getkin/kin-openapi/openapi3"

	"calendar/app"
	"calendar/app/calendar"
)

// The document fuego generates is made once, from the routes; custom
// fields are declared while the service runs. So the events' document
// describes custom_fields generically (an object of {label, value} by key,
// or [] when an event holds none), with a marker in place of the
// description, and each request's copy of the document has the public
// declarations of that moment written there as the object's properties.

// customFieldsMarker stands in the template for the description of the
// custom fields' object, where withDeclaredFields writes the declared ones.
const customFieldsMarker = "https://api.invalid/custom-fields"

// customFieldsSchema is custom_fields: [] (the plugin's answer when there
// is nothing to show), or an object keyed by field key.
func customFieldsSchema(empty *openapi3.Schema) *openapi3.Schema {
	oneOf := openapi3.NewOneOfSchema(empty, customFieldsObject(customFieldsMarker))
	oneOf.Description = "The custom fields ({admin}/fields) the event holds a value of and the caller may see, by key, each with its label and value; [] when none, as the plugin answers."
	return oneOf
}

// customFieldsObject is the object of custom fields by key.
func customFieldsObject(description string) *openapi3.Schema {
	value := &openapi3.Schema{AnyOf: openapi3.SchemaRefs{
		openapi3.NewSchemaRef("", openapi3.NewStringSchema()), openapi3.NewSchemaRef("", openapi3.NewFloat64Schema()),
		openapi3.NewSchemaRef("", openapi3.NewBoolSchema()), openapi3.NewSchemaRef("", openapi3.NewArraySchema().WithItems(openapi3.NewStringSchema())),
	}, Description: "A text (a date as YYYY-MM-DD), a number, a boolean, or a multiselect's options."}
	field := openapi3.NewObjectSchema().WithProperty("label", openapi3.NewStringSchema()).WithPropertyRef("value", openapi3.NewSchemaRef("", value))
	field.Required = []string{"label", "value"}
	byKey := openapi3.NewObjectSchema().WithAdditionalProperties(field)
	byKey.Description = description
	return byKey
}

// withDeclaredFields is the events' document with the public declarations
// as the properties of custom_fields' object.
func withDeclaredFields(template []byte, fields []app.FieldView) []byte {
	description := append([]byte(`"description":`), jsonString(customFieldsMarker)...)
	properties := map[string]*openapi3.Schema{}
	for _, f := range fields {
		if !slices.Contains(f.PostTypes, calendar.PostTypeEvent) {
			continue
		}
		field := openapi3.NewObjectSchema().WithProperty("label", &openapi3.Schema{Type: &openapi3.Types{openapi3.TypeString}, Enum: []any{f.Label}}).
			WithProperty("value", declaredValueSchema(f))
		field.Description = f.Label + " (" + f.Type + ")"
		properties[f.Key] = field
	}
	replacement := []byte(`"description":"By key: the public custom fields declared now (a field an event holds no value of is absent), and others only editors see."`)
	if len(properties) > 0 {
		raw, err := json.Marshal(properties)
		if err != nil {
			return template
		}
		replacement = append(append(replacement, []byte(`,"properties":`)...), raw...)
	}
	return bytes.Replace(template, description, replacement, 1)
}

// declaredValueSchema is the schema of one declared field's value.
func declaredValueSchema(f app.FieldView) *openapi3.Schema {
	switch f.Type {
	case calendar.FieldNumber:
		return openapi3.NewFloat64Schema()
	case calendar.FieldBoolean:
		return openapi3.NewBoolSchema()
	case calendar.FieldDate:
		return openapi3.NewStringSchema().WithFormat("date")
	case calendar.FieldURL:
		return openapi3.NewStringSchema().WithFormat("uri")
	case calendar.FieldSelect:
		s := openapi3.NewStringSchema()
		for _, o := range f.Options {
			s.Enum = append(s.Enum, o)
		}
		return s
	case calendar.FieldMultiselect:
		item := openapi3.NewStringSchema()
		for _, o := range f.Options {
			item.Enum = append(item.Enum, o)
		}
		return openapi3.NewArraySchema().WithItems(item)
	}
	return openapi3.NewStringSchema()
}

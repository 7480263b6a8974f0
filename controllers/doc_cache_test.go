package controllers

import (
	"bytes"
	"net/http"
	"testing"

	"github.com/go-fuego/fuego"
)

// TestAnAPIWithTheRoutesOfAnotherTakesItsDocumentAndOnlyThen: a process
// makes one document for every API with the same routes; another version,
// another text or another parameter bound makes a document of its own.
func TestAnAPIWithTheRoutesOfAnotherTakesItsDocumentAndOnlyThen(t *testing.T) {
	build := func(version, description string, maxLength int) *openAPIDoc {
		api := newAPI(Config{Version: version}, nil)
		args := []Arg{{Name: "search", Type: "string", MaxBytes: maxLength}}
		handle(api, EventsNamespace, []string{http.MethodGet}, "/fingerprinted", args, func(*Request) (any, error) { return nil, nil },
			fuego.OptionDescription(description))
		api.documented()
		return api.doc()
	}
	first := build("1.0.0", "A route.", 200)
	if build("1.0.0", "A route.", 200) != first {
		t.Error("an API with the same routes made its document again")
	}
	for _, c := range []struct {
		name    string
		doc     *openAPIDoc
		carries string
	}{
		{"another version", build("2.0.0", "A route.", 200), `"version":"2.0.0"`},
		{"another description", build("1.0.0", "Another route.", 200), `Another route.`},
		{"another bound", build("1.0.0", "A route.", 300), `"maxLength":300`},
	} {
		if c.doc == first || !bytes.Contains(c.doc.events, []byte(c.carries)) {
			t.Errorf("%s: the document of the first API was served, or it does not carry %s", c.name, c.carries)
		}
	}
}

package app_test

import (
	"testing"

	"calendar/app"
)

// An event's description written in the block editor reads back as
// WordPress' the_content shows it: the block delimiters gone, no <p> added
// around them or anywhere else (wpautop is skipped for block content), a
// dynamic block gone, images lazy-loaded.
func TestBlockDescriptionReadsBackWithoutDelimiters(t *testing.T) {
	w := newWorld(t)
	description := "<!-- wp:heading -->\n<h2>Programme</h2>\n<!-- /wp:heading -->\n\n" +
		"<!-- wp:paragraph -->\n<p>Doors open at 7 -- it's free</p>\n<!-- /wp:paragraph -->\n\n" +
		"<!-- wp:latest-posts /-->\n\n" +
		"<!-- wp:image -->\n<figure class=\"wp-block-image\"><img src=\"https://example.com/a.jpg\" alt=\"\" width=\"300\" height=\"200\"/></figure>\n<!-- /wp:image -->"
	want := "<h2>Programme</h2>\n\n\n\n<p>Doors open at 7 &#8212; it&#8217;s free</p>\n\n\n\n\n\n" +
		"<figure class=\"wp-block-image\"><img decoding=\"async\" loading=\"lazy\" src=\"https://example.com/a.jpg\" alt=\"\" width=\"300\" height=\"200\"/></figure>"
	created := w.event("Concert", "2030-06-01", app.EventInput{PostFields: app.PostFields{Description: &description, Excerpt: ptr("<!-- wp:paragraph -->\n<p>Short</p>\n<!-- /wp:paragraph -->")}})
	for _, caller := range []app.Caller{w.admin(), visitor} {
		for i := 0; i < 2; i++ { // rendered, then kept
			e, err := w.app.Events.Get(w.ctx, caller, app.PostRef{ID: created.ID}, "")
			w.must(err)
			if e.Description != want {
				t.Errorf("description:\n got %q\nwant %q", e.Description, want)
			}
			if e.Excerpt != "<p>Short</p>" {
				t.Errorf("excerpt: %q", e.Excerpt)
			}
		}
	}
}

package app_test

import (
	"testing"

	"calendar/app"
	"calendar/app/calendar"
)

// An author's or a contributor's HTML is stored as WordPress' kses keeps
// it (the title through the plain filter, description and excerpt through
// the post one); an editor's and an administrator's as sent
// (unfiltered_html). An attachment's title, caption and description are
// filtered the same (its alt text is meta, which kses leaves). A term's
// description is filtered whoever writes it.
func TestWritersWithoutUnfilteredHTMLStoreFilteredHTML(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	const (
		title        = `Night <b>out</b> <img src=x onerror=alert(1)>`
		html         = `<p onclick="steal()">Doors at 7<script>steal()</script> <a href="javascript:steal()">map</a> <img src="x.png" onerror="steal()"></p>`
		titleKept    = `Night <b>out</b>`
		htmlFiltered = `<p>Doors at 7steal() <a href="steal()">map</a> <img src="x.png"></p>`
	)
	for _, c := range []struct {
		role                calendar.Role
		wantTitle, wantHTML string
	}{
		{calendar.RoleAuthor, titleKept, htmlFiltered},
		{calendar.RoleContributor, titleKept, htmlFiltered},
		{calendar.RoleEditor, title, html},
		{calendar.RoleAdministrator, title, html},
	} {
		e, err := w.app.Events.Create(w.ctx, w.callers[c.role], app.EventInput{
			PostFields: app.PostFields{Title: ptr(title), Description: ptr(html), Excerpt: ptr(html)},
			StartDate:  ptr("2030-06-01 19:00:00"), EndDate: ptr("2030-06-01 23:00:00")})
		w.must(err)
		p, err := w.store.Posts().Get(w.ctx, e.ID)
		w.must(err)
		if p.Title != c.wantTitle || p.Content != c.wantHTML || p.Excerpt != c.wantHTML {
			t.Errorf("an event of an %s's stored\n title %q\n content %q\n excerpt %q\nwant %q and %q", c.role, p.Title, p.Content, p.Excerpt, c.wantTitle, c.wantHTML)
		}
	}

	v, err := w.app.Venues.Create(w.ctx, w.callers[calendar.RoleAuthor], app.LinkedInput{PostFields: app.PostFields{Title: ptr(title), Description: ptr(html)}})
	w.must(err)
	if p, err := w.store.Posts().Get(w.ctx, v.ID); err != nil || p.Title != titleKept || p.Content != htmlFiltered {
		t.Errorf("an author's venue stored %q, %q (%v)", p.Title, p.Content, err)
	}

	upload, err := w.app.Media.Upload(w.ctx, w.callers[calendar.RoleAuthor], app.UploadInput{FileName: "poster.jpg", Data: testJPEG(t, 8, 8),
		MediaFields: app.MediaFields{Title: ptr(title), Caption: ptr(html), Description: ptr(html), AltText: ptr("<b>alt</b>")}})
	w.must(err)
	if p, err := w.store.Posts().Get(w.ctx, upload.ID); err != nil || p.Title != titleKept || p.Excerpt != htmlFiltered || p.Content != htmlFiltered ||
		p.Meta[calendar.MetaAlt] != "<b>alt</b>" {
		t.Errorf("an author's upload stored %q, %q, %q, alt %q (%v)", p.Title, p.Excerpt, p.Content, p.Meta[calendar.MetaAlt], err)
	}

	const description = `<b>Live</b> music <img src=x onerror=alert(1)><a href="javascript:alert(1)" onclick="x" title="t">more</a>`
	for i, role := range []calendar.Role{calendar.RoleAuthor, calendar.RoleAdministrator} {
		term, err := w.app.Categories.Create(w.ctx, w.callers[role], app.TermInput{Name: ptr("Jazz " + string(rune('A'+i))), Description: ptr(description)})
		w.must(err)
		if want := `<b>Live</b> music <a href="alert(1)" title="t">more</a>`; term.Description != want {
			t.Errorf("an %s's category description stored %q, want %q", role, term.Description, want)
		}
	}
}

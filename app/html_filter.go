package app

import (
	"calendar/app/calendar"
	"calendar/app/wordpress"
)

// What a writer's HTML becomes on save, as WordPress sets its filters
// (kses_init): a writer with unfiltered_html (administrators and editors on
// a single site) stores titles, descriptions and excerpts as sent; anyone
// else's title goes through wp_filter_kses and description and excerpt
// through wp_filter_post_kses, so that no script, event handler or
// javascript: URL of an author or a contributor reaches the pages that
// render them. Two texts are filtered whoever writes them: a term's
// description (WordPress adds wp_filter_kses to pre_term_description for
// every role) and what an import brings from another site (foreign HTML:
// the post filter, whoever the import writes as).
//
// The filters run on what was sent, after its bound is checked: what they
// store can be longer (an "&" becomes "&amp;", a lone "<" "&lt;"), at most
// six times the bound.

// htmlFilter filters a writer's HTML on save, or leaves it (a writer with
// unfiltered_html).
type htmlFilter struct{ on bool }

// htmlFilterFor is the filter of the writer's role.
func htmlFilterFor(writer *calendar.User) htmlFilter {
	return htmlFilter{on: !writer.Can(calendar.CapUnfilteredHTML)}
}

// title is a post title as stored (wp_filter_kses on title_save_pre).
func (f htmlFilter) title(s *string) *string { return f.apply(s, wordpress.KsesPlainList) }

// post is a description, an excerpt or a caption as stored
// (wp_filter_post_kses on content_save_pre and excerpt_save_pre).
func (f htmlFilter) post(s *string) *string { return f.apply(s, wordpress.KsesPostList) }

func (f htmlFilter) apply(s *string, list wordpress.KsesList) *string {
	if !f.on || s == nil {
		return s
	}
	out := wordpress.Kses(*s, list)
	return &out
}

// filterTermDescription is a term description as stored, whoever writes it.
func filterTermDescription(s string) string { return wordpress.Kses(s, wordpress.KsesPlainList) }

// filterForeignHTML is HTML from another site as stored (an import's
// descriptions and excerpts), whoever the import writes as.
func filterForeignHTML(s string) string { return wordpress.Kses(s, wordpress.KsesPostList) }

package app

import (
	"calendar/app/calendar"
	"calendar/app/lru"
	"calendar/app/wordpress"
)

// Descriptions and excerpts are rendered as WordPress' the_content shows
// them (RenderContent): dozens of passes over the text, about 0.1 ms a
// kilobyte, tens of milliseconds for the worst 64 KiB. Lists of venues and
// organizers render every item on every request, so the rendered texts are
// kept by post revision, within a budget of bytes. The cache is in memory
// only (as is viewCache's, which holds them inside rendered events): when
// the rules of RenderContent change, a restart is all it takes for no text
// rendered by the old rules to be served, and answers' ETags, which hash
// the body, change with them.

// contentBudget bounds the bytes of rendered texts kept.
const contentBudget = 32 << 20

type contentKey struct{ id, seq int64 }

type renderedTexts struct{ description, excerpt string }

func newContentCache() *lru.Cache[contentKey, renderedTexts] {
	return lru.NewCosted[contentKey, renderedTexts](contentBudget, func(r renderedTexts) int {
		return len(r.description) + len(r.excerpt) + 64
	})
}

// texts are the post's description and excerpt rendered; a revision's texts
// never change, so they are kept by its ID and sequence.
func (s *postService) texts(p *calendar.Post) renderedTexts {
	key := contentKey{p.ID, p.Seq}
	if key.seq != 0 {
		if kept, ok := s.contents.Get(key); ok {
			return kept
		}
	}
	out := renderedTexts{description: wordpress.RenderContent(p.Content), excerpt: wordpress.RenderContent(p.Excerpt)}
	if key.seq != 0 {
		s.contents.Put(key, out)
	}
	return out
}

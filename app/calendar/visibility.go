package calendar

import "slices"

// ReadRule is which posts a caller may read. It is the one rule behind every
// path that shows a post: a single read, and lists, searches, totals, pages,
// facets, counts, feeds, the change feed and embedded venues and organizers.
// Lists carry it in their index query (PostQuery.Reader), so totals and pages
// count only what the caller may read; single reads and embeds ask Allows.
//
// The zero value is a visitor's: published posts only. A query that forgets
// to set it so shows less, never more.
type ReadRule struct {
	// All: every post, whatever its status or author: editors and
	// administrators (WordPress' edit_others_posts and read_private_posts),
	// and the service's own bookkeeping.
	All bool
	// Author, when not 0, also reads their own posts in OwnStatuses.
	Author int64
}

// PublicStatuses are readable by anyone; OwnStatuses by the post's author
// (contributors and authors), who never read their own trash.
var (
	PublicStatuses = []string{StatusPublish, StatusInherit}
	OwnStatuses    = []string{StatusPublish, StatusFuture, StatusDraft, StatusPending, StatusPrivate}
)

// ReadEverything is the rule of the service's own queries (unlinking a
// removed venue from every event, for one).
var ReadEverything = ReadRule{All: true}

// ReadRuleOf is the rule of a caller; nil is anonymous.
func ReadRuleOf(actor *User) ReadRule {
	switch {
	case actor.Can(CapEditOthersPosts) && actor.Can(CapReadPrivatePosts):
		return ReadRule{All: true}
	case actor.Can(CapEditPosts):
		return ReadRule{Author: actor.ID}
	}
	return ReadRule{}
}

// Allows reports whether the rule lets its caller read a post of that status
// and author.
func (r ReadRule) Allows(status string, author int64) bool {
	return r.All || slices.Contains(PublicStatuses, status) || (r.Author != 0 && author == r.Author && slices.Contains(OwnStatuses, status))
}

// CanRead is the rule applied to one post.
func CanRead(actor *User, p *Post) bool { return ReadRuleOf(actor).Allows(p.Status, p.Author) }

package app

import "net/http"

// Post statuses a client may ask for or set.
const (
	StatusPublish = "publish"
	StatusFuture  = "future"
	StatusDraft   = "draft"
	StatusPending = "pending"
	StatusPrivate = "private"
	StatusTrash   = "trash"
)

// PostStatuses are the statuses WordPress registers for posts.
var PostStatuses = []string{StatusPublish, StatusFuture, StatusDraft, StatusPending, StatusPrivate, StatusTrash}

func validStatus(s string) bool { return contains(PostStatuses, s) }

// isPublished: statuses that count as published for permissions.
func isPublished(status string) bool {
	return status == StatusPublish || status == StatusFuture || status == StatusPrivate
}

// resolveStatus is the status a write stores: callers who may publish get what
// they ask (publish by default); others see publish and future become pending,
// and get draft by default.
func resolveStatus(actor *User, requested string) string {
	if actor.Can(CapPublishPosts) {
		if requested == "" {
			return StatusPublish
		}
		return requested
	}
	switch requested {
	case "":
		return StatusDraft
	case StatusPublish, StatusFuture:
		return StatusPending
	}
	return requested
}

// listStatuses is the set of statuses a caller lists: what was asked (checked),
// or by default everything but trash for those who may edit posts and publish
// for the others.
func listStatuses(actor *User, v Values) ([]string, error) {
	asked, ok := v.Strings("status")
	if !ok {
		if actor.Can(CapEditPosts) {
			return []string{StatusPublish, StatusFuture, StatusDraft, StatusPending, StatusPrivate}, nil
		}
		return []string{StatusPublish}, nil
	}
	if len(asked) == 0 {
		return nil, ErrInvalidParam("status", "status must list at least one status.")
	}
	for _, s := range asked {
		if !validStatus(s) || (!actor.Can(CapEditPosts) && s != StatusPublish) {
			return nil, ErrInvalidParam("status", "Invalid parameter.")
		}
	}
	if !actor.Can(CapEditPosts) && len(asked) != 1 {
		return nil, ErrInvalidParam("status", "Invalid parameter.")
	}
	return asked, nil
}

// canRead: published posts are public; editors read everything (scheduled
// posts of others included); authors and contributors read their own (not in
// trash).
func canRead(actor *User, p *Post) bool {
	switch {
	case p.Status == StatusPublish:
		return true
	case actor == nil:
		return false
	case actor.Can(CapEditOthersPosts) && actor.Can(CapReadPrivatePosts):
		return true
	}
	return p.Author == actor.ID && p.Status != StatusTrash && actor.Can(CapEditPosts)
}

// canEdit: editors edit anything; authors their own; contributors their own
// unpublished posts.
func canEdit(actor *User, p *Post) bool {
	if actor == nil {
		return false
	}
	if p.Author != actor.ID {
		return actor.Can(CapEditOthersPosts)
	}
	if isPublished(p.Status) {
		return actor.Can(CapEditPublishedPosts)
	}
	return actor.Can(CapEditPosts)
}

// canDelete follows canEdit with the delete capabilities.
func canDelete(actor *User, p *Post) bool {
	if actor == nil {
		return false
	}
	if p.Author != actor.ID {
		return actor.Can(CapDeleteOthersPosts)
	}
	if isPublished(p.Status) {
		return actor.Can(CapDeletePublishedPosts)
	}
	return actor.Can(CapDeletePosts)
}

// checkPassword reports whether a password-protected post's content may be shown:
// to those who may edit it, or to whoever sends its password.
func passwordAccepted(actor *User, p *Post, v Values) bool {
	if p.Password == "" || canEdit(actor, p) {
		return true
	}
	given, _ := v.String("password")
	return given == p.Password
}

// errNotAccessible is the plugin's 403 for a post the caller may not read.
func errNotAccessible(kind string) *Error {
	return NewError(http.StatusForbidden, kind+"-not-accessible", "The requested "+kind+" is not accessible")
}

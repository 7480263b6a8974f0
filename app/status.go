package app

import (
	"crypto/subtle"
	"slices"
)

// Post statuses a client may ask for or set.
const (
	StatusPublish = "publish"
	StatusFuture  = "future"
	StatusDraft   = "draft"
	StatusPending = "pending"
	StatusPrivate = "private"
	StatusTrash   = "trash"
	// StatusInherit is an attachment's: readable by anyone, as WordPress'
	// unattached uploads. StatusUploading is one whose files are being
	// written: readable by no one, and swept if never finished.
	StatusInherit   = "inherit"
	StatusUploading = "uploading"
)

// PostStatuses are the statuses WordPress registers for posts.
var PostStatuses = []string{StatusPublish, StatusFuture, StatusDraft, StatusPending, StatusPrivate, StatusTrash}

func validStatus(s string) bool { return slices.Contains(PostStatuses, s) }

// isPublished: statuses that count as published for permissions.
func isPublished(status string) bool {
	return status == StatusPublish || status == StatusFuture || status == StatusPrivate
}

// statusFor is the status a write stores, as WordPress decides it: callers
// who may publish get what they ask (publish by default); the others get
// draft by default, and publish becomes pending (the plugin's own tests pin
// it), while scheduling and private posts, which WordPress refuses them, are
// a 403.
func statusFor(actor *User, requested string) (string, error) {
	if actor.Can(CapPublishPosts) {
		if requested == "" {
			return StatusPublish, nil
		}
		return requested, nil
	}
	switch requested {
	case "":
		return StatusDraft, nil
	case StatusPublish:
		return StatusPending, nil
	case StatusFuture:
		return "", NewError(KindForbidden, "rest_cannot_publish", "Sorry, you are not allowed to publish posts in this post type.")
	case StatusPrivate:
		return "", NewError(KindForbidden, "rest_cannot_publish", "Sorry, you are not allowed to create private posts in this post type.")
	}
	return requested, nil
}

// listStatuses is the set of statuses a caller lists: what was asked (checked),
// or by default everything but trash for those who may edit posts and publish
// for the others.
func listStatuses(actor *User, statuses *[]string) ([]string, error) {
	if statuses == nil {
		if actor.Can(CapEditPosts) {
			return []string{StatusPublish, StatusFuture, StatusDraft, StatusPending, StatusPrivate}, nil
		}
		return []string{StatusPublish}, nil
	}
	asked := *statuses
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

// unlocked reports whether a password-protected post's content may be shown:
// to those who may edit it, or to a caller who sends its password (given, ""
// when none). Passwords are guessed against the throttle: a wrong one counts
// against the caller's address for this post, and an address the throttle
// refuses is not let in, not even with the right password: the error then
// says how long it must wait (lists show the post masked).
func (s *postService) unlocked(caller Caller, p *Post, given string) (bool, error) {
	if p.Password == "" || canEdit(caller.User, p) {
		return true, nil
	}
	if given == "" {
		return false, nil
	}
	subject := postSubject(p.ID)
	if wait := s.throttle.Wait(subject, caller.Client); wait > 0 {
		return false, ErrTooManyAttempts(wait)
	}
	if subtle.ConstantTimeCompare([]byte(given), []byte(p.Password)) == 1 {
		s.throttle.Succeeded(subject, caller.Client)
		return true, nil
	}
	s.throttle.Failed(subject, caller.Client) // not held: a list may try a password on fifty posts at once
	return false, nil
}

// shown is unlocked for the lists and embeds that show a post masked rather
// than refuse it.
func (s *postService) shown(caller Caller, p *Post, given string) bool {
	ok, _ := s.unlocked(caller, p, given)
	return ok
}

// errNotAccessible is the plugin's 403 for a post the caller may not read.
func errNotAccessible(kind string) *Error {
	return NewError(KindForbidden, kind+"-not-accessible", "The requested "+kind+" is not accessible")
}

package app

import (
	"context"
	"crypto/subtle"
)

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
// to those who may edit it, or to a caller who sends its password (the
// password parameter of v, which may be nil). Passwords are guessed against
// the throttle: a wrong one counts against the client for this post, and a
// client the throttle refuses is not let in, not even with the right one: the
// error then says how long it must wait (lists show the post masked).
func (s *postService) unlocked(ctx context.Context, actor *User, p *Post, v Values) (bool, error) {
	if p.Password == "" || canEdit(actor, p) {
		return true, nil
	}
	given, _ := v.String("password")
	if given == "" {
		return false, nil
	}
	subject, client := postSubject(p.ID), clientOf(ctx)
	if wait := s.throttle.Wait(subject, client); wait > 0 {
		return false, ErrTooManyAttempts(wait)
	}
	if subtle.ConstantTimeCompare([]byte(given), []byte(p.Password)) == 1 {
		s.throttle.Succeeded(subject, client)
		return true, nil
	}
	s.throttle.Failed(subject, client) // not held: a list may try a password on fifty posts at once
	return false, nil
}

// shown is unlocked for the lists and embeds that show a post masked rather
// than refuse it.
func (s *postService) shown(ctx context.Context, actor *User, p *Post, v Values) bool {
	ok, _ := s.unlocked(ctx, actor, p, v)
	return ok
}

// errNotAccessible is the plugin's 403 for a post the caller may not read.
func errNotAccessible(kind string) *Error {
	return NewError(KindForbidden, kind+"-not-accessible", "The requested "+kind+" is not accessible")
}

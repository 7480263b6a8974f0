package app

import (
	"crypto/subtle"

	"calendar/app/calendar"
)

// permit checks what only some callers may send, after the permission to
// write and before anything is written: another author (editors only), and
// the status (statusFor). It returns the status to store; "" keeps the
// stored one on an update that sends none. It decides permissions only: the
// image a write sends is sideloaded after it, as a step of its own
// (postImages.sideload).
func permit(actor *calendar.User, f *postFields, creating bool) (string, error) {
	if f.author != 0 && f.author != actor.ID && !actor.Can(calendar.CapEditOthersPosts) {
		return "", calendar.ErrForbidden(actor)
	}
	if f.status == "" && !creating {
		return "", nil
	}
	return statusFor(actor, f.status)
}

// statusFor is the status a write stores, as WordPress decides it: callers
// who may publish get what they ask (publish by default); the others get
// draft by default, and publish becomes pending (the plugin's own tests pin
// it), while scheduling and private posts, which WordPress refuses them, are
// a 403.
func statusFor(actor *calendar.User, requested string) (string, error) {
	if actor.Can(calendar.CapPublishPosts) {
		if requested == "" {
			return calendar.StatusPublish, nil
		}
		return requested, nil
	}
	switch requested {
	case "":
		return calendar.StatusDraft, nil
	case calendar.StatusPublish:
		return calendar.StatusPending, nil
	case calendar.StatusFuture:
		return "", calendar.NewError(calendar.KindForbidden, "rest_cannot_publish", "Sorry, you are not allowed to publish posts in this post type.")
	case calendar.StatusPrivate:
		return "", calendar.NewError(calendar.KindForbidden, "rest_cannot_publish", "Sorry, you are not allowed to create private posts in this post type.")
	}
	return requested, nil
}

// listStatuses is the set of statuses a caller lists: what was asked (checked),
// or by default everything but trash for those who may edit posts and publish
// for the others.
func listStatuses(actor *calendar.User, statuses *[]string) ([]string, error) {
	if statuses == nil {
		if actor.Can(calendar.CapEditPosts) {
			return []string{calendar.StatusPublish, calendar.StatusFuture, calendar.StatusDraft, calendar.StatusPending, calendar.StatusPrivate}, nil
		}
		return []string{calendar.StatusPublish}, nil
	}
	asked := *statuses
	if len(asked) == 0 {
		return nil, calendar.ErrInvalidParam("status", "status must list at least one status.")
	}
	for _, s := range asked {
		if !calendar.ValidStatus(s) || (!actor.Can(calendar.CapEditPosts) && s != calendar.StatusPublish) {
			return nil, calendar.ErrInvalidParam("status", "Invalid parameter.")
		}
	}
	if !actor.Can(calendar.CapEditPosts) && len(asked) != 1 {
		return nil, calendar.ErrInvalidParam("status", "Invalid parameter.")
	}
	return asked, nil
}

// canEdit: editors edit anything; authors their own; contributors their own
// unpublished posts.
func canEdit(actor *calendar.User, p *calendar.Post) bool {
	if actor == nil {
		return false
	}
	if p.Author != actor.ID {
		return actor.Can(calendar.CapEditOthersPosts)
	}
	if calendar.IsPublished(p.Status) {
		return actor.Can(calendar.CapEditPublishedPosts)
	}
	return actor.Can(calendar.CapEditPosts)
}

// canDelete follows canEdit with the delete capabilities.
func canDelete(actor *calendar.User, p *calendar.Post) bool {
	if actor == nil {
		return false
	}
	if p.Author != actor.ID {
		return actor.Can(calendar.CapDeleteOthersPosts)
	}
	if calendar.IsPublished(p.Status) {
		return actor.Can(calendar.CapDeletePublishedPosts)
	}
	return actor.Can(calendar.CapDeletePosts)
}

// unlocked reports whether a password-protected post's content may be shown:
// to those who may edit it, or to a caller who sends its password (given, ""
// when none). Passwords are guessed against the throttle: a wrong one counts
// against the caller's address for this post, and against the post from all
// addresses together (a shared subject: anyone may try its password). A
// caller the throttle refuses is not let in, not even with the right
// password: the error then says how long it must wait (lists show the post
// masked).
func (s *postService) unlocked(caller Caller, p *calendar.Post, given string) (bool, error) {
	if p.Password == "" || canEdit(caller.User, p) {
		return true, nil
	}
	if given == "" {
		return false, nil
	}
	subject := postSubject(p.ID)
	if wait := s.throttle.Reserve(subject, caller.Client); wait > 0 {
		return false, ErrTooManyAttempts(wait)
	}
	if subtle.ConstantTimeCompare([]byte(given), []byte(p.Password)) == 1 {
		s.throttle.Release(subject)
		s.throttle.Succeeded(subject, caller.Client)
		return true, nil
	}
	s.throttle.Failed(subject, caller.Client) // not held: a list may try a password on fifty posts at once
	return false, nil
}

// shown is unlocked for the lists and embeds that show a post masked rather
// than refuse it.
func (s *postService) shown(caller Caller, p *calendar.Post, given string) bool {
	ok, _ := s.unlocked(caller, p, given)
	return ok
}

package calendar

import "slices"

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

func ValidStatus(s string) bool { return slices.Contains(PostStatuses, s) }

// IsPublished: statuses that count as published for permissions.
func IsPublished(status string) bool {
	return status == StatusPublish || status == StatusFuture || status == StatusPrivate
}

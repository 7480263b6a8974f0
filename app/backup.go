package app

import (
	"context"
	"io"
	"time"

	"calendar/app/calendar"
)

// Backup is an archive of the whole store about to be written: every record
// as of one instant and every uploaded file they name. The search index is
// not in it: a start rebuilds it from the store.
type Backup struct {
	// Name is the archive's file name: calendar-backup-<UTC time>.tar.gz.
	Name  string
	store calendar.Archiver
}

// Write writes the archive to w as it is read from the store, never whole
// in memory (its format: docs/backup.md).
func (b *Backup) Write(ctx context.Context, w io.Writer) error { return b.store.Backup(ctx, w) }

// Backup gives an administrator a backup of a store that can write one
// while it serves: the embedded store. It holds every user's password hash,
// hence the capability no other role has. MongoDB is backed up with its own
// tools, which copy its GridFS files along.
func (a *App) Backup(ctx context.Context, caller Caller) (*Backup, error) {
	if !caller.Can(calendar.CapExport) {
		return nil, calendar.ErrForbidden(caller.User)
	}
	store, ok := a.store.(calendar.Archiver)
	if !ok {
		return nil, calendar.NewError(calendar.KindNotImplemented, "backup_not_supported",
			"This route backs up the embedded store only. Back MongoDB up with mongodump and restore it with mongorestore "+
				"(the uploaded files are in its GridFS collections, so they come along): see docs/operations.md, Backup and restore.")
	}
	return &Backup{Name: "calendar-backup-" + time.Now().UTC().Format("20060102T150405Z") + ".tar.gz", store: store}, nil
}

package app_test

import (
	"bytes"
	"testing"

	"calendar/app/calendar"
)

// TestOnlyAnAdministratorMayTakeABackup: the archive holds every user's
// password hash, so every other role is refused (403, 401 anonymous)
// before the store is asked; an administrator's backup is a gzip stream
// under its dated name.
func TestOnlyAnAdministratorMayTakeABackup(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	for role, caller := range w.callers {
		b, err := w.app.Backup(w.ctx, caller)
		if role != calendar.RoleAdministrator {
			if e := calendar.AsError(err); err == nil || e.Kind != calendar.KindForbidden || e.Code != "rest_forbidden" {
				t.Fatalf("%s: %v, want rest_forbidden", role, err)
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		var archive bytes.Buffer
		if err := b.Write(w.ctx, &archive); err != nil {
			t.Fatal(err)
		}
		if !bytes.HasPrefix(archive.Bytes(), []byte{0x1f, 0x8b}) || len(b.Name) != len("calendar-backup-20260101T000000Z.tar.gz") {
			t.Fatalf("%s: %d bytes starting % x", b.Name, archive.Len(), archive.Bytes()[:min(archive.Len(), 4)])
		}
	}
	if _, err := w.app.Backup(w.ctx, visitor); err == nil || calendar.AsError(err).Kind != calendar.KindUnauthorized {
		t.Fatalf("anonymous: %v, want 401", err)
	}
}

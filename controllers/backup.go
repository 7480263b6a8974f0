package controllers

import (
	"context"
	"net/http"

	"github.com/go-fuego/fuego"

	"calendar/app"
	"calendar/app/calendar"
)

// backupService is what the backup route asks of the domain (app.App).
type backupService interface {
	Backup(ctx context.Context, caller app.Caller) (*app.Backup, error)
}

// backupType is the media type of a backup: a gzipped tar stream.
const backupType = "application/gzip"

// mountBackup registers GET {base_url}/vendor/admin/v1/backup: the store's
// archive, streamed as it is read (docs/backup.md).
func mountBackup(api *API, backups backupService) {
	handle(api, AdminNamespace, []string{http.MethodGet}, "/backup", nil, func(r *Request) (streamBody, error) {
		b, err := backups.Backup(r.Context(), r.Caller)
		if err != nil {
			return streamBody{}, err
		}
		return streamBody{contentType: backupType, fileName: b.Name, write: b.Write}, nil
	}, fuego.OptionSummary("Back the store up"),
		fuego.OptionDescription("A consistent archive of the embedded store while it serves: every record as of one instant "+
			"and every uploaded file they name, as a gzipped tar stream (the search index is rebuilt from it). "+
			"calendar restore reads it back. Administrators only; on MongoDB, 501: use mongodump."),
		fuego.OptionAddResponse(http.StatusOK, "The archive: manifest.json, calendar.db, uploads/...",
			fuego.Response{Type: "", ContentTypes: []string{backupType}}), mayAnswer(calendar.KindNotImplemented))
}

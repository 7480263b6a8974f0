package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"

	"calendar/repository/bolt"
)

// restoreMaxBytes bounds what a restore writes (the database and the
// uploads), whatever an archive's manifest declares.
const restoreMaxBytes = 1 << 40

// restore fills the configured data directory, which must be empty, from a
// backup the embedded store wrote (GET /vendor/admin/v1/backup), with the
// service stopped; the next start builds the search index from it. FILE is
// the archive, "-" standard input. MongoDB is restored with mongorestore
// (docs/backup.md).
func restore(args []string, getenv func(string) string, out io.Writer) error {
	cfg, files, err := loadConfigArgs(args, getenv, out)
	if err != nil {
		return err
	}
	if len(files) != 1 {
		return errors.New("restore takes one archive after its flags: calendar restore [flags] FILE (- reads standard input)")
	}
	if cfg.MongoURI != "" {
		return fmt.Errorf("%s is set: restore fills the embedded store's data directory; restore MongoDB with mongorestore (docs/operations.md, Backup and restore)",
			cfg.name("CALENDAR_MONGODB_URI"))
	}
	var archive io.Reader = os.Stdin
	if files[0] != "-" {
		f, err := os.Open(files[0])
		if err != nil {
			return err
		}
		defer f.Close()
		archive = f
	}
	m, err := bolt.Restore(cfg.DataDir, bufio.NewReaderSize(archive, 1<<20), bolt.RestoreLimits{MaxBytes: restoreMaxBytes})
	if err != nil {
		return fmt.Errorf("restore into %s: %w", cfg.DataDir, err)
	}
	fmt.Fprintf(out, "restored the backup of %s (%d posts, %d terms, %d users, %d files) into %s; "+
		"start the service: it builds the search index from the store\n",
		m.Created.Format("2006-01-02 15:04:05 UTC"), m.Counts.Posts, m.Counts.Terms, m.Counts.Users, m.Counts.Files, cfg.DataDir)
	return nil
}

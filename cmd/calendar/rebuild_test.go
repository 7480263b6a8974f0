package main

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"calendar/app"
	"calendar/index"
)

// The first log line of every rebuild says its cause, from which mapping
// version and languages to which, and what answers meanwhile: the old index,
// or nothing (503). Each case leaves a data directory as the cause would,
// then starts the service on it (or runs calendar reindex).
func TestARebuildsFirstLogLineSaysItsCauseAndWhatAnswersMeanwhile(t *testing.T) {
	t.Parallel()
	this := index.ThisRelease
	older := index.Versions{Mapping: this.Mapping - 1, ServesFrom: this.Mapping - 1}
	unserved := index.Versions{Mapping: this.ServesFrom - 1, ServesFrom: this.ServesFrom - 1} // older than the oldest this release serves
	const inPlace, beside = "building the index from the store in place", "building a new index beside the live one, which serves meanwhile"
	for _, c := range []struct {
		name      string
		prepare   func(t *testing.T, dir string) // the data directory the start finds
		release   index.Versions                 // the release started
		languages string                         // its CALENDAR_LANGUAGES
		message   string                         // the line's message begins so
		want      string                         // its attributes, as JSON
	}{
		{"no index", func(*testing.T, string) {}, this, "", inPlace,
			fmt.Sprintf(`"cause":"no_index","why":"there was no index (a first start, a restore, or the index was removed)","from_version":0,"to_version":%d,"from_languages":"none","to_languages":"none","meanwhile":%q`, this.Mapping, meanwhileNothing)},
		{"a mapping version this release no longer serves", indexAs(unserved, nil), this, "", inPlace,
			fmt.Sprintf(`"cause":"mapping_version","why":"the index is of mapping version %d, which this release does not serve: it builds version %d and serves versions %d to %d","from_version":%d,"to_version":%d,"from_languages":"none","to_languages":"none","meanwhile":%q`,
				unserved.Mapping, this.Mapping, this.ServesFrom, this.Mapping, unserved.Mapping, this.Mapping, meanwhileNothing)},
		{"a mapping version this release still serves", indexAs(older, nil), index.Versions{Mapping: this.Mapping, ServesFrom: older.Mapping}, "", beside,
			fmt.Sprintf(`"cause":"mapping_version","why":"the index is of mapping version %d, older than version %d this release builds, which still serves versions %d to %d","from_version":%d,"to_version":%d,"from_languages":"none","to_languages":"none","meanwhile":%q`,
				older.Mapping, this.Mapping, older.Mapping, this.Mapping, older.Mapping, this.Mapping, meanwhileOldIndex)},
		{"other languages", indexAs(this, []string{"fr"}), this, "fr,de", beside,
			fmt.Sprintf(`"cause":"languages","why":"the index stems in fr, the service in fr,de","from_version":%d,"to_version":%d,"from_languages":"fr","to_languages":"fr,de","meanwhile":%q`,
				this.Mapping, this.Mapping, meanwhileOldIndex)},
		{"a store restored under its index", indexAheadOfTheStore, this, "", inPlace,
			fmt.Sprintf(`"cause":"store_restored","why":"the index has applied the store's changes up to sequence 10, but the store's last is 0: the store was restored (or replaced) under it","from_version":%d,"to_version":%d,"from_languages":"none","to_languages":"none","meanwhile":%q`,
				this.Mapping, this.Mapping, meanwhileNothing)},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			dir, addr := t.TempDir(), freeAddr(t)
			c.prepare(t, dir)
			logs := &syncWriter{b: &strings.Builder{}}
			stop := serveAs(t, env(map[string]string{"CALENDAR_ADDR": addr, "CALENDAR_DATA_DIR": dir, "CALENDAR_ADMIN_PASSWORD": childPassword,
				"CALENDAR_LANGUAGES": c.languages}), c.release, nil, logs)
			var first string
			waitFor(t, func() bool {
				first = lineStarting(logs.String(), c.message)
				return first != ""
			}, func() string { return "a line " + c.message + "; logs:\n" + logs.String() })
			stop()
			if !strings.Contains(first, c.want) {
				t.Errorf("the rebuild's first line:\n%s\nwant in it:\n%s", first, c.want)
			}
		})
	}

	t.Run("a store restored under a running replica", func(t *testing.T) {
		t.Parallel()
		live, err := index.Open(t.TempDir(), "de")
		if err != nil {
			t.Fatal(err)
		}
		defer live.Close()
		var logs strings.Builder
		logReindex(slog.New(slog.NewJSONHandler(&logs, nil)), live, this.WithLanguages([]string{"de"}))(app.ReindexStatus{
			State: app.ReindexBuilding, Reason: app.ReindexStoreRestored, Why: "the store was restored"})
		want := fmt.Sprintf(`"cause":"store_restored","why":"the store was restored","from_version":%d,"to_version":%d,"from_languages":"de","to_languages":"de","meanwhile":%q`,
			this.Mapping, this.Mapping, meanwhileNothing)
		if first := lineStarting(logs.String(), "building a new index beside the live one, which is of another store state"); !strings.Contains(first, want) {
			t.Errorf("the rebuild's first line:\n%s\nwant in it:\n%s", logs.String(), want)
		}
	})

	t.Run("calendar reindex with other languages than the index's", func(t *testing.T) {
		t.Parallel()
		dir := t.TempDir()
		indexAs(this, []string{"fr", "de"})(t, dir)
		var logs strings.Builder
		if err := reindex(context.Background(), nil, env(map[string]string{"CALENDAR_DATA_DIR": dir}), &logs); err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{`"level":"WARN","msg":"the index replaced stemmed in other languages than this command's settings`,
			fmt.Sprintf(`"cause":"requested","why":"calendar reindex","from_version":%d,"to_version":%d,"from_languages":"fr,de","to_languages":"none","meanwhile":%q`,
				this.Mapping, this.Mapping, meanwhileNoService)} {
			if !strings.Contains(logs.String(), want) {
				t.Errorf("no %s in the logs:\n%s", want, logs.String())
			}
		}
	})

	// calendar reindex reads the service's settings (its environment, and
	// the flags the service takes): run with them, its index is the one the
	// next start opens, which builds nothing.
	t.Run("calendar reindex with the service's settings, then a start", func(t *testing.T) {
		t.Parallel()
		for name, args := range map[string][]string{"from the environment": nil, "from the flags": {"-languages", "fr,de"}} {
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				settings := map[string]string{"CALENDAR_DATA_DIR": t.TempDir(), "CALENDAR_ADMIN_PASSWORD": childPassword}
				indexAs(this, []string{"fr"})(t, settings["CALENDAR_DATA_DIR"]) // a service that stemmed in French alone left it
				if args == nil {
					settings["CALENDAR_LANGUAGES"] = "fr,de"
				}
				var reindexed strings.Builder
				if err := reindex(context.Background(), args, env(settings), &reindexed); err != nil {
					t.Fatal(err)
				}
				want := fmt.Sprintf(`"cause":"requested","why":"calendar reindex","from_version":%d,"to_version":%d,"from_languages":"fr","to_languages":"fr,de"`, this.Mapping, this.Mapping)
				if !strings.Contains(reindexed.String(), want) {
					t.Errorf("no %s in calendar reindex's logs:\n%s", want, reindexed.String())
				}
				settings["CALENDAR_LANGUAGES"] = "fr,de"
				logs := &syncWriter{b: &strings.Builder{}}
				_, stop := serveInProcess(t, settings, logs)
				if err := stop(); err != nil {
					t.Fatal(err)
				}
				if line := lineStarting(logs.String(), "building"); line != "" {
					t.Errorf("the start after calendar reindex rebuilt the index:\n%s", line)
				}
			})
		}
	})
}

// indexAs leaves an index of those versions, stemming in languages, in a
// data directory (as a release of them would).
func indexAs(versions index.Versions, languages []string) func(*testing.T, string) {
	return func(t *testing.T, dir string) {
		t.Helper()
		idx, err := index.OpenVersions(dir, versions.WithLanguages(languages))
		if err != nil {
			t.Fatal(err)
		}
		if err := idx.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

// indexAheadOfTheStore leaves an index that has applied changes up to
// sequence 10 beside a store that has none: the store was put back under it.
func indexAheadOfTheStore(t *testing.T, dir string) {
	t.Helper()
	idx, err := index.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := idx.SetAppliedSeq(context.Background(), 10); err != nil {
		t.Fatal(err)
	}
	if err := idx.Close(); err != nil {
		t.Fatal(err)
	}
}

// lineStarting is the first JSON log line whose message starts so, "" when
// none.
func lineStarting(logs, message string) string {
	for _, l := range strings.Split(logs, "\n") {
		var entry struct{ Msg string }
		if json.Unmarshal([]byte(l), &entry) == nil && strings.HasPrefix(entry.Msg, message) {
			return l
		}
	}
	return ""
}

package main

import (
	"fmt"
	"io"
	"runtime/debug"
	"strings"

	"github.com/prometheus/client_golang/prometheus"
)

// version and commit are what a release build names itself by, set at
// build time: go build -ldflags "-X main.version=1.4.0 -X main.commit=..."
// ./cmd/calendar. Empty, they are what the toolchain recorded (a tag, the
// checkout's revision), else "devel" and "unknown": a build without its
// repository (the image's: .git stays out of it) records neither.
var version, commit string

// build is what the binary knows of itself: its version, the commit it was
// built from ("-dirty" when the tree had changes; "unknown" when the build
// recorded none, as go run and go test do) and the Go that built it.
type build struct{ Version, Commit, GoVersion string }

// thisBuild reads the build information the Go toolchain writes into the
// binary (runtime/debug.ReadBuildInfo), the version set at build time first.
func thisBuild() build {
	info, _ := debug.ReadBuildInfo()
	return buildOf(info, version, commit)
}

// buildOf is the build info names (nil: none), with the version and the
// commit a release build set over what it recorded.
func buildOf(info *debug.BuildInfo, released, releasedCommit string) build {
	b := build{Version: released, Commit: releasedCommit}
	if info != nil {
		b.GoVersion = info.GoVersion
		if b.Version == "" && info.Main.Version != "" && info.Main.Version != "(devel)" {
			b.Version = strings.TrimPrefix(info.Main.Version, "v")
		}
		var revision string
		var modified bool
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				revision = s.Value
			case "vcs.modified":
				modified = s.Value == "true"
			}
		}
		if b.Commit == "" && revision != "" {
			b.Commit = revision[:min(len(revision), 12)]
			if modified {
				b.Commit += "-dirty"
			}
		}
	}
	if b.Version == "" {
		b.Version = "devel"
	}
	if b.Commit == "" {
		b.Commit = "unknown"
	}
	return b
}

func (b build) String() string {
	return fmt.Sprintf("calendar %s (commit %s, %s)", b.Version, b.Commit, b.GoVersion)
}

// printVersion is `calendar version` (and -version): one line.
func printVersion(out io.Writer) error {
	_, err := fmt.Fprintln(out, thisBuild())
	return err
}

// buildInfoMetric is calendar_build_info: always 1, its labels the build's,
// as Prometheus' own *_build_info series are.
func buildInfoMetric(b build) prometheus.Collector {
	g := prometheus.NewGauge(prometheus.GaugeOpts{
		Name:        "calendar_build_info",
		Help:        "The version, commit and Go version of the running binary; always 1.",
		ConstLabels: prometheus.Labels{"version": b.Version, "commit": b.Commit, "goversion": b.GoVersion},
	})
	g.Set(1)
	return g
}

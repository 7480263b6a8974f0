package ical

import (
	"archive/zip"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// BenchmarkAHostileFeedsZones describes the zones of a feed of 1,000 events
// in 400 zones, each in a year drawn from 1900 to 2400, as the feed does (an
// event at a time), the years kept from the feed before: what each request
// but the first costs. The first, with nothing kept, is reported apart.
//
//	go test ./app/ical -run '^$' -bench BenchmarkAHostileFeedsZones -benchtime 20x
func BenchmarkAHostileFeedsZones(b *testing.B) {
	names := tzNames(b, 400)
	events := hostileYears(b, names, 1000/len(names)+1)[:1000]
	known := newYearBlocks(KeptZoneBytes)
	start := time.Now()
	first := describe(known, events)
	cold := time.Since(start)
	b.ResetTimer()
	for b.Loop() {
		written(describe(known, events))
	}
	b.ReportMetric(float64(cold.Microseconds())/1e3, "first-ms")
	b.ReportMetric(float64(first.years), "zone-years")
	b.ReportMetric(float64(len(written(first))), "vtimezone-bytes")
	if known.computed.Load() != int64(first.years) {
		b.Fatalf("%d years worked out again", known.computed.Load()-int64(first.years))
	}
}

// tzNames are the first n zones of the tz database Go ships.
func tzNames(b *testing.B, n int) []string {
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		b.Skip(err)
	}
	r, err := zip.OpenReader(filepath.Join(strings.TrimSpace(string(goroot)), "lib", "time", "zoneinfo.zip"))
	if err != nil {
		b.Skip(err)
	}
	defer r.Close()
	var names []string
	for _, f := range r.File {
		if strings.Contains(f.Name, "/") && !strings.HasPrefix(f.Name, "Etc/") && len(names) < n {
			names = append(names, f.Name)
		}
	}
	return names
}

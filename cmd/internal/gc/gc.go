// Package gc sets the garbage collector the way the service runs best, for
// the service and for the benchmark that measures it.
package gc

import (
	"os"
	"runtime/debug"
)

// Percent and Limit are the defaults: the live heap of a serving process is
// small (tens of MB at 1M events, the index being files mapped into memory),
// so collecting at every doubling spent about 13 % of the CPU of a warm
// list load; at 400 % that work shrinks fourfold (list throughput +17 to 27 %
// in docs/benchmarks.md), and the soft limit makes the collector work harder
// rather than let a large heap (an index rebuild) grow past it.
const (
	Percent = 400
	Limit   = 1 << 30
)

// Tune applies the defaults unless GOGC or GOMEMLIMIT say otherwise.
func Tune() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(Percent)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(Limit)
	}
}

// ServingRoom is what a serving process holds besides its uploads: the
// heap of lists and writes, with room for the collector to work in.
const ServingRoom = 128 << 20

// DefaultUploadMemory is CALENDAR_UPLOAD_MEMORY's default.
const DefaultUploadMemory = 384 << 20

// FitUploads sets the soft limit of a serving process to the memory its
// uploads may take plus ServingRoom (512 MiB by default), unless
// GOMEMLIMIT says otherwise: at 400 % the collector let garbage of image
// decoding pile up to the 1 GiB limit, where eight hostile uploads held
// 1 GB resident; at 512 MiB they hold 540 MB, and a rebuild of 100,000
// events takes 6 % more CPU.
func FitUploads(uploadMemory int64) {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(uploadMemory + ServingRoom)
	}
}

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

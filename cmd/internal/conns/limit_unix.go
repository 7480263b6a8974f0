//go:build unix

package conns

import (
	"math"
	"syscall"
)

// OpenFileLimit is how many files the process may open (its soft
// RLIMIT_NOFILE), 0 when unknown or unlimited.
//
// It is not raised here: as many servers do, every Go program raises its
// soft limit to (just under) the hard one when it starts (package syscall's
// init, since Go 1.19), and a Setrlimit of its own would stop the runtime
// from giving the processes it starts back their original limit.
func OpenFileLimit() int {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil || uint64(lim.Cur) > math.MaxInt32 {
		return 0
	}
	return int(lim.Cur)
}

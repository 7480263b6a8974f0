package bolt

import (
	"syscall"

	"go.etcd.io/bbolt"
)

// forgetPages drops the store's pages from the process's mapping of its
// file: they stay in the kernel's page cache, and the next read maps them
// again from there. bbolt reads through one mapping of the whole file, so a
// scan of every post (a rebuild) left all of it resident in the process, 1.5
// GB at a million events, beside the index being built. Run within a
// transaction, which keeps bbolt from moving the mapping meanwhile; bbolt
// never writes through it.
func forgetPages(tx *bbolt.Tx) {
	_, _, _ = syscall.Syscall(syscall.SYS_MADVISE, tx.DB().Info().Data, uintptr(tx.Size()), syscall.MADV_DONTNEED)
}

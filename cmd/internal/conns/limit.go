package conns

// DefaultCeiling bounds the default total: each idle connection costs the
// service about 15 KiB (a goroutine, the server's read and write buffers;
// 3,000 of them added 45 MB), so a process allowed a million open files
// still keeps its connections to about 150 MB, well under its 1 GiB heap
// limit (cmd/internal/gc).
const DefaultCeiling = 10_000

// DefaultTotal is the total bound for a process that may open fileLimit
// files (0: unknown or unlimited): three quarters of them, the last quarter
// left to the store, the index's files and outgoing connections.
func DefaultTotal(fileLimit int) int {
	if fileLimit <= 0 {
		return DefaultCeiling
	}
	return max(1, min(fileLimit/4*3, DefaultCeiling))
}

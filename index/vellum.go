package index

import (
	_ "unsafe" // go:linkname, below

	"github.com/blevesearch/vellum"
)

// vellumRegistryBuckets is the size of the table of frozen nodes that
// vellum, which builds every dictionary of the index as an FST, keeps to
// share equal suffixes between terms. Bleve's segment writer and its merger
// build with vellum's defaults (10,000 buckets of 2 nodes) and clear that
// table before each field of each segment: with the index's ~40 fields,
// a one-event segment (every write makes one) cleared 800,000 cells, most
// of a write's index CPU, and the merges that follow as many again. A
// smaller table shares fewer suffixes of large dictionaries (the files of
// an index of 100,000 events are 1.3 % larger, docs/benchmarks.md) and
// costs a tenth to clear.
const vellumRegistryBuckets = 1000

// vellumDefaults are the options vellum builds with when given none, which
// is how bleve's segment writer and merger call it: they offer no setting.
//
//go:linkname vellumDefaults github.com/blevesearch/vellum.defaultBuilderOpts
var vellumDefaults *vellum.BuilderOpts

func init() {
	vellumDefaults.RegistryTableSize = vellumRegistryBuckets
}

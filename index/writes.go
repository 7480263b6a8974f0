package index

import (
	"sync"

	"github.com/blevesearch/bleve/v2"
)

// writes gathers concurrent writes into one bleve batch. Every bleve batch
// builds a segment that the merger must fold in later; under many concurrent
// single-event writes that work, not the writes themselves, bounded the write
// rate. A writer that finds no batch in flight applies everything queued,
// repeatedly, until the queue is empty; the others wait for their turn's
// outcome. Operations keep their arrival order, so the last write of a
// document wins as it would one by one.
type writes struct {
	mu       sync.Mutex
	queue    []*write
	flushing bool
}

type write struct {
	batch   *bleve.Batch
	changes bool // touches documents (not only internal keys): bumps the generation
	done    chan error
}

// bigBatch is the size from which a batch is worth a segment of its own: it
// skips the queue, so that several (a rebuild's) build their segments in
// parallel. Callers that need an order between such batches (catch-up and
// writes) already take turns in app.
const bigBatch = 500

// applyBatch queues b and returns once it is in the index.
func (i *Index) applyBatch(b *bleve.Batch, changesDocuments bool) error {
	if b.Size() >= bigBatch {
		defer i.generation.Add(1)
		return i.bleve.Batch(b)
	}
	w := &write{batch: b, changes: changesDocuments, done: make(chan error, 1)}
	i.writes.mu.Lock()
	i.writes.queue = append(i.writes.queue, w)
	lead := !i.writes.flushing
	i.writes.flushing = true
	i.writes.mu.Unlock()
	if lead {
		i.flush()
	}
	return <-w.done
}

func (i *Index) flush() {
	for {
		i.writes.mu.Lock()
		queued := i.writes.queue
		i.writes.queue = nil
		if len(queued) == 0 {
			i.writes.flushing = false
			i.writes.mu.Unlock()
			return
		}
		i.writes.mu.Unlock()

		b, changes := queued[0].batch, queued[0].changes
		for _, w := range queued[1:] {
			b.Merge(w.batch)
			changes = changes || w.changes
		}
		err := i.bleve.Batch(b)
		if changes {
			i.generation.Add(1)
		}
		for _, w := range queued {
			w.done <- err
		}
	}
}

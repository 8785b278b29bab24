package sim

import "pslab/engine/trace"

// Span is one completed chunk of the simulated timeline.
type Span struct {
	Worker int // worker index, 0-based
	Step   int // the worker's step number, 0-based
	// Resource is where the chunk ran. For an overhead under
	// ReceiveThreads it is the receiving processor (worker or PS), which
	// the overhead does not occupy: such spans may overlap that
	// processor's chunks and each other.
	Resource trace.Resource
	// Op is the index of the operation in the trace's steps. For a parsing
	// overhead operation (Overhead true) it is the communication operation
	// whose overhead it carries.
	Op       int
	Name     string // operation name; overhead operations end in "/overhead"
	Overhead bool   // the chunk is a re-attached parsing overhead (I-15)
	// Chunk is 0 for the first (or only) chunk of a stream, 1 for the
	// second service of a stream split by HTTP/2 multiplexing.
	Chunk int
	Last  bool    // the chunk completes its operation
	Start float64 // seconds since the start of the simulation
	End   float64 // seconds since the start of the simulation
}

// emitSpan reports the chunk of op of worker w that ran on local slot
// local from start to now; tid is its timeline thread (local, or S + local
// for a receive-thread delay).
func (s *sim) emitSpan(w int, local, tid, op int32, chunk uint8, last bool, start float64) {
	sp := Span{
		Worker: w, Step: s.workers[w].done,
		Resource: s.g.slotRes[local], Op: int(s.g.origin[op]), Name: s.g.names[op],
		Overhead: s.g.overhead[op], Chunk: int(chunk), Last: last,
		Start: start, End: s.now,
	}
	if s.onSpan != nil {
		s.onSpan(sp)
	}
	if s.tl != nil {
		s.tl.span(&sp, int(tid), op)
	}
}

package sim

import (
	"bufio"
	"encoding/json"
	"io"
	"strconv"
)

// timeline streams spans as Chrome trace JSON ("JSON Array/Object Format"
// of the Trace Event Format, opened by chrome://tracing and Perfetto): one
// process per worker, one thread per resource, an "X" (complete) event per
// chunk with ts and dur in microseconds. Receive-thread overheads
// (ReceiveThreads) go to a thread "<processor> receive" beside their
// processor (thread S + slot), where they may overlap. Events are written
// as they complete, so memory does not grow with the run.
type timeline struct {
	w     *bufio.Writer
	names [][]byte // JSON-quoted op names
	cats  [][]byte // JSON-quoted categories per thread: resource kind, or "<kind> receive"
	buf   []byte
}

func quote(s string) []byte {
	b, _ := json.Marshal(s) // a string always marshals
	return b
}

func newTimeline(out io.Writer, g *program, workers int) *timeline {
	t := &timeline{w: bufio.NewWriterSize(out, 64<<10), names: make([][]byte, g.nOps), cats: make([][]byte, 2*g.slots)}
	for i, n := range g.names {
		t.names[i] = quote(n)
	}
	for l := range g.slots {
		t.cats[l] = quote(g.slotRes[l].Kind.String())
		t.cats[g.slots+l] = quote(g.slotRes[l].Kind.String() + " receive")
	}
	// the processors that receive transfers: the worker and every PS
	receives := g.nDelay > 0
	isProc := func(l int) bool { return !g.slotRes[l].Kind.IsLink() }
	b := append(t.buf[:0], `{"displayTimeUnit":"ms","traceEvents":[`...)
	first := true
	meta := func(kind string, pid, tid int, name string) {
		if !first {
			b = append(b, ",\n"...)
		}
		first = false
		b = append(b, `{"name":"`...)
		b = append(b, kind...)
		b = append(b, `","ph":"M","pid":`...)
		b = strconv.AppendInt(b, int64(pid), 10)
		b = append(b, `,"tid":`...)
		b = strconv.AppendInt(b, int64(tid), 10)
		b = append(b, `,"args":{"name":`...)
		b = append(b, quote(name)...)
		b = append(b, "}}"...)
	}
	for w := range workers {
		meta("process_name", w, 0, "worker "+strconv.Itoa(w))
		for l := range g.slots {
			meta("thread_name", w, l, g.slotRes[l].String())
		}
		for l := range g.slots {
			if receives && isProc(l) {
				meta("thread_name", w, g.slots+l, g.slotRes[l].String()+" receive")
			}
		}
	}
	t.w.Write(b) // errors are sticky in bufio.Writer and reported by close
	t.buf = b
	return t
}

// span writes one event on thread tid (a local slot, or slots + slot for a
// receive-thread delay).
func (t *timeline) span(sp *Span, tid int, op int32) {
	b := append(t.buf[:0], ",\n{\"name\":"...)
	b = append(b, t.names[op]...)
	b = append(b, `,"cat":`...)
	b = append(b, t.cats[tid]...)
	b = append(b, `,"ph":"X","ts":`...)
	b = strconv.AppendFloat(b, sp.Start*1e6, 'f', 3, 64)
	b = append(b, `,"dur":`...)
	b = strconv.AppendFloat(b, (sp.End-sp.Start)*1e6, 'f', 3, 64)
	b = append(b, `,"pid":`...)
	b = strconv.AppendInt(b, int64(sp.Worker), 10)
	b = append(b, `,"tid":`...)
	b = strconv.AppendInt(b, int64(tid), 10)
	b = append(b, `,"args":{"step":`...)
	b = strconv.AppendInt(b, int64(sp.Step), 10)
	b = append(b, `,"chunk":`...)
	b = strconv.AppendInt(b, int64(sp.Chunk), 10)
	b = append(b, "}}"...)
	t.w.Write(b)
	t.buf = b
}

func (t *timeline) close() error {
	t.w.WriteString("\n]}\n")
	return t.w.Flush()
}

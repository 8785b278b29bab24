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
// chunk with ts and dur in microseconds. Events are written as they
// complete, so memory does not grow with the run.
type timeline struct {
	w     *bufio.Writer
	names [][]byte // JSON-quoted op names
	cats  [][]byte // JSON-quoted resource kinds per local slot
	buf   []byte
}

func quote(s string) []byte {
	b, _ := json.Marshal(s) // a string always marshals
	return b
}

func newTimeline(out io.Writer, g *program, workers int) *timeline {
	t := &timeline{w: bufio.NewWriterSize(out, 64<<10), names: make([][]byte, g.nOps), cats: make([][]byte, g.slots)}
	for i, n := range g.names {
		t.names[i] = quote(n)
	}
	for l := range g.slots {
		t.cats[l] = quote(g.slotRes[l].Kind.String())
	}
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
	}
	t.w.Write(b) // errors are sticky in bufio.Writer and reported by close
	t.buf = b
	return t
}

func (t *timeline) span(sp *Span, local int, op int32) {
	b := append(t.buf[:0], ",\n{\"name\":"...)
	b = append(b, t.names[op]...)
	b = append(b, `,"cat":`...)
	b = append(b, t.cats[local]...)
	b = append(b, `,"ph":"X","ts":`...)
	b = strconv.AppendFloat(b, sp.Start*1e6, 'f', 3, 64)
	b = append(b, `,"dur":`...)
	b = strconv.AppendFloat(b, (sp.End-sp.Start)*1e6, 'f', 3, 64)
	b = append(b, `,"pid":`...)
	b = strconv.AppendInt(b, int64(sp.Worker), 10)
	b = append(b, `,"tid":`...)
	b = strconv.AppendInt(b, int64(local), 10)
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

package timeline

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"unicode/utf8"

	"pslab/engine/trace"
)

// Pids of the writer's lanes: the worker, then PS task k at psPid+k.
const (
	workerPid = 1
	psPid     = 2
)

// stepGap separates consecutive steps on the writer's time axis, in ns.
const stepGap = 1000

// Writer writes a trace as a TF-style timeline, step by step, so that
// Read gives back the same trace:
//
//	{"displayTimeUnit":"ns","otherData":{...trace.Meta...},"traceEvents":[
//	 {"ph":"M","name":"process_name","pid":1,"args":{"name":"/job:worker/replica:0/task:0/device:CPU:0 Compute"}},
//	 {"ph":"M","name":"process_name","pid":2,"args":{"name":"/job:ps/replica:0/task:0/device:CPU:0 Compute"}},
//	 {"ph":"X","cat":"Step","name":"step 0","pid":1,"tid":0,"ts":0,"dur":10000},
//	 {"ph":"X","cat":"Op","name":"_Recv","pid":1,"tid":0,"ts":0,"dur":2000,
//	  "args":{"name":"l0/down","op":"_Recv","send_device":"/job:ps/replica:0/task:0/device:CPU:0","bytes":100}},
//	 {"ph":"X","cat":"Op","name":"Compute","pid":1,"tid":0,"ts":2000,"dur":1000,
//	  "args":{"name":"l0/fwd","op":"Compute","input0":"l0/down"}}, ...]}
//
// Downlinks are _Recv ops on the worker lane with args.send_device naming
// their PS; uplinks are _Recv ops on their PS's lane; worker and PS
// computations have op type "Compute" on their lane. Each step starts
// with a step marker; step k+1 starts 1 µs after the end of step k.
// Times are microseconds with up to three decimals, so nanoseconds
// survive exactly.
type Writer struct {
	w       *bufio.Writer
	base    int64 // ns, start of the next step
	steps   int
	servers int
	buf     []byte
	err     error
}

// NewWriter writes the header (metadata and lanes of meta.Servers
// parameter servers, at least one) to w.
func NewWriter(w io.Writer, meta trace.Meta) (*Writer, error) {
	return newWriter(w, meta, meta.Servers)
}

// newWriter writes lanes for max(lanes, 1) parameter servers.
func newWriter(w io.Writer, meta trace.Meta, lanes int) (*Writer, error) {
	wr := &Writer{w: bufio.NewWriterSize(w, 1<<16), servers: max(lanes, 1)}
	od, err := json.Marshal(otherData{Source: meta.Source, Model: meta.Model, Platform: meta.Platform,
		Batch: meta.Batch, Bandwidth: meta.Bandwidth, Window: meta.Window, Alpha: meta.Alpha,
		Beta: meta.Beta, Servers: meta.Servers})
	if err != nil {
		return nil, fmt.Errorf("timeline: metadata: %w", err)
	}
	wr.buf = append(wr.buf, `{"displayTimeUnit":"ns","otherData":`...)
	wr.buf = append(wr.buf, od...)
	wr.buf = append(wr.buf, `,"traceEvents":[`...)
	wr.buf = appendLane(wr.buf, workerPid, workerDevice())
	for k := 0; k < wr.servers; k++ {
		wr.buf = append(wr.buf, ',')
		wr.buf = appendLane(wr.buf, psPid+k, psDevice(k))
	}
	return wr, wr.flush()
}

func appendLane(b []byte, pid int, device string) []byte {
	b = append(b, `{"ph":"M","name":"process_name","pid":`...)
	b = strconv.AppendInt(b, int64(pid), 10)
	b = append(b, `,"tid":0,"args":{"name":`...)
	b = appendString(b, device+" Compute")
	return append(b, "}}\n"...)
}

// WriteStep writes one step. The step is validated first; it returns an
// error for an op on a PS beyond meta.Servers lanes, or for a name that
// Read would take for TensorFlow's partition naming (a downlink without
// dependencies named "X/_N" while the step has an op X).
func (wr *Writer) WriteStep(s *trace.Step) error {
	if wr.err != nil {
		return wr.err
	}
	if err := s.Validate(); err != nil {
		return fmt.Errorf("timeline: step %d: %w", wr.steps, err)
	}
	names := make(map[string]bool, len(s.Ops))
	var end int64
	for i := range s.Ops {
		names[s.Ops[i].Name] = true
		end = max(end, s.Ops[i].End)
	}
	wr.buf = append(wr.buf, `,{"ph":"X","cat":"Step","name":"step `...)
	wr.buf = strconv.AppendInt(wr.buf, int64(wr.steps), 10)
	wr.buf = append(wr.buf, `","pid":1,"tid":0,"ts":`...)
	wr.buf = appendMicros(wr.buf, wr.base)
	wr.buf = append(wr.buf, `,"dur":`...)
	wr.buf = appendMicros(wr.buf, end)
	wr.buf = append(wr.buf, "}\n"...)
	for i := range s.Ops {
		op := &s.Ops[i]
		if op.Resource.PS >= wr.servers {
			return fmt.Errorf("timeline: step %d op %d %q: PS %d, writer has %d PS lanes (set Meta.Servers)", wr.steps, i, op.Name, op.Resource.PS, wr.servers)
		}
		if !utf8.ValidString(op.Name) {
			return fmt.Errorf("timeline: step %d op %d: name %q is not valid UTF-8", wr.steps, i, op.Name)
		}
		if base, ok := cutPartitionSuffix(op.Name); ok && op.IsComm() && len(op.Deps) == 0 && names[base] {
			return fmt.Errorf("timeline: step %d op %d %q: name would be read as TensorFlow partition naming of op %q", wr.steps, i, op.Name, base)
		}
		wr.buf = wr.appendOp(wr.buf, s, op)
		if len(wr.buf) > 1<<15 {
			if err := wr.flush(); err != nil {
				return err
			}
		}
	}
	wr.base += end + stepGap
	wr.steps++
	return wr.flush()
}

func (wr *Writer) appendOp(b []byte, s *trace.Step, op *trace.Op) []byte {
	typ, pid := "Compute", workerPid
	switch op.Resource.Kind {
	case trace.Downlink:
		typ = "_Recv"
	case trace.Uplink:
		typ, pid = "_Recv", psPid+op.Resource.PS
	case trace.PS:
		pid = psPid + op.Resource.PS
	}
	b = append(b, `,{"ph":"X","cat":"Op","name":`...)
	b = appendString(b, typ)
	b = append(b, `,"pid":`...)
	b = strconv.AppendInt(b, int64(pid), 10)
	b = append(b, `,"tid":0,"ts":`...)
	b = appendMicros(b, wr.base+op.Start)
	b = append(b, `,"dur":`...)
	b = appendMicros(b, op.End-op.Start)
	b = append(b, `,"args":{"name":`...)
	b = appendString(b, op.Name)
	b = append(b, `,"op":`...)
	b = appendString(b, typ)
	for k, d := range op.Deps {
		b = append(b, `,"input`...)
		b = strconv.AppendInt(b, int64(k), 10)
		b = append(b, `":`...)
		b = appendString(b, s.Ops[d].Name)
	}
	if op.IsComm() {
		b = append(b, `,"bytes":`...)
		b = strconv.AppendInt(b, op.Bytes, 10)
	}
	if op.Resource.Kind == trace.Downlink {
		b = append(b, `,"send_device":`...)
		b = appendString(b, psDevice(op.Resource.PS))
	}
	return append(b, "}}\n"...)
}

// Close ends the JSON document and flushes. It does not close the
// underlying writer.
func (wr *Writer) Close() error {
	if wr.err != nil {
		return wr.err
	}
	if wr.steps == 0 {
		return fmt.Errorf("timeline: no steps written")
	}
	wr.buf = append(wr.buf, "]}\n"...)
	if err := wr.flush(); err != nil {
		return err
	}
	if err := wr.w.Flush(); err != nil {
		wr.err = err
	}
	return wr.err
}

func (wr *Writer) flush() error {
	if _, err := wr.w.Write(wr.buf); err != nil {
		wr.err = err
		return err
	}
	wr.buf = wr.buf[:0]
	return nil
}

// Write writes the whole trace as a TF-style timeline (see Writer), with a
// lane for every PS its ops use even if Meta.Servers is smaller.
func Write(w io.Writer, tr *trace.Trace) error {
	lanes := tr.Meta.Servers
	for i := range tr.Steps {
		for j := range tr.Steps[i].Ops {
			lanes = max(lanes, tr.Steps[i].Ops[j].Resource.PS+1)
		}
	}
	wr, err := newWriter(w, tr.Meta, lanes)
	if err != nil {
		return err
	}
	for i := range tr.Steps {
		if err := wr.WriteStep(&tr.Steps[i]); err != nil {
			return err
		}
	}
	return wr.Close()
}

// appendString appends s as a JSON string.
func appendString(b []byte, s string) []byte {
	q, _ := json.Marshal(s) // strings always marshal
	return append(b, q...)
}

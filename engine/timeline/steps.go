package timeline

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"pslab/engine/trace"
)

// StepCategory is the "cat" of a step-marker event: an "X" or instant
// ("i", "I") event of this category starts a new step at its ts.
const StepCategory = "Step"

// Op types (args.op) with a meaning to the importer. Every other type is
// computation on the lane's device.
var (
	recvTypes = map[string]bool{"_Recv": true, "_HostRecv": true}
	// passTypes are dropped; dependencies pass through them.
	passTypes = map[string]bool{"_Send": true, "_HostSend": true, "RecvTensor": true}
)

// pendingOp is an op of the step being read, before dependencies are
// resolved.
type pendingOp struct {
	name       string
	kind       trace.Kind
	ps         int
	start, dur int64 // absolute ns
	bytes      int64
	inputs     []string
	pass, recv bool
	index      int // event index
}

// Counts are what a StepReader saw, for reports.
type Counts struct {
	Events     int // events read
	Skipped    int // events that are not ops: metadata, flows, markers, other lanes
	Dropped    int // ops dropped: sends, RecvTensor, PS ops before the step's transfers
	Gated      int // ops without dependencies gated on the step's first downlink
	Unresolved int // inputs naming no op of the step (ignored, as TensorFlow's timeline does)
}

// StepReader reads the SGD steps of one TF-style timeline, one step at a
// time: memory is bounded by one step, not by the file.
type StepReader struct {
	ev      *EventReader
	name    string
	lanes   map[string]lane
	psTasks map[int]bool
	worker  int // task of the worker, -1 until seen
	cur     []pendingOp
	byName  map[string]int
	// marked is set once a step marker has been seen; origin is the
	// current marker's ts and markerAt its event index.
	marked   bool
	origin   int64
	markerAt int
	done     bool
	counts   Counts
}

// NewStepReader returns a reader of the timeline in r; name is used in
// errors.
func NewStepReader(r io.Reader, name string) *StepReader {
	return &StepReader{ev: NewEventReader(r, name), name: name, lanes: map[string]lane{},
		psTasks: map[int]bool{}, worker: -1, byName: map[string]int{}}
}

// Counts returns what the reader has seen so far.
func (s *StepReader) Counts() Counts { c := s.counts; c.Events = s.ev.Events(); return c }

// Top returns a top-level key of the file (see EventReader.Top).
func (s *StepReader) Top(key string) json.RawMessage { return s.ev.Top(key) }

// Next returns the next step, or io.EOF after the last.
func (s *StepReader) Next() (trace.Step, error) {
	if s.done {
		return trace.Step{}, io.EOF
	}
	for {
		e, err := s.ev.Next()
		if errors.Is(err, io.EOF) {
			s.done = true
			if len(s.cur) == 0 {
				if s.marked {
					return trace.Step{}, fmt.Errorf("%s: step marker at event %d has no ops", s.name, s.markerAt)
				}
				return trace.Step{}, fmt.Errorf("%s: no ops on a /job:worker or /job:ps Compute lane", s.name)
			}
			return s.finish()
		}
		if err != nil {
			return trace.Step{}, err
		}
		if isMarker(e) {
			step, ready, err := s.marker(e)
			if err != nil || ready {
				return step, err
			}
			continue
		}
		if err := s.event(e); err != nil {
			return trace.Step{}, fmt.Errorf("%s: event %d at byte %d: %w", s.name, e.Index, e.Offset, err)
		}
	}
}

func isMarker(e *Event) bool {
	return e.Cat == StepCategory && (e.Ph == "X" || e.Ph == "i" || e.Ph == "I")
}

// marker starts a new step; it returns the finished previous step, if any.
func (s *StepReader) marker(e *Event) (trace.Step, bool, error) {
	s.counts.Skipped++
	if !e.HasTs {
		return trace.Step{}, false, fmt.Errorf("%s: event %d at byte %d: step marker without ts", s.name, e.Index, e.Offset)
	}
	var step trace.Step
	var err error
	ready := false
	switch {
	case len(s.cur) > 0 && !s.marked:
		return step, false, fmt.Errorf("%s: event %d at byte %d: first step marker after %d ops (a file either marks every step or is one step)",
			s.name, e.Index, e.Offset, len(s.cur))
	case len(s.cur) > 0:
		step, err = s.finish()
		ready = true
	case s.marked:
		return step, false, fmt.Errorf("%s: step marker at event %d has no ops", s.name, s.markerAt)
	}
	s.marked, s.origin, s.markerAt = true, e.Ts, e.Index
	return step, ready, err
}

// event handles a non-marker event.
func (s *StepReader) event(e *Event) error {
	if e.Ph == "M" {
		s.counts.Skipped++
		if e.Name == "process_name" {
			name, ok, err := e.ArgString("name")
			if !ok || err != nil {
				return fmt.Errorf("process_name without a string args.name")
			}
			l := classifyLane(name)
			s.lanes[e.Pid] = l
			if l.role == lanePS {
				s.psTasks[l.task] = true
			}
		}
		return nil
	}
	if e.Ph != "X" {
		s.counts.Skipped++
		return nil
	}
	l, known := s.lanes[e.Pid]
	if !known {
		if _, isOp := e.Arg("op"); isOp {
			return fmt.Errorf("op on pid %s before the process_name event of that pid (metadata must come first)", e.Pid)
		}
		s.counts.Skipped++
		return nil
	}
	if l.role == laneSkip {
		s.counts.Skipped++
		return nil
	}
	if l.role == laneWorker {
		if s.worker >= 0 && s.worker != l.task {
			return fmt.Errorf("ops of worker tasks %d and %d: a profile has one worker", s.worker, l.task)
		}
		s.worker = l.task
	}
	op, err := s.parseOp(e, l)
	if err != nil {
		return err
	}
	if first, dup := s.byName[op.name]; dup {
		return fmt.Errorf("op name %q repeats within a step (first at event %d)", op.name, s.cur[first].index)
	}
	s.byName[op.name] = len(s.cur)
	s.cur = append(s.cur, op)
	return nil
}

// parseOp reads args.name, args.op, args.inputN, args.bytes and
// args.send_device of an op event on lane l.
func (s *StepReader) parseOp(e *Event, l lane) (pendingOp, error) {
	var op pendingOp
	str := func(key string) (string, error) {
		v, ok, err := e.ArgString(key)
		if !ok {
			return "", fmt.Errorf("missing args.%s", key)
		}
		return v, err
	}
	var err error
	if op.name, err = str("name"); err != nil {
		return op, err
	}
	if op.name == "" {
		return op, fmt.Errorf("empty args.name")
	}
	typ, err := opType(e)
	if err != nil {
		return op, fmt.Errorf("op %q: %w", op.name, err)
	}
	if !e.HasTs || !e.HasDur {
		return op, fmt.Errorf("op %q: missing ts or dur", op.name)
	}
	if e.Dur < 0 {
		return op, fmt.Errorf("op %q: negative dur %d ns", op.name, e.Dur)
	}
	op.start, op.dur, op.index = e.Ts, e.Dur, e.Index
	if op.inputs, err = inputs(e); err != nil {
		return op, fmt.Errorf("op %q: %w", op.name, err)
	}
	switch {
	case passTypes[typ]:
		op.pass = true
	case recvTypes[typ] && l.role == laneWorker:
		op.recv, op.kind = true, trace.Downlink
		if op.ps, err = s.sender(e); err != nil {
			return op, fmt.Errorf("downlink %q: %w", op.name, err)
		}
	case recvTypes[typ]:
		op.recv, op.kind, op.ps = true, trace.Uplink, l.task
	case l.role == laneWorker:
		op.kind = trace.Worker
	default:
		op.kind, op.ps = trace.PS, l.task
	}
	if op.recv {
		raw, _ := e.Arg("bytes")
		if op.bytes, err = byteCount(raw); err != nil {
			return op, fmt.Errorf("transfer %q: args.bytes: %w", op.name, err)
		}
	}
	return op, nil
}

// sender returns the PS task a downlink comes from: args.send_device, or
// the only PS of the timeline.
func (s *StepReader) sender(e *Event) (int, error) {
	if dev, ok, err := e.ArgString("send_device"); ok {
		if err != nil {
			return 0, err
		}
		return psTask(dev)
	}
	if len(s.psTasks) == 1 {
		for t := range s.psTasks {
			return t, nil
		}
	}
	return 0, fmt.Errorf("no args.send_device and %d PS lanes: cannot tell which PS sent it", len(s.psTasks))
}

// inputs returns args.input0, input1, ... in numeric order.
func inputs(e *Event) ([]string, error) {
	type in struct {
		n    int
		name string
	}
	var ins []in
	for _, a := range e.Args {
		if len(a.Key) <= len("input") || string(a.Key[:len("input")]) != "input" || !digits(a.Key[len("input"):]) {
			continue
		}
		n, err := strconv.Atoi(string(a.Key[len("input"):]))
		if err != nil {
			return nil, fmt.Errorf("args.%s: bad input number", a.Key)
		}
		v, err := unquote(a.Value)
		if err != nil {
			return nil, fmt.Errorf("args.%s is not a string", a.Key)
		}
		ins = append(ins, in{n, v})
	}
	if len(ins) == 0 {
		return nil, nil
	}
	sort.Slice(ins, func(i, j int) bool { return ins[i].n < ins[j].n })
	out := make([]string, len(ins))
	for i, x := range ins {
		out[i] = x.name
	}
	return out, nil
}

// byteCount parses a positive whole number of bytes given as a JSON number
// or a string holding one.
func byteCount(raw []byte) (int64, error) {
	if raw == nil {
		return 0, fmt.Errorf("missing (transfers need their size in bytes)")
	}
	txt, err := string(raw), error(nil)
	if strings.HasPrefix(txt, `"`) {
		if txt, err = unquote(raw); err != nil {
			return 0, fmt.Errorf("bad string %s", raw)
		}
	}
	n, err := strconv.ParseInt(txt, 10, 64)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("%s is not a whole number of bytes > 0", raw)
	}
	return n, nil
}

// opType returns args.op, without allocating for the types the importer
// knows.
func opType(e *Event) (string, error) {
	raw, ok := e.Arg("op")
	if !ok {
		return "", fmt.Errorf("missing args.op")
	}
	for _, t := range [...]string{"_Recv", "_HostRecv", "_Send", "_HostSend", "RecvTensor"} {
		if len(raw) == len(t)+2 && string(raw[1:len(raw)-1]) == t && raw[0] == '"' {
			return t, nil
		}
	}
	typ, err := unquote(raw)
	if err != nil {
		return "", fmt.Errorf("args.op is not a string")
	}
	return typ, nil
}

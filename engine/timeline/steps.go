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
			var name string
			if err := json.Unmarshal(e.Args["name"], &name); err != nil {
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
		if _, isOp := e.Args["op"]; isOp {
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
		raw, ok := e.Args[key]
		if !ok {
			return "", fmt.Errorf("missing args.%s", key)
		}
		var v string
		if err := json.Unmarshal(raw, &v); err != nil {
			return "", fmt.Errorf("args.%s is not a string", key)
		}
		return v, nil
	}
	var err error
	if op.name, err = str("name"); err != nil {
		return op, err
	}
	if op.name == "" {
		return op, fmt.Errorf("empty args.name")
	}
	typ, err := str("op")
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
	if op.inputs, err = inputs(e.Args); err != nil {
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
		if op.bytes, err = byteCount(e.Args["bytes"]); err != nil {
			return op, fmt.Errorf("transfer %q: args.bytes: %w", op.name, err)
		}
	}
	return op, nil
}

// sender returns the PS task a downlink comes from: args.send_device, or
// the only PS of the timeline.
func (s *StepReader) sender(e *Event) (int, error) {
	if raw, ok := e.Args["send_device"]; ok {
		var dev string
		if err := json.Unmarshal(raw, &dev); err != nil {
			return 0, fmt.Errorf("args.send_device is not a string")
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
func inputs(args map[string]json.RawMessage) ([]string, error) {
	type in struct {
		n    int
		name string
	}
	var ins []in
	for k, raw := range args {
		num, ok := strings.CutPrefix(k, "input")
		if !ok || num == "" || !digits(num) {
			continue
		}
		n, err := strconv.Atoi(num)
		if err != nil {
			return nil, fmt.Errorf("args.%s: bad input number", k)
		}
		var v string
		if err := json.Unmarshal(raw, &v); err != nil {
			return nil, fmt.Errorf("args.%s is not a string", k)
		}
		ins = append(ins, in{n, v})
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
func byteCount(raw json.RawMessage) (int64, error) {
	if raw == nil {
		return 0, fmt.Errorf("missing (transfers need their size in bytes)")
	}
	txt := strings.TrimSpace(string(raw))
	if strings.HasPrefix(txt, `"`) {
		if err := json.Unmarshal(raw, &txt); err != nil {
			return 0, fmt.Errorf("bad string %s", raw)
		}
	}
	n, err := strconv.ParseInt(txt, 10, 64)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("%s is not a whole number of bytes > 0", raw)
	}
	return n, nil
}

package analysis

import (
	"fmt"
	"slices"

	"pslab/engine/trace"
)

// Transfer is one tensor transfer of a profiled step, as the wire
// dissector and the receiver saw it. Times are unix ns on the worker's
// clock (PS times are converted with the measured clock offset).
type Transfer struct {
	Step   int
	Dir    trace.Kind // trace.Downlink or trace.Uplink
	Tensor int
	PS     int
	Bytes  int64 // payload bytes (scaled tensor size)
	// Request is when the worker asked for (downlink) or started sending
	// (uplink) the tensor.
	Request int64
	// FirstByte and LastByte are when the receiver's socket delivered the
	// first and last byte of the tensor's message (0 if not captured).
	FirstByte, LastByte int64
	// Available is when the receiver had parsed the tensor: the end that
	// TensorFlow's profiler records.
	Available int64
}

// Phases are the mean service times of one step in mascots18's model
// (§III-B, Fig. 4), in seconds: S^D downlink, S^W worker, S^U uplink, S^S
// server.
type Phases struct {
	SD, SW, SU, SS float64
	// Steps is the number of steps averaged for SD, SW and SU (SS uses one
	// fewer: it needs the next step's downlink).
	Steps int
}

// ExtractPhases computes mascots18's phase times from the transfers of a
// 1-worker profile, the way §III-A does from tcpdump: transmission times
// are measured directly, processing times are the gaps between the end of
// one transmission and the beginning of the next. For step s, with D the
// downlink and U the uplink transmissions (first to last byte at the
// receiver, over all tensors and all PS):
//
//	S^D = last byte of D − first byte of D
//	S^W = first byte of U − last byte of D
//	S^U = last byte of U − first byte of U
//	S^S = first byte of D in step s+1 − last byte of U
//
// Each is averaged over the steps ≥ skip (warm-up). A negative gap means
// the phases overlap (more than one worker, or clocks out of sync) and is
// an error naming the step.
func ExtractPhases(ts []Transfer, skip int) (Phases, error) {
	type span struct{ first, last int64 }
	type stepSpan struct {
		d, u span
		hasD bool
		hasU bool
	}
	maxStep := -1
	for _, t := range ts {
		maxStep = max(maxStep, t.Step)
	}
	if maxStep < 0 {
		return Phases{}, fmt.Errorf("testbed: phases: no transfers")
	}
	steps := make([]stepSpan, maxStep+1)
	widen := func(s *span, has *bool, t Transfer) {
		if !*has {
			*s, *has = span{t.FirstByte, t.LastByte}, true
			return
		}
		s.first, s.last = min(s.first, t.FirstByte), max(s.last, t.LastByte)
	}
	for _, t := range ts {
		if t.FirstByte <= 0 || t.LastByte < t.FirstByte {
			return Phases{}, fmt.Errorf("testbed: phases: step %d tensor %d %s: no wire times (first %d, last %d)", t.Step, t.Tensor, t.Dir, t.FirstByte, t.LastByte)
		}
		st := &steps[t.Step]
		switch t.Dir {
		case trace.Downlink:
			widen(&st.d, &st.hasD, t)
		case trace.Uplink:
			widen(&st.u, &st.hasU, t)
		default:
			return Phases{}, fmt.Errorf("testbed: phases: transfer on %s", t.Dir)
		}
	}
	var p Phases
	var sums [4]float64
	nSS := 0
	for s := skip; s <= maxStep; s++ {
		st := steps[s]
		if !st.hasD || !st.hasU {
			return Phases{}, fmt.Errorf("testbed: phases: step %d has no downlink or no uplink", s)
		}
		sw := st.u.first - st.d.last
		if sw < 0 {
			return Phases{}, fmt.Errorf("testbed: phases: step %d: uplink starts %d ns before the downlink ends (phases overlap)", s, -sw)
		}
		sums[0] += float64(st.d.last - st.d.first)
		sums[1] += float64(sw)
		sums[2] += float64(st.u.last - st.u.first)
		p.Steps++
		if s < maxStep && steps[s+1].hasD {
			ss := steps[s+1].d.first - st.u.last
			if ss < 0 {
				return Phases{}, fmt.Errorf("testbed: phases: step %d: next downlink starts %d ns before the uplink ends (phases overlap)", s, -ss)
			}
			sums[3] += float64(ss)
			nSS++
		}
	}
	if p.Steps == 0 || nSS == 0 {
		return Phases{}, fmt.Errorf("testbed: phases: need at least 2 steps after skipping %d, have %d", skip, maxStep+1)
	}
	n := float64(p.Steps) * 1e9
	p.SD, p.SW, p.SU = sums[0]/n, sums[1]/n, sums[2]/n
	p.SS = sums[3] / float64(nSS) / 1e9
	return p, nil
}

// sortTransfers orders transfers by step, direction and tensor.
func sortTransfers(ts []Transfer) {
	slices.SortFunc(ts, func(a, b Transfer) int {
		if a.Step != b.Step {
			return a.Step - b.Step
		}
		if a.Dir != b.Dir {
			return int(a.Dir) - int(b.Dir)
		}
		return a.Tensor - b.Tensor
	})
}

package predict

import (
	"fmt"
	"math"

	"pslab/engine/cynthia"
	"pslab/engine/mva"
	"pslab/engine/trace"
)

// Coarse is a 1-worker profiling trace seen by the coarse models icpe20
// §4.4 compares with (CATALOGUE §B.1.7): the four mascots18 phase times as
// tcpdump shows them, and the inputs of Cynthia's formula as restated by
// icpe20. All values are means over the trace's steps.
type Coarse struct {
	// Phases are S^W, S^U, S^S, S^D in seconds as tcpdump shows them (see
	// FromTrace): icpe20 §1's reading of Lin et al., the one the icpe20
	// experiments reproduce.
	Phases mva.Phases
	// OpPhases are S^W, S^U, S^S, S^D in seconds read from the ops by what
	// they are (see FromTrace): the phases of one worker and one PS
	// holding every parameter, which predict.Run gives MVA for a per-layer
	// profile (OpReading).
	OpPhases mva.Phases
	// Step is the mean 1-worker step time: last op end − first op start, s.
	Step float64
	// Tp is T_p, the worker's busy time per step (sum of its compute op
	// durations), s.
	Tp float64
	// Tc is T_C, one direction's bytes per step at the profiling bandwidth
	// (downlink bytes / Meta.Bandwidth), s.
	Tc float64
	// U1 is U_1, the fraction of the step the network carries data:
	// (downlink + uplink bytes) / Meta.Bandwidth / step time.
	U1 float64
	// ServerBytes is the downlink bytes per step from each PS (the bytes
	// each PS NIC sends per worker step), bytes.
	ServerBytes []float64
}

// FromTrace extracts the coarse-model inputs from a profiling trace of one
// worker. The trace records transfer ends after the parsing overhead
// α·bytes + β (icpe20 §3.2.1, zoo I-15); tcpdump sees the last byte on the
// wire, End − (α·bytes + β). Per step, with t0 the first op start and t1
// the last op end:
//
//	S^D = last downlink byte − t0            (downlink phase)
//	S^W = first uplink start − last downlink byte
//	S^U = last uplink byte − first uplink start
//	S^S = t1 − last uplink byte               (server, until the step ends)
//
// This is icpe20 §1's reading of Lin et al.: "the time interval between
// the end of the downlink transmission and the start of the uplink
// transmission is interpreted as the single worker's computation". The
// four phases tile the step, so S^D + S^W + S^U + S^S is the 1-worker step
// time, but the compute that overlaps the transfers (forward during the
// downlink, backward between uplinks) is counted as link time. A step
// whose first uplink starts before its last downlink byte has no such
// reading and is an error.
//
// OpPhases read the same step by op kind instead, as mascots18 §III-A
// defines the phases (computation, transmission, update), with nothing
// counted twice and no compute counted as link time:
//
//	S^W = Σ worker op durations        (forward + backward compute)
//	S^U = Σ uplink bytes / bandwidth   (transfer time at Meta.Bandwidth)
//	S^S = Σ PS op durations            (the update ops of every PS)
//	S^D = Σ downlink bytes / bandwidth
//
// The parsing overhead α·bytes + β is in neither (it is 0 for a profile
// unless -alpha/-beta are given). With several PSs the link and update
// times are summed over them, so they are one PS's phases, which
// mva.Phases.WithServers divides by M. OpPhases do not tile the step: the
// 1-worker step is shorter than their sum where transfers overlap compute.
func FromTrace(tr *trace.Trace) (Coarse, error) {
	m := tr.Meta
	if !(m.Bandwidth > 0) || math.IsInf(m.Bandwidth, 0) {
		return Coarse{}, fmt.Errorf("coarse models: trace bandwidth %g bytes/s, need > 0", m.Bandwidth)
	}
	if len(tr.Steps) == 0 {
		return Coarse{}, fmt.Errorf("coarse models: trace has no steps")
	}
	servers := max(m.Servers, 1)
	out := Coarse{ServerBytes: make([]float64, servers)}
	const ns = 1e-9
	for si := range tr.Steps {
		ops := tr.Steps[si].Ops
		t0, t1 := math.Inf(1), math.Inf(-1)
		dlEnd, ulStart, ulEnd := math.Inf(-1), math.Inf(1), math.Inf(-1)
		var busy, down, up, psBusy float64
		for i := range ops {
			op := &ops[i]
			start, end := float64(op.Start)*ns, float64(op.End)*ns
			t0, t1 = math.Min(t0, start), math.Max(t1, end)
			wire := end - (m.Alpha*float64(op.Bytes) + m.Beta)
			switch op.Resource.Kind {
			case trace.Worker:
				busy += end - start
			case trace.PS:
				psBusy += end - start
			case trace.Downlink:
				dlEnd = math.Max(dlEnd, wire)
				down += float64(op.Bytes)
				if si == 0 {
					if op.Resource.PS >= servers {
						return Coarse{}, fmt.Errorf("coarse models: op %q on PS %d but the trace has %d", op.Name, op.Resource.PS, servers)
					}
					out.ServerBytes[op.Resource.PS] += float64(op.Bytes)
				}
			case trace.Uplink:
				ulStart, ulEnd = math.Min(ulStart, start), math.Max(ulEnd, wire)
				up += float64(op.Bytes)
			}
		}
		if math.IsInf(dlEnd, 0) || math.IsInf(ulStart, 0) {
			return Coarse{}, fmt.Errorf("coarse models: step %d has no downlink or no uplink", si)
		}
		if ulStart < dlEnd {
			return Coarse{}, fmt.Errorf("coarse models: step %d: the first uplink starts at %.6g s, before the last downlink byte at %.6g s; tcpdump phases overlap", si, ulStart-t0, dlEnd-t0)
		}
		step := t1 - t0
		if !(step > 0) {
			return Coarse{}, fmt.Errorf("coarse models: step %d lasts %g s", si, step)
		}
		out.Phases.Downlink += dlEnd - t0
		out.Phases.Worker += ulStart - dlEnd
		out.Phases.Uplink += ulEnd - ulStart
		out.Phases.Server += t1 - ulEnd
		out.OpPhases.Worker += busy
		out.OpPhases.Uplink += up / m.Bandwidth
		out.OpPhases.Server += psBusy
		out.OpPhases.Downlink += down / m.Bandwidth
		out.Step += step
		out.Tp += busy
		out.Tc += down / m.Bandwidth
		out.U1 += (down + up) / m.Bandwidth / step
	}
	n := float64(len(tr.Steps))
	out.Phases = mva.Phases{Worker: out.Phases.Worker / n, Uplink: out.Phases.Uplink / n,
		Server: out.Phases.Server / n, Downlink: out.Phases.Downlink / n}
	out.OpPhases = mva.Phases{Worker: out.OpPhases.Worker / n, Uplink: out.OpPhases.Uplink / n,
		Server: out.OpPhases.Server / n, Downlink: out.OpPhases.Downlink / n}
	out.Step /= n
	out.Tp /= n
	out.Tc /= n
	out.U1 /= n
	if out.U1 > 1+U1Slack {
		return Coarse{}, fmt.Errorf("coarse models: single-worker network utilization U_1 = %.4g > %g (transfers overlap in the trace)", out.U1, 1+U1Slack)
	}
	out.U1 = min(out.U1, 1)
	return out, nil
}

// U1Slack is how far above 1 a measured U_1 may lie and still be read as
// a saturated link (U_1 = 1). A shaper lets a burst through faster than
// B after an idle period (the testbed's: 1 ms of traffic per direction,
// engine/testbed Shape), so a 1-worker step that keeps its link busy can
// move its bytes up to 2 ms of traffic faster than bytes/B: 2% of a 100 ms
// step (seen once: U_1 = 1.01 in an alexnet-b512-ordered-default profile
// of 2026-11-26, from a collection that was not kept).
// Above the slack the transfers overlap, which one worker's sequential
// downlink and uplink phases on one link cannot, and the trace is refused.
const U1Slack = 0.05

// Cynthia is Cynthia as restated by icpe20 for this profile and batch
// (examples per worker step): T_p, T_C and U_1 of c.
func (c Coarse) Cynthia(batch int) cynthia.ICPE {
	return cynthia.ICPE{Batch: float64(batch), Tp: c.Tp, Tc: c.Tc, U1: c.U1}
}

// LinkBound is the largest throughput, examples/s, the PS NICs allow: each
// worker step sends ServerBytes[i] through PS i's NIC in each direction at
// bandwidth bytes/s, so X ≤ batch · bandwidth / max_i ServerBytes[i]. It is
// +Inf when no bytes move.
func (c Coarse) LinkBound(batch int, bandwidth float64) float64 {
	heaviest := 0.0
	for _, b := range c.ServerBytes {
		heaviest = math.Max(heaviest, b)
	}
	if heaviest == 0 {
		return math.Inf(1)
	}
	return float64(batch) * bandwidth / heaviest
}

// Imbalance is the heaviest PS's bytes over the lightest's (1 for one PS,
// +Inf when a PS gets no bytes).
func (c Coarse) Imbalance() float64 {
	lo, hi := math.Inf(1), 0.0
	for _, b := range c.ServerBytes {
		lo, hi = math.Min(lo, b), math.Max(hi, b)
	}
	if !(lo > 0) {
		return math.Inf(1)
	}
	return hi / lo
}

// Knee is icpe20 Fig. 2's saturation point (CATALOGUE icpe20-fig2): the
// first worker count ws[i] with x[i+1]/x[i] − 1 < eps, comparing
// consecutive sweep points (x in any throughput unit, eps a fraction).
// saturated is false (and w the last W) when every step gains at least
// eps. ws and x must have the same non-zero length.
func Knee(ws []int, x []float64, eps float64) (w int, saturated bool) {
	for i := 0; i+1 < len(ws); i++ {
		if x[i+1]/x[i]-1 < eps {
			return ws[i], true
		}
	}
	return ws[len(ws)-1], false
}

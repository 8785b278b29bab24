package node

import (
	"time"

	"pslab/engine/testbed/analysis"
	"pslab/engine/trace"
)

// record appends step s to the trace, the way TensorFlow's profiler
// records it (icpe20 §2, Fig. 6): a downlink starts when requested and
// ends when the tensor is parsed at the worker; an uplink starts when its
// gradient is computed and ends when the PS has parsed it; an update runs
// on the PS. Times are ns from the step's start; PS times are converted
// with the clock offset, and a time that would end before it starts
// (clock-offset error) is clamped and counted.
func (w *worker) record(s int, st *stepState, start, end []time.Time, res *WorkerResult) {
	p := w.plan
	nT := p.NT()
	t0 := st.t0.UnixNano()
	rel := func(t int64) int64 { return max(t-t0, 0) }
	ops := make([]trace.Op, len(p.Ops))
	copy(ops, p.Ops)
	span := func(i int, a, b int64) {
		ops[i].Start, ops[i].End = rel(a), rel(b)
		if ops[i].End < ops[i].Start {
			ops[i].End = ops[i].Start
			res.Clamped++
		}
	}
	for k, t := range p.Tensors {
		span(k, st.reqDown[k].UnixNano(), st.avail[k].UnixNano())
		r := w.wireTimes(header{Kind: kindParams, Worker: uint32(w.o.ID), Step: uint32(s), Tensor: uint32(k)})
		res.Transfers = append(res.Transfers, analysis.Transfer{Step: s, Dir: trace.Downlink, Tensor: k, PS: t.Server, Bytes: t.Bytes,
			Request: st.reqDown[k].UnixNano(), FirstByte: r.First, LastByte: r.Last, Available: st.avail[k].UnixNano()})
	}
	for pos := range start {
		span(nT+pos, start[pos].UnixNano(), end[pos].UnixNano())
	}
	for k, t := range p.Tensors {
		a := st.acks[k]
		ps := t.Server
		decoded := w.toWorker(ps, a.Decoded)
		span(p.UplinkOp(k), st.reqUp[k].UnixNano(), decoded)
		up := ops[p.UplinkOp(k)]
		span(p.UpdateOp(k), max(w.toWorker(ps, a.UpdStart), t0+up.End), max(w.toWorker(ps, a.UpdEnd), t0+up.End))
		res.Transfers = append(res.Transfers, analysis.Transfer{Step: s, Dir: trace.Uplink, Tensor: k, PS: ps, Bytes: t.Bytes,
			Request: st.reqUp[k].UnixNano(), FirstByte: w.toWorker(ps, a.FirstByte), LastByte: w.toWorker(ps, a.LastByte), Available: decoded})
	}
	for i := range ops {
		ops[i].Deps = append([]int32(nil), p.Ops[i].Deps...)
	}
	res.Steps = append(res.Steps, trace.Step{Ops: ops})
}

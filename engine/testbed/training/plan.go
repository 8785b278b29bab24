package training

import (
	"fmt"
	"math"
	"slices"
	"time"

	"pslab/engine/placement"
	"pslab/engine/trace"
	"pslab/engine/zoo"
)

// Tensor is one parameter tensor of the emulated model: the weights and
// biases of one layer together (one variable per layer, as zoo does).
type Tensor struct {
	// Layer is the index of the layer in the profile.
	Layer int
	// Name is the layer name.
	Name string
	// ProfileBytes is the layer's parameter size in the profile, in bytes.
	ProfileBytes int64
	// Bytes is the size sent on the wire: ProfileBytes·BytesScale rounded
	// to a whole number of float32 values, at least one (bytes).
	Bytes int64
	// Server is the parameter server holding the tensor (placement.Greedy
	// in topological order, ties to the lower index).
	Server int
}

// Plan is the operation structure of one emulated training step, shared by
// the parameter servers and the workers. Its op layout is the one of
// zoo.Synthesize, so measured and synthesized traces line up op by op:
// [0, T) downlinks in topological order; [T, T+2C) worker ops (C forward
// in topological order, then C backward in reverse); [UpBase, UpBase+T)
// uplinks and [UpdBase, UpdBase+T) updates, in reverse topological order.
type Plan struct {
	Job     Job
	Profile *zoo.Profile
	// Batch is the effective examples per step per worker.
	Batch int
	// Tensors are in topological order of their layers.
	Tensors []Tensor
	// Ops is the template of one step: names, resources, bytes and
	// dependencies; times are zero.
	Ops []trace.Op
	// Compute holds the emulated duration of worker op T+i.
	Compute []time.Duration
	// UpBase and UpdBase are the indices of the first uplink and update.
	UpBase, UpdBase int
	// Load is the scaled number of bytes each PS holds.
	Load []int64
	// bwdTensor maps a worker op index to the tensor whose gradient it
	// produces, or -1.
	bwdTensor []int
}

// NT returns the number of tensors.
func (p *Plan) NT() int { return len(p.Tensors) }

// UplinkOp returns the op index of the uplink of tensor k.
func (p *Plan) UplinkOp(k int) int { return p.UpBase + len(p.Tensors) - 1 - k }

// UpdateOp returns the op index of the update of tensor k.
func (p *Plan) UpdateOp(k int) int { return p.UpdBase + len(p.Tensors) - 1 - k }

// GradientOf returns the tensor whose gradient worker op i produces, or -1.
func (p *Plan) GradientOf(i int) int { return p.bwdTensor[i] }

// ScaledBytes returns b·scale rounded to a whole number of 4-byte float32
// values, at least one value (bytes).
func ScaledBytes(b int64, scale float64) int64 {
	n := int64(math.Round(float64(b) * scale / 4))
	return max(n, 1) * 4
}

// NewPlan builds the step structure of job j for profile p. The job must
// be valid (Job.Validate).
func NewPlan(p *zoo.Profile, j Job) (*Plan, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	batch := j.Batch
	if batch == 0 {
		batch = p.Batch
	}
	scale := float64(batch) / float64(p.Batch) / j.DeviceSpeed
	comp, par, compPos := p.OpLayers()
	if len(par) == 0 {
		return nil, fmt.Errorf("testbed: profile %q has no layer with parameters", p.Model)
	}
	nT, nC := len(par), len(comp)
	tensors := make([]Tensor, nT)
	vars := make([]placement.Variable, nT)
	downOf := make([]int, len(p.Layers))
	for i := range downOf {
		downOf[i] = -1
	}
	for k, li := range par {
		l := &p.Layers[li]
		tensors[k] = Tensor{Layer: li, Name: l.Name, ProfileBytes: l.ParamBytes, Bytes: ScaledBytes(l.ParamBytes, j.BytesScale)}
		vars[k] = placement.Variable{Name: l.Name, Bytes: tensors[k].Bytes}
		downOf[li] = k
	}
	part, err := placement.Greedy(vars, j.Servers)
	if err != nil {
		return nil, fmt.Errorf("testbed: %w", err)
	}
	for k := range tensors {
		tensors[k].Server = part.Server[k]
	}
	pl := &Plan{Job: j, Profile: p, Batch: batch, Tensors: tensors, Load: part.Load,
		Ops: make([]trace.Op, 2*nC+3*nT), Compute: make([]time.Duration, 2*nC),
		UpBase: nT + 2*nC, UpdBase: 2*nT + 2*nC, bwdTensor: make([]int, 2*nC+3*nT)}
	for i := range pl.bwdTensor {
		pl.bwdTensor[i] = -1
	}
	fwd := func(li int) int32 { return int32(nT + compPos[li]) }
	bwd := func(li int) int32 { return int32(nT + 2*nC - 1 - compPos[li]) }
	dur := func(s float64) time.Duration { return time.Duration(math.Round(s * scale * 1e9)) }

	consumers := make([][]int, len(p.Layers))
	for _, li := range comp {
		for _, in := range p.Layers[li].Inputs {
			consumers[in] = append(consumers[in], li)
		}
	}
	var sinks []int32
	for _, li := range comp {
		if len(consumers[li]) == 0 {
			sinks = append(sinks, fwd(li))
		}
	}
	for k, t := range tensors {
		pl.Ops[k] = trace.Op{Name: t.Name + "/down", Resource: trace.Resource{Kind: trace.Downlink, PS: t.Server}, Bytes: t.Bytes}
	}
	for _, li := range comp {
		l := &p.Layers[li]
		var deps []int32
		if k := downOf[li]; k >= 0 {
			deps = append(deps, int32(k))
		}
		for _, in := range l.Inputs {
			if !p.Layers[in].IsInput() {
				deps = append(deps, fwd(in))
			}
		}
		if len(deps) == 0 {
			deps = []int32{0} // CATALOGUE I-10, as zoo: gate on the first downlink
		}
		f := int(fwd(li))
		pl.Ops[f] = trace.Op{Name: l.Name + "/fwd", Resource: trace.Resource{Kind: trace.Worker}, Deps: deps}
		pl.Compute[f-nT] = dur(l.Forward)
		deps = nil
		for _, c := range consumers[li] {
			deps = append(deps, bwd(c))
		}
		if len(deps) == 0 {
			deps = slices.Clone(sinks)
		}
		b := int(bwd(li))
		pl.Ops[b] = trace.Op{Name: l.Name + "/bwd", Resource: trace.Resource{Kind: trace.Worker}, Deps: deps}
		pl.Compute[b-nT] = dur(l.Backward)
		pl.bwdTensor[b] = downOf[li]
	}
	for k, t := range tensors {
		up, upd := pl.UplinkOp(k), pl.UpdateOp(k)
		pl.Ops[up] = trace.Op{Name: t.Name + "/up", Resource: trace.Resource{Kind: trace.Uplink, PS: t.Server}, Bytes: t.Bytes, Deps: []int32{bwd(t.Layer)}}
		pl.Ops[upd] = trace.Op{Name: t.Name + "/update", Resource: trace.Resource{Kind: trace.PS, PS: t.Server}, Deps: []int32{int32(up)}}
	}
	for i := range pl.Ops {
		slices.Sort(pl.Ops[i].Deps)
	}
	return pl, nil
}

// ServerTensors returns the tensors held by server s, in the order given.
func (p *Plan) ServerTensors(order []int, s int) []int {
	var out []int
	for _, k := range order {
		if p.Tensors[k].Server == s {
			out = append(out, k)
		}
	}
	return out
}

// StepCompute returns the emulated serial compute time of one step.
func (p *Plan) StepCompute() time.Duration {
	var s time.Duration
	for _, d := range p.Compute {
		s += d
	}
	return s
}

// ModelBytes returns the scaled bytes of all tensors.
func (p *Plan) ModelBytes() int64 {
	var s int64
	for _, t := range p.Tensors {
		s += t.Bytes
	}
	return s
}

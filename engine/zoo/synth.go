package zoo

import (
	"fmt"
	"math"
	"math/rand/v2"

	"pslab/engine/trace"
)

// jitterStream is the second PCG word; the first is Options.Seed.
const jitterStream = 0x9e3779b97f4a7c15

// maxSeconds is the largest time that fits int64 nanoseconds, with margin.
const maxSeconds = 9e9

// Synthesize produces a profiling trace of opt.Steps steps of one worker
// and opt.Servers parameter servers, as TensorFlow would record it for the
// profile p (icpe20 §2–§3, Fig. 6). Each step has, in this op order:
//
//  1. "<layer>/down" on downlink:i for each layer with parameters, in
//     topological order: requested at step start (Start = 0); End = arrival
//     of the last byte under the link model of linkSim (HTTP/2 chunk rule
//     with WIN = opt.Window, FIFO in this order) + Alpha·bytes + Beta.
//  2. "<layer>/fwd" on worker for each layer except Input, in topological
//     order, waiting for the layer's downlink and the forward ops of its
//     inputs.
//  3. "<layer>/bwd" on worker, in reverse topological order, waiting for
//     the backward ops of the layers that consume its output; a layer
//     whose output nobody consumes (a loss head) waits for the forward ops
//     of all such layers (the loss sums them, e.g. Inception's aux logits).
//  4. "<layer>/up" on uplink:i for each layer with parameters, in reverse
//     topological order, waiting for its backward op: Start = end of that
//     op, End = arrival under the same link model + Alpha·bytes + Beta.
//  5. "<layer>/update" on ps:i, same order, waiting for its uplink, taking
//     UpdateTime·bytes seconds.
//
// The worker and each PS run one op at a time, ready ops first come first
// served (CATALOGUE I-11). Compute times are the profile's scaled by
// (opt.Batch/p.Batch)/opt.DeviceSpeed and by the step's jitter factor.
// Layers are placed on servers with placement.Greedy in topological
// order, one variable per layer. Meta is filled from p and opt. The result
// passes trace.Validate and depends only on p and opt.
func Synthesize(p *Profile, opt Options) (*trace.Trace, error) {
	if p == nil {
		return nil, fmt.Errorf("zoo: Synthesize: nil profile")
	}
	if err := p.Validate(); err != nil {
		return nil, err
	}
	opt, err := opt.withDefaults(p.Batch)
	if err != nil {
		return nil, err
	}
	pl, err := newPlan(p, opt.Servers)
	if err != nil {
		return nil, err
	}
	scale := float64(opt.Batch) / float64(p.Batch) / opt.DeviceSpeed
	overhead := func(bytes float64) float64 { return opt.Alpha*bytes + opt.Beta }

	nOps := len(pl.ops)
	start := make([]float64, nOps)
	end := make([]float64, nOps)
	dur := make([]float64, nOps)

	// Downlinks are all requested at step start and nothing in a step
	// changes them, so every step records the same downlink ends.
	var links linkSim
	down := make([]stream, pl.nPar)
	for k := range down {
		down[k] = stream{conn: pl.server[k], bytes: float64(pl.ops[k].Bytes)}
	}
	downEnd := make([]float64, pl.nPar)
	links.run(down, opt.Servers, opt.Bandwidth, float64(opt.Window), downEnd)
	for k := range downEnd {
		downEnd[k] += overhead(down[k].bytes)
	}
	up := make([]stream, pl.nPar)
	upEnd := make([]float64, pl.nPar)

	rng := rand.New(rand.NewPCG(opt.Seed, jitterStream))
	sigma := math.Sqrt(math.Log1p(opt.Jitter * opt.Jitter))
	tr := &trace.Trace{
		Meta: trace.Meta{
			Source: "zoo.Synthesize(" + p.Source + ")",
			Platform: fmt.Sprintf("synthetic: profile compute ×%d/%d batch ÷%g device speed, jitter %g, PS update %g s/byte",
				opt.Batch, p.Batch, opt.DeviceSpeed, opt.Jitter, opt.UpdateTime),
			Model:     p.Model,
			Batch:     opt.Batch,
			Bandwidth: opt.Bandwidth,
			Window:    opt.Window,
			Alpha:     opt.Alpha,
			Beta:      opt.Beta,
			Servers:   opt.Servers,
		},
		Steps: make([]trace.Step, opt.Steps),
	}
	for si := range tr.Steps {
		factor := 1.0
		if sigma > 0 {
			factor = math.Exp(sigma*rng.NormFloat64() - sigma*sigma/2) // lognormal, mean 1
		}
		for k := 0; k < pl.nPar; k++ {
			start[k], end[k] = 0, downEnd[k]
		}
		for i, base := range pl.compute {
			dur[pl.nPar+i] = base * scale * factor
		}
		pl.worker.run(dur, start, end)
		for m := range up {
			op := pl.upBase + m
			release := end[pl.ops[op].Deps[0]]
			up[m] = stream{conn: pl.ops[op].Resource.PS, release: release, bytes: float64(pl.ops[op].Bytes)}
			start[op] = release
		}
		links.run(up, opt.Servers, opt.Bandwidth, float64(opt.Window), upEnd)
		for m := range up {
			end[pl.upBase+m] = upEnd[m] + overhead(up[m].bytes)
			dur[pl.updBase+m] = opt.UpdateTime * up[m].bytes * factor
		}
		for _, ps := range pl.servers {
			ps.run(dur, start, end)
		}
		step, err := pl.record(start, end)
		if err != nil {
			return nil, fmt.Errorf("zoo: Synthesize %s step %d: %w", p.Model, si, err)
		}
		tr.Steps[si] = step
	}
	if err := tr.Validate(); err != nil {
		return nil, fmt.Errorf("zoo: Synthesize %s: generated an invalid trace: %w", p.Model, err)
	}
	return tr, nil
}

// record copies the template ops with times in nanoseconds. All Deps of a
// step share one backing array, separate from other steps.
func (pl *plan) record(start, end []float64) (trace.Step, error) {
	ops := make([]trace.Op, len(pl.ops))
	deps := make([]int32, pl.nDeps)
	off := 0
	for i := range ops {
		if !(end[i] <= maxSeconds) {
			return trace.Step{}, fmt.Errorf("op %q ends at %v s, beyond int64 nanoseconds", pl.ops[i].Name, end[i])
		}
		ops[i] = pl.ops[i]
		ops[i].Start = int64(math.Round(start[i] * 1e9))
		ops[i].End = int64(math.Round(end[i] * 1e9))
		n := copy(deps[off:], pl.ops[i].Deps)
		ops[i].Deps = deps[off : off+n : off+n]
		off += n
	}
	return trace.Step{Ops: ops}, nil
}

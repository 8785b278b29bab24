package sim

import (
	"fmt"
	"math"
	"math/rand/v2"

	"pslab/engine/trace"
)

// inceptionLike builds a synthetic trace the size of Inception-v3 on a
// V100-like GPU at batch 128 and 10 Gbps (not a real profile): 95
// parameterized layers totalling 100 MB, forward 0.15 s and backward 0.3 s
// per step, a Fig. 6 chain per layer (downlink → forward → backward in
// reverse → uplink → PS update), layers spread over `servers` PSs by the
// greedy smallest-total rule, and `steps` profiled steps whose computation
// times vary by ±jitter (relative): one factor per step (as a whole step
// runs faster or slower, e.g. input loading) times one per op.
func inceptionLike(steps int, jitter float64, servers int, seed uint64) *trace.Trace {
	const layers = 95
	const totalBytes = 100e6
	r := rand.New(rand.NewPCG(seed, 1))
	sizes := make([]float64, layers)
	fwd := make([]float64, layers)
	sum, fsum := 0.0, 0.0
	for i := range sizes {
		sizes[i] = math.Exp(math.Log(4e3) + r.Float64()*(math.Log(4e6)-math.Log(4e3)))
		fwd[i] = 0.2 + r.Float64()
		sum += sizes[i]
		fsum += fwd[i]
	}
	load := make([]float64, servers)
	ps := make([]int, layers)
	bytes := make([]int64, layers)
	for i := range sizes {
		bytes[i] = int64(sizes[i] / sum * totalBytes)
		best := 0
		for j := range load {
			if load[j] < load[best] {
				best = j
			}
		}
		ps[i] = best
		load[best] += float64(bytes[i])
	}
	tr := &trace.Trace{Meta: trace.Meta{
		Source: "synthetic inceptionLike (pslab sim tests)", Model: "inception-v3-like", Batch: 128,
		Bandwidth: 1.25e9, Window: 28e6, Alpha: 1e-10, Beta: 5e-5, Servers: servers,
	}}
	for range steps {
		var ops []trace.Op
		add := func(name string, res trace.Resource, dur float64, b int64, deps ...int32) int32 {
			ops = append(ops, trace.Op{Name: name, Resource: res, End: int64(dur * 1e9), Bytes: b, Deps: deps})
			return int32(len(ops) - 1)
		}
		sf := 1 + jitter*(2*r.Float64()-1)
		j := func() float64 { return sf * (1 + jitter*(2*r.Float64()-1)) }
		down := make([]int32, layers)
		for i := range layers {
			down[i] = add(fmt.Sprintf("l%d/down", i), trace.Resource{Kind: trace.Downlink, PS: ps[i]}, 0, bytes[i])
		}
		prev := int32(-1)
		for i := range layers {
			deps := []int32{down[i]}
			if prev >= 0 {
				deps = append(deps, prev)
			}
			prev = add(fmt.Sprintf("l%d/fwd", i), trace.Resource{Kind: trace.Worker}, 0.15*fwd[i]/fsum*j(), 0, deps...)
		}
		for i := layers - 1; i >= 0; i-- {
			prev = add(fmt.Sprintf("l%d/bwd", i), trace.Resource{Kind: trace.Worker}, 0.3*fwd[i]/fsum*j(), 0, prev)
			up := add(fmt.Sprintf("l%d/up", i), trace.Resource{Kind: trace.Uplink, PS: ps[i]}, 0, bytes[i], prev)
			add(fmt.Sprintf("l%d/update", i), trace.Resource{Kind: trace.PS, PS: ps[i]}, float64(bytes[i])/10e9*j(), 0, up)
		}
		tr.Steps = append(tr.Steps, trace.Step{Ops: ops})
	}
	return tr
}

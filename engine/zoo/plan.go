package zoo

import (
	"fmt"
	"slices"

	"pslab/engine/placement"
	"pslab/engine/trace"
)

// plan is the op structure of one synthesized step, shared by all steps.
// Op layout: [0, nPar) downlinks; [nPar, nPar+2C) worker ops (C forward in
// topological order, then C backward in reverse); [upBase, upBase+nPar)
// uplinks and [updBase, updBase+nPar) updates, both in reverse topological
// order of the layers with parameters.
type plan struct {
	ops     []trace.Op // template: names, resources, bytes, deps
	nPar    int        // layers with parameters
	server  []int      // PS of the k-th downlink
	compute []float64  // base duration (s) of worker op nPar+i
	upBase  int        // index of the first uplink
	updBase int        // index of the first update
	nDeps   int        // total deps over all ops
	worker  *serialMachine
	servers []*serialMachine
}

func newPlan(p *Profile, servers int) (*plan, error) {
	comp, par, compPos := p.OpLayers() // profile indices
	if len(par) == 0 {
		return nil, fmt.Errorf("zoo: profile %q has no layer with parameters: nothing to transfer", p.Model)
	}
	vars := make([]placement.Variable, len(par))
	for k, li := range par {
		vars[k] = placement.Variable{Name: p.Layers[li].Name, Bytes: p.Layers[li].ParamBytes}
	}
	part, err := placement.Greedy(vars, servers)
	if err != nil {
		return nil, fmt.Errorf("zoo: %w", err)
	}
	nP, nC := len(par), len(comp)
	pl := &plan{
		ops:     make([]trace.Op, 2*nC+3*nP),
		nPar:    nP,
		server:  part.Server,
		compute: make([]float64, 2*nC),
		upBase:  nP + 2*nC,
		updBase: 2*nP + 2*nC,
	}
	downOf := make([]int, len(p.Layers))
	for i := range downOf {
		downOf[i] = -1
	}
	for k, li := range par {
		downOf[li] = k
	}
	fwd := func(li int) int32 { return int32(nP + compPos[li]) }
	bwd := func(li int) int32 { return int32(nP + 2*nC - 1 - compPos[li]) }

	consumers := make([][]int, len(p.Layers))
	var sinks []int32
	for _, li := range comp {
		for _, in := range p.Layers[li].Inputs {
			consumers[in] = append(consumers[in], li)
		}
	}
	for _, li := range comp {
		if len(consumers[li]) == 0 {
			sinks = append(sinks, fwd(li))
		}
	}
	for k, li := range par {
		l := &p.Layers[li]
		pl.ops[k] = trace.Op{Name: l.Name + "/down", Resource: trace.Resource{Kind: trace.Downlink, PS: part.Server[k]}, Bytes: l.ParamBytes}
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
			// Fed only by the input batch and without parameters: gate it
			// on the step's first downlink, since only downlinks may start
			// a step (CATALOGUE I-10).
			deps = []int32{0}
		}
		pl.setWorkerOp(int(fwd(li)), l.Name+"/fwd", l.Forward, deps)

		deps = nil
		for _, c := range consumers[li] {
			deps = append(deps, bwd(c))
		}
		if len(deps) == 0 {
			deps = slices.Clone(sinks)
		}
		pl.setWorkerOp(int(bwd(li)), l.Name+"/bwd", l.Backward, deps)
	}
	for m := 0; m < nP; m++ {
		k := nP - 1 - m
		li := par[k]
		l := &p.Layers[li]
		ps := part.Server[k]
		pl.ops[pl.upBase+m] = trace.Op{Name: l.Name + "/up", Resource: trace.Resource{Kind: trace.Uplink, PS: ps}, Bytes: l.ParamBytes, Deps: []int32{bwd(li)}}
		pl.ops[pl.updBase+m] = trace.Op{Name: l.Name + "/update", Resource: trace.Resource{Kind: trace.PS, PS: ps}, Deps: []int32{int32(pl.upBase + m)}}
	}
	deps := make([][]int32, len(pl.ops))
	for i := range pl.ops {
		slices.Sort(pl.ops[i].Deps)
		deps[i] = pl.ops[i].Deps
		pl.nDeps += len(deps[i])
	}
	workerOps := make([]int, 2*nC)
	for i := range workerOps {
		workerOps[i] = nP + i
	}
	pl.worker = newSerialMachine(workerOps, deps)
	perPS := make([][]int, servers)
	for m := 0; m < nP; m++ {
		ps := pl.ops[pl.updBase+m].Resource.PS
		perPS[ps] = append(perPS[ps], pl.updBase+m)
	}
	for _, ops := range perPS {
		if len(ops) > 0 {
			pl.servers = append(pl.servers, newSerialMachine(ops, deps))
		}
	}
	return pl, nil
}

func (pl *plan) setWorkerOp(i int, name string, seconds float64, deps []int32) {
	pl.ops[i] = trace.Op{Name: name, Resource: trace.Resource{Kind: trace.Worker}, Deps: deps}
	pl.compute[i-pl.nPar] = seconds
}

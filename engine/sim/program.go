package sim

import (
	"fmt"
	"math/rand/v2"

	"pslab/engine/trace"
)

// Local slot layout of one worker: slot 0 is the worker's processor; PS i
// has slots 1+3i (downlink), 2+3i (uplink) and 3+3i (PS processor).
const (
	slotDown = iota
	slotUp
	slotPS
)

func localSlot(r trace.Resource) int32 {
	switch r.Kind {
	case trace.Downlink:
		return 1 + 3*int32(r.PS) + slotDown
	case trace.Uplink:
		return 1 + 3*int32(r.PS) + slotUp
	case trace.PS:
		return 1 + 3*int32(r.PS) + slotPS
	}
	return 0
}

func slotResource(l int32) trace.Resource {
	if l == 0 {
		return trace.Resource{Kind: trace.Worker}
	}
	ps := int((l - 1) / 3)
	switch (l - 1) % 3 {
	case slotDown:
		return trace.Resource{Kind: trace.Downlink, PS: ps}
	case slotUp:
		return trace.Resource{Kind: trace.Uplink, PS: ps}
	}
	return trace.Resource{Kind: trace.PS, PS: ps}
}

// program is a trace compiled for simulation: the overhead transform of
// B.1.2 applied, dependents in CSR form, per-step durations and sizes. It is
// read-only after compile and shared by concurrent runs.
type program struct {
	nOps, servers, slots int
	names                []string
	origin               []int32 // trace op index
	overhead             []bool
	delay                []bool  // overhead op spent on receive threads (no slot)
	nDelay               int     // number of delay ops
	slot                 []int32 // local slot per op; a delay op's receiving processor
	depStart, deps       []int32 // dependents CSR
	indeg                []int32
	roots                []int32
	prio                 []int32 // link scheduling priority (lower first)
	slotOps              []int32 // ops per local slot
	slotRes              []trace.Resource
	slotClass            []int32 // link class (2·PS + direction) or −1
	nSteps               int
	work                 []float64 // [step·nOps+op] compute seconds
	bytes                []int64   // [step·nOps+op] link bytes
	p                    params
}

// compile validates tr and builds the program. Link ops keep their bytes;
// their recorded durations are dropped (transfer time is bytes/B at the
// simulated bandwidth). When the overhead model is on, every communication
// op c gets an op "c/overhead" of alpha·bytes+beta seconds on the receiving
// side (worker for downlinks, PS for uplinks), which depends on c; the
// dependents of c wait for it instead. Under Processor it is a computation
// op on that processor's slot; under ReceiveThreads it is a delay op that
// takes no slot (its slot only names the receiving side in spans).
func compile(tr *trace.Trace, p params) (*program, error) {
	if tr == nil {
		return nil, fmt.Errorf("sim: nil trace")
	}
	if err := tr.Validate(); err != nil {
		return nil, fmt.Errorf("sim: %w", err)
	}
	first := tr.Steps[0].Ops
	n0 := len(first)
	servers := max(tr.Meta.Servers, 1)
	for i := range first {
		r := first[i].Resource
		if r.Kind == trace.Worker && r.PS != 0 {
			return nil, fmt.Errorf("sim: op %d %q: worker resource with PS index %d", i, first[i].Name, r.PS)
		}
		servers = max(servers, r.PS+1)
	}
	withOH := p.alpha > 0 || p.beta > 0
	// oh[c] is the program index of c's overhead op, or −1.
	oh := make([]int32, n0)
	n := n0
	for i := range first {
		oh[i] = -1
		if withOH && first[i].IsComm() {
			oh[i] = int32(n)
			n++
		}
	}
	g := &program{
		nOps: n, servers: servers, slots: 1 + 3*servers,
		names: make([]string, n), origin: make([]int32, n), overhead: make([]bool, n), delay: make([]bool, n),
		slot: make([]int32, n), indeg: make([]int32, n), prio: make([]int32, n),
		nSteps: len(tr.Steps), p: p,
	}
	// deps per program op
	depsOf := make([][]int32, n)
	for i := range first {
		op := &first[i]
		g.names[i] = op.Name
		g.origin[i] = int32(i)
		g.slot[i] = localSlot(op.Resource)
		for _, d := range op.Deps {
			if oh[d] >= 0 {
				d = oh[d]
			}
			depsOf[i] = append(depsOf[i], d)
		}
		if h := oh[i]; h >= 0 {
			g.names[h] = op.Name + "/overhead"
			g.origin[h] = int32(i)
			g.overhead[h] = true
			if p.overheadOn == ReceiveThreads {
				g.delay[h] = true
				g.nDelay++
			}
			if op.Resource.Kind == trace.Uplink {
				g.slot[h] = localSlot(trace.Resource{Kind: trace.PS, PS: op.Resource.PS})
			}
			depsOf[h] = []int32{int32(i)}
		}
	}
	g.depStart = make([]int32, n+1)
	for i := range depsOf {
		g.indeg[i] = int32(len(depsOf[i]))
		for _, d := range depsOf[i] {
			g.depStart[d+1]++
		}
	}
	for i := range n {
		g.depStart[i+1] += g.depStart[i]
	}
	g.deps = make([]int32, g.depStart[n])
	fill := append([]int32(nil), g.depStart[:n]...)
	for i := range depsOf { // ascending i: dependents in op order
		for _, d := range depsOf[i] {
			g.deps[fill[d]] = int32(i)
			fill[d]++
		}
	}
	for i := range n {
		if g.indeg[i] == 0 {
			g.roots = append(g.roots, int32(i))
		}
	}
	g.slotOps = make([]int32, g.slots)
	g.slotRes = make([]trace.Resource, g.slots)
	g.slotClass = make([]int32, g.slots)
	for i := range n {
		if !g.delay[i] {
			g.slotOps[g.slot[i]]++
		}
	}
	for l := range g.slots {
		g.slotRes[l] = slotResource(int32(l))
		g.slotClass[l] = -1
		if r := g.slotRes[l]; r.Kind.IsLink() {
			dir := int32(0)
			if r.Kind == trace.Uplink {
				dir = 1
			}
			g.slotClass[l] = 2*int32(r.PS) + dir
		}
	}
	g.work = make([]float64, g.nSteps*n)
	g.bytes = make([]int64, g.nSteps*n)
	for s := range tr.Steps {
		ops := tr.Steps[s].Ops
		row := s * n
		for i := range ops {
			op := &ops[i]
			if op.IsComm() {
				g.bytes[row+i] = op.Bytes
				if h := oh[i]; h >= 0 {
					g.work[row+int(h)] = p.alpha*float64(op.Bytes) + p.beta
				}
			} else {
				g.work[row+i] = float64(op.Duration()) * 1e-9
			}
		}
	}
	g.setPriorities(&tr.Steps[0])
	return g, nil
}

// setPriorities fills prio for the link ops according to the configured
// order. FIFO leaves all priorities at 0 (ties are FIFO).
func (g *program) setPriorities(step *trace.Step) {
	switch g.p.order {
	case TIC, ReverseTIC:
		pr := TICPriority(step)
		for i := range g.nOps {
			if !g.overhead[i] && g.slotRes[g.slot[i]].Kind.IsLink() {
				g.prio[i] = pr[g.origin[i]]
				if g.p.order == ReverseTIC {
					g.prio[i] = -g.prio[i]
				}
			}
		}
	case Random:
		r := rand.New(rand.NewPCG(g.p.seed, orderStream))
		perm := r.Perm(g.nOps)
		for i := range g.nOps {
			g.prio[i] = int32(perm[i])
		}
	}
}

// PCG stream constants: step sampling of worker w uses stream w, the Random
// order uses orderStream, so changing the order keeps the sampled steps.
const orderStream = 0x6f72646572 // "order"

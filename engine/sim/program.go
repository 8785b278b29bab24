package sim

import (
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

// program is one variant of a compiled trace as the event loop sees it:
// the overhead transform of B.1.2 applied (or not), dependents in CSR
// form, per-step durations and sizes, and link priorities. Its slices are
// read-only and shared by concurrent runs; a Program builds one layout per
// overhead structure and gives each run a copy with work and prio set.
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
	meanStep             float64   // mean recorded step time, seconds
}

// layout builds the program structure of pr for one overhead structure:
// everything but work and prio. Link ops keep their bytes; their recorded
// durations are dropped (transfer time is bytes/B at the simulated
// bandwidth). With the overhead model on (withOH), every communication op
// c gets an op "c/overhead" on the receiving side (worker for downlinks, PS
// for uplinks), which depends on c; the dependents of c wait for it
// instead. Under Processor it is a computation op on that processor's
// slot; under ReceiveThreads it is a delay op that takes no slot (its slot
// only names the receiving side in spans).
func (pr *Program) layout(withOH bool, on OverheadPlacement) *program {
	first := pr.first.Ops
	n0 := len(first)
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
		nOps: n, servers: pr.servers, slots: 1 + 3*pr.servers,
		names: make([]string, n), origin: make([]int32, n), overhead: make([]bool, n), delay: make([]bool, n),
		slot: make([]int32, n), indeg: make([]int32, n), nSteps: pr.nSteps,
		meanStep: pr.meanStep,
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
			if on == ReceiveThreads {
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
	g.bytes = make([]int64, g.nSteps*n)
	for s := range g.nSteps {
		copy(g.bytes[s*n:s*n+n0], pr.bytes[s*n0:(s+1)*n0])
	}
	return g
}

// buildWork returns the compute seconds [step·nOps+op] of layout g with
// overhead coefficients alpha (s/byte) and beta (s): recorded durations
// for computation ops, alpha·bytes + beta for overhead ops, 0 for links.
func (pr *Program) buildWork(g *program, alpha, beta float64) []float64 {
	n0, n := len(pr.first.Ops), g.nOps
	work := make([]float64, g.nSteps*n)
	for s := range g.nSteps {
		row := work[s*n : (s+1)*n]
		copy(row, pr.dur[s*n0:(s+1)*n0])
		for h := n0; h < n; h++ {
			row[h] = alpha*float64(pr.bytes[s*n0+int(g.origin[h])]) + beta
		}
	}
	return work
}

// priorities returns the link priorities of layout g for a link order:
// FIFO leaves all at 0 (ties are FIFO). seed is Config.Seed, used by Random.
func (pr *Program) priorities(g *program, order Order, seed uint64) []int32 {
	prio := make([]int32, g.nOps)
	switch order {
	case TIC, ReverseTIC:
		pr.ticOnce.Do(func() { pr.tic = TICPriority(&pr.first) })
		for i := range g.nOps {
			if !g.overhead[i] && g.slotRes[g.slot[i]].Kind.IsLink() {
				prio[i] = pr.tic[g.origin[i]]
				if order == ReverseTIC {
					prio[i] = -prio[i]
				}
			}
		}
	case Random:
		r := rand.New(rand.NewPCG(seed, orderStream))
		perm := r.Perm(g.nOps)
		for i := range g.nOps {
			prio[i] = int32(perm[i])
		}
	}
	return prio
}

// PCG stream constants: step sampling of worker w uses stream w, the Random
// order uses orderStream, so changing the order keeps the sampled steps.
const orderStream = 0x6f72646572 // "order"

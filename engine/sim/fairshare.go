package sim

// fairShare keeps the max-min fair rates of a set of flows, each through
// two resources of capacity 1 (the sending and the receiving NIC of
// nicNet), up to date as flows come and go, re-rating only the flows
// whose rate can change.
//
// Max-min fairness is the unique allocation in which every resource
// carries at most its capacity and every flow has a bottleneck: a
// saturated resource on which no flow is faster. After a change, solve
// takes as free the new flows and the flows fixed by a resource that
// changed (their bottleneck), and finds their rates by progressive
// filling (maxMin's procedure) with every other flow frozen at its rate,
// each resource offering what its frozen flows leave. It then checks the
// bottleneck condition wherever a free flow's rate moved: a resource that
// fixes frozen flows must stay saturated with none faster than them, and
// a resource that now fixes free flows must carry no faster frozen flow.
// Where the check fails, every flow of that resource is freed and the
// filling repeats. The free set only grows, so this ends, at the latest
// when every flow is free (maxMin's full recomputation); and the result
// meets the bottleneck condition for every flow, so it is the max-min
// allocation (to the tolerance shareTol). This is the partial
// invalidation of SimGrid's lazy max-min solver (Donassolo et al., LSAP
// 2010) with the invalidated set grown from the bottleneck relation
// rather than a whole connected component: a colocated all-to-all cluster
// is one component, yet an event changes a few rates (6 of 559 flows on
// average at 32 nodes × 8 GPUs, ResNet-50, BSP).
//
// Loads are kept incrementally; a resource whose flows are all free, or
// which fixes free flows next to frozen ones, has its frozen load summed
// exactly, so rounding cannot build up where it sets a rate.
type fairShare struct {
	fl    []flowShare // [slot]
	rs    []resShare  // [resource]
	seeds []int32     // resources whose flows changed since the last solve
	gone  []goneFlow  // flows ended since the last solve

	// Scratch of solve.
	epoch   uint32    // marks of this solve
	free    []int32   // free flows
	touched []int32   // resources of free flows and seeds
	byRes   []int32   // free-flow indices per touched resource (CSR)
	newRate []float64 // [free index]
	newBott []int32   // [free index]
	live    []int32   // touched resources with open flows, in fill
	grow    []int32   // resources whose check failed
}

// flowShare is one flow's state. A flow's fields, like a resource's, sit
// together, as solve touches them all at once (one array per field was
// 2% slower at 64 nodes).
type flowShare struct {
	rate     float64  // share of capacity
	src, dst int32    // its two resources
	bott     int32    // resource that fixes the rate, −1 for a new flow
	at       [2]int32 // its index in rs[src].on and rs[dst].on
	mark     uint32   // epoch of the solve in which it is free
}

// goneFlow is what remains of an ended flow until the next solve.
type goneFlow struct {
	src, dst, bott int32
	rate           float64
}

// resShare is one resource's state and its scratch space in solve.
type resShare struct {
	on    []int32 // flows through it
	load  float64 // Σ rate over on
	level float64 // rate of the flows it fixes (valid when nb > 0)
	nb    int32   // how many flows it fixes
	// scanned is the epoch of the solve that freed the flows it fixes.
	scanned uint32

	// Scratch of solve, valid while mark is the solve's epoch.
	frozen   float64 // load of its frozen flows
	capLeft  float64 // capacity left in fill
	open     int32   // free flows not yet fixed in fill
	nfree    int32   // free flows through it
	frozenNb int32   // frozen flows it fixes
	start    int32   // offset of its free flows in byRes
	mark     uint32  // epoch of the solve that touches it
	exact    bool    // frozen is an exact sum
}

// shareTol is the tolerance of the bottleneck checks, on loads (capacity
// 1) and, relative, on rates: far above the rounding of a filling (about
// 1e-16) and far below any rate difference that changes an event order.
const shareTol = 1e-12

func newFairShare(slots, resources int) *fairShare {
	return &fairShare{fl: make([]flowShare, slots), rs: make([]resShare, resources)}
}

// add starts flow slot through resources src and dst. A flow between the
// same two resources that ended since the last solve hands over its rate
// and bottleneck: max-min rates depend only on how many flows join each
// pair of resources, so the allocation is unchanged, and add reports true
// (rated). This is the common event, a worker's next chunk from the same
// PS as the one that just ended; it halves the solves of a colocated
// cluster (measured: 64 nodes × 8 GPUs). Otherwise the flow is unrated
// (rate 0) until the next solve.
func (f *fairShare) add(slot, src, dst int32) (rated bool) {
	fl := &f.fl[slot]
	fl.rate, fl.bott, fl.src, fl.dst = 0, -1, src, dst
	fl.at = [2]int32{int32(len(f.rs[src].on)), int32(len(f.rs[dst].on))}
	f.rs[src].on = append(f.rs[src].on, slot)
	f.rs[dst].on = append(f.rs[dst].on, slot)
	for i, g := range f.gone {
		if g.src == src && g.dst == dst {
			fl.rate, fl.bott = g.rate, g.bott
			f.rs[src].load += g.rate
			f.rs[dst].load += g.rate
			if g.bott >= 0 {
				f.rs[g.bott].nb++
			}
			f.gone[i] = f.gone[len(f.gone)-1]
			f.gone = f.gone[:len(f.gone)-1]
			return true
		}
	}
	f.seeds = append(f.seeds, src, dst)
	return false
}

// remove ends flow slot.
func (f *fairShare) remove(slot int32) {
	fl := &f.fl[slot]
	if fl.bott >= 0 {
		f.rs[fl.bott].nb--
	}
	for side, r := range [2]int32{fl.src, fl.dst} {
		f.unlink(r, fl.at[side])
		f.rs[r].load -= fl.rate
		if len(f.rs[r].on) == 0 {
			f.rs[r].load, f.rs[r].nb = 0, 0
		}
	}
	f.gone = append(f.gone, goneFlow{src: fl.src, dst: fl.dst, bott: fl.bott, rate: fl.rate})
}

// unlink removes the flow at index i of resource r's list.
func (f *fairShare) unlink(r, i int32) {
	l := f.rs[r].on
	last := l[len(l)-1]
	l[i] = last
	if f.fl[last].src == r {
		f.fl[last].at[0] = i
	}
	if f.fl[last].dst == r {
		f.fl[last].at[1] = i
	}
	f.rs[r].on = l[:len(l)-1]
}

// solve re-rates the flows after the adds and removes since the last
// call, and calls moved for every flow whose rate changed, after its new
// rate is in f.rate.
func (f *fairShare) solve(moved func(slot int32, old float64)) {
	for _, g := range f.gone {
		f.seeds = append(f.seeds, g.src, g.dst)
	}
	f.gone = f.gone[:0]
	if len(f.seeds) == 0 {
		return
	}
	f.epoch++
	f.free, f.touched = f.free[:0], f.touched[:0]
	for _, r := range f.seeds {
		f.touch(r)
		// A seed listed again frees nothing new (no bottleneck changes
		// before commit), and seeds repeat: a barrier starts many flows
		// at one PS NIC (6.9 seeds a solve at 128 colocated nodes).
		// Skipping the repeats, the same allocation in the same order:
		// BenchmarkClusterScaling/colocated 8..128 nodes 0.87× (3 A/B
		// pairs), 256 nodes 16.8 CPU-s against 20.3.
		if f.rs[r].scanned == f.epoch {
			continue
		}
		f.rs[r].scanned = f.epoch
		for _, g := range f.rs[r].on {
			if b := f.fl[g].bott; b == r || b < 0 {
				f.makeFree(g)
			}
		}
	}
	f.seeds = f.seeds[:0]
	for {
		f.prepare()
		f.fill()
		if !f.check() {
			break
		}
		for _, r := range f.grow {
			for _, g := range f.rs[r].on {
				f.makeFree(g)
			}
		}
	}
	f.commit(moved)
}

func (f *fairShare) touch(r int32) {
	if f.rs[r].mark != f.epoch {
		f.rs[r].mark, f.rs[r].exact = f.epoch, false
		f.touched = append(f.touched, r)
	}
}

func (f *fairShare) makeFree(g int32) {
	if f.fl[g].mark == f.epoch {
		return
	}
	f.fl[g].mark = f.epoch
	f.free = append(f.free, g)
	for _, r := range [2]int32{f.fl[g].src, f.fl[g].dst} {
		f.touch(r)
		f.rs[r].exact = false // its frozen flows changed
	}
}

// prepare sets, for every touched resource, what its frozen flows use and
// leave, and lists its free flows (CSR over byRes).
func (f *fairShare) prepare() {
	for _, r := range f.touched {
		f.rs[r].open, f.rs[r].frozenNb = 0, f.rs[r].nb
		if !f.rs[r].exact {
			f.rs[r].frozen = f.rs[r].load
		}
	}
	for _, g := range f.free {
		for _, r := range [2]int32{f.fl[g].src, f.fl[g].dst} {
			f.rs[r].open++
			if !f.rs[r].exact {
				f.rs[r].frozen -= f.fl[g].rate
			}
			if f.fl[g].bott == r {
				f.rs[r].frozenNb--
			}
		}
	}
	var off int32
	for _, r := range f.touched {
		if int(f.rs[r].open) == len(f.rs[r].on) && !f.rs[r].exact {
			f.rs[r].frozen, f.rs[r].exact = 0, true // no frozen flow: exactly 0
		}
		f.rs[r].start, f.rs[r].nfree = off, f.rs[r].open
		off += f.rs[r].open
		f.rs[r].capLeft = max(1-f.rs[r].frozen, 0)
	}
	f.byRes = sized(f.byRes, int(off))
	f.newRate = sized(f.newRate, len(f.free))
	f.newBott = sized(f.newBott, len(f.free))
	for i, g := range f.free {
		for _, r := range [2]int32{f.fl[g].src, f.fl[g].dst} {
			f.byRes[f.rs[r].start] = int32(i)
			f.rs[r].start++
		}
		f.newBott[i] = -1
	}
	for _, r := range f.touched { // start[r] now ends r's run: rewind it
		f.rs[r].start -= f.rs[r].open
	}
}

package sim

import "math"

// nicNet is the network of a colocated cluster (Config.Colocated): node i
// runs worker i and PS shard i, and its NIC carries, in each direction,
// both the worker's transfers to and from the other nodes' shards and its
// shard's transfers to and from the other workers. A transfer from node a
// to node b is a flow through two resources, the sending direction of a's
// NIC (out(a) = 2a) and the receiving direction of b's (in(b) = 2b+1),
// each of bandwidth B. Flows share them max-min fairly (maxMinRates), the
// fluid limit of TCP flows through two bottlenecks; with one PS NIC this
// is icpe20's equal share 1/n. A transfer between worker i and its own
// shard i does not touch the network: it takes no time (its parsing
// overhead, if any, still applies).
//
// Rates differ between the flows of one NIC, so unlike linkClass each
// flow keeps its own remaining bytes and finish time. The rates are kept
// by fairShare, which after each change re-rates only the flows whose
// rate can change; a flow's remaining bytes are advanced only when its
// rate changes (rem at t0), and the flows are a binary heap by (finish
// time, start seq) in which a re-rated flow moves by itself, O(log F).
// Before, every change recomputed every rate (maxMin) and rebuilt the
// heap, O(R² + F) an event: ResNet-50 colocated BSP, 8 GPUs per node, 100
// steps (predict -paper) took 0.23 / 1.33 / 9.0 CPU-s at 8 / 16 / 32
// nodes, about nodes^2.7; now 0.28 / 0.97 / 3.9 CPU-s at 16 / 32 / 64
// nodes (BenchmarkClusterScaling in engine/predict for the sweep to 256).
// With full set, the rates are recomputed from scratch that way: the
// reference the incremental solver is tested against
// (TestColocatedIncrementalMatchesFull).
type nicNet struct {
	finish   []float64 // [slot] finish time of its running flow
	seq      []uint64  // [slot] start seq of its running flow
	rem      []float64 // [slot] bytes left at t0
	t0       []float64 // [slot] when rem was last advanced
	pos      []int32   // [slot] index in flows, or −1
	flows    []int32   // slots with a running flow, a min-heap by (finish, seq)
	now      float64
	bw       float64 // B, bytes/s
	dirty    bool
	share    *fairShare
	moved    func(slot int32, old float64) // n.rerate, bound once
	full     bool                          // recompute every rate with fill
	fill     maxMin
	changed  []int32 // scratch of recomputeFull: (slot, index in rates) pairs
	src, dst []int32 // [slot] scratch of recomputeFull: resources, from share
}

func newNICNet(slots, nodes int, bw float64, full bool) *nicNet {
	n := &nicNet{
		finish: make([]float64, slots), seq: make([]uint64, slots), rem: make([]float64, slots),
		t0: make([]float64, slots), pos: make([]int32, slots), flows: make([]int32, 0, slots), bw: bw,
		share: newFairShare(slots, 2*nodes), full: full,
	}
	n.moved = n.rerate
	if full {
		n.fill = newMaxMin(2*nodes, slots)
		n.src, n.dst = make([]int32, slots), make([]int32, slots)
	}
	for i := range n.pos {
		n.pos[i] = -1
	}
	return n
}

// start begins a flow of b bytes on slot from resource src to dst at now.
// Unless it takes over the rate of a flow that just ended between the
// same resources (fairShare.add), its rate (0 until then, finish +Inf) is
// set by the next recompute, at the same instant.
func (n *nicNet) start(slot int32, b int64, seq uint64, src, dst int32, now float64) {
	n.rem[slot], n.seq[slot], n.finish[slot], n.t0[slot] = float64(b), seq, math.Inf(1), now
	if n.share.add(slot, src, dst) {
		if r := n.share.fl[slot].rate; r > 0 {
			n.finish[slot] = now + n.rem[slot]/(r*n.bw)
		}
	}
	n.pos[slot] = int32(len(n.flows))
	n.flows = append(n.flows, slot)
	n.up(len(n.flows) - 1)
	n.dirty = true
}

// pop ends the flow that finishes first and returns its slot.
func (n *nicNet) pop() int32 {
	slot := n.flows[0]
	last := len(n.flows) - 1
	n.flows[0] = n.flows[last]
	n.pos[n.flows[0]] = 0
	n.flows = n.flows[:last]
	if last > 0 {
		n.down(0)
	}
	n.pos[slot] = -1
	n.share.remove(slot)
	n.dirty = true
	return slot
}

// top returns the entry of the flow that finishes first, false if no flow
// runs.
func (n *nicNet) top() (entry, bool) {
	if len(n.flows) == 0 {
		return entry{}, false
	}
	f := n.flows[0]
	return entry{key: n.finish[f], seq: n.seq[f], slot: f}, true
}

// The heap of flows is written out rather than container/heap's, which
// boxes every pushed value in an interface (an allocation per flow).
func (n *nicNet) less(a, b int32) bool {
	return n.finish[a] < n.finish[b] || (n.finish[a] == n.finish[b] && n.seq[a] < n.seq[b])
}

func (n *nicNet) up(i int) {
	f := n.flows[i]
	for i > 0 {
		p := (i - 1) / 2
		if !n.less(f, n.flows[p]) {
			break
		}
		n.flows[i] = n.flows[p]
		n.pos[n.flows[i]] = int32(i)
		i = p
	}
	n.flows[i], n.pos[f] = f, int32(i)
}

func (n *nicNet) down(i int) {
	f := n.flows[i]
	for {
		c := 2*i + 1
		if c >= len(n.flows) {
			break
		}
		if c+1 < len(n.flows) && n.less(n.flows[c+1], n.flows[c]) {
			c++
		}
		if !n.less(n.flows[c], f) {
			break
		}
		n.flows[i] = n.flows[c]
		n.pos[n.flows[i]] = int32(i)
		i = c
	}
	n.flows[i], n.pos[f] = f, int32(i)
}

// recompute sets the max-min fair rates after the flows changed at now.
func (n *nicNet) recompute(now float64) {
	n.dirty, n.now = false, now
	if n.full {
		n.recomputeFull()
		return
	}
	n.share.solve(n.moved)
}

// netDeferred reports whether the colocated network's rates may wait
// because another event is due at the current instant: a computation
// completion, or a flow whose finish time (at the rates before this
// instant's changes) is now (within netTieTol). Such a flow has no bytes
// left at now whatever the new rates, and no other event reads a rate,
// so the flows that start and end at one instant are re-rated once,
// after all of them, instead of once per event; the allocation is the
// same, since fairShare.solve takes every add and remove since its last
// call. Under BSP, where a barrier releases symmetric flows that end
// together, about half of the re-ratings were at the instant of the one
// before: ResNet-50, 128 nodes × 8 GPUs colocated took 18.3 CPU-s, 6.9
// with this.
func (s *sim) netDeferred() bool {
	if s.net == nil || !s.net.dirty {
		return false
	}
	if len(s.compute.a) > 0 && s.compute.a[0].key <= s.now {
		return true
	}
	e, ok := s.net.top()
	return ok && e.key-s.now <= netTieTol*s.now
}

// netTieTol is the relative difference below which a flow's finish time
// counts as the current instant for netDeferred. Symmetric flows meant to
// end together get rates about 1 ulp apart from the full solver's
// rounding (see TestColocatedIncrementalMatchesFull), so with an exact
// comparison that rounding, not the model, decided whether they were
// re-rated together. Deferring a flow that ends up to 1e-12·now later
// keeps the other flows at their rates that much longer: an error of
// about 1e-12 of a transfer.
const netTieTol = 1e-12

// rerate advances slot's remaining bytes to now at its old rate, sets its
// finish time at the new rate (in n.share) and moves it in the heap.
func (n *nicNet) rerate(slot int32, old float64) {
	n.rem[slot] = max(n.rem[slot]-old*n.bw*(n.now-n.t0[slot]), 0)
	n.t0[slot] = n.now
	n.finish[slot] = math.Inf(1)
	if r := n.share.fl[slot].rate; r > 0 {
		n.finish[slot] = n.now + n.rem[slot]/(r*n.bw)
	}
	i := int(n.pos[slot])
	n.up(i)
	n.down(int(n.pos[slot]))
}

// recomputeFull rates every flow from scratch (maxMin), the reference.
func (n *nicNet) recomputeFull() {
	sh := n.share
	sh.seeds, sh.gone = sh.seeds[:0], sh.gone[:0]
	for _, f := range n.flows { // maxMin reads resources by slot
		n.src[f], n.dst[f] = sh.fl[f].src, sh.fl[f].dst
	}
	rates := n.fill.rates(n.flows, n.src, n.dst)
	n.changed = n.changed[:0]
	for i, f := range n.flows {
		if rates[i] != sh.fl[f].rate {
			n.changed = append(n.changed, f, int32(i))
		}
	}
	for k := 0; k < len(n.changed); k += 2 {
		f := n.changed[k]
		old := sh.fl[f].rate
		sh.fl[f].rate = rates[n.changed[k+1]]
		n.rerate(f, old)
	}
}

// startFlow starts the transfer of b bytes on link slot of worker w
// between colocated nodes (Config.Colocated): a flow from the PS's node to
// w's for a downlink, from w's to the PS's for an uplink; between w and its
// own shard, no flow, and the chunk completes at once.
func (s *sim) startFlow(slot int32, w int, b int64, seq uint64) {
	class := s.slots[slot].class
	server := class / 2
	if int(server) == w {
		s.compute.push(entry{key: s.now, seq: seq, slot: slot})
		return
	}
	src, dst := 2*server, 2*int32(w)+1 // out(PS node) → in(worker node)
	if class%2 == 1 {
		src, dst = 2*int32(w), 2*server+1
	}
	s.net.start(slot, b, seq, src, dst, s.now)
	s.anyDirty = true
}

// maxMin computes max-min fair rates by progressive filling: repeatedly
// the resource with the smallest fair share (capacity left over flows not
// yet fixed) fixes its flows at that share, which is taken from their
// other resource. Every resource has capacity 1. Each round scans the
// resources for the smallest share, O(R) a round and O(R²) in all; a
// min-heap of resources with lazy updates was measured slower (2.2 s
// against 0.9 s at 16 nodes), as it pays a push per fixed flow and flows
// outnumber resources. Its slices are scratch space reused across calls.
type maxMin struct {
	capLeft []float64 // [resource]
	open    []int32   // [resource] flows not yet fixed
	start   []int32   // [resource+1] CSR offsets into byRes
	byRes   []int32   // flow indices per resource
	next    []int32   // [resource] fill position while building byRes
	fixed   []bool    // [flow index]
	out     []float64 // [flow index] rate
	used    []int32   // resources with at least one flow
}

func newMaxMin(resources, flows int) maxMin {
	return maxMin{
		capLeft: make([]float64, resources), open: make([]int32, resources),
		start: make([]int32, resources+1), byRes: make([]int32, 0, 2*flows), next: make([]int32, resources),
		fixed: make([]bool, 0, flows), out: make([]float64, 0, flows), used: make([]int32, 0, resources),
	}
}

// share is resource r's fair share of what is left.
func (m *maxMin) share(r int32) float64 { return max(m.capLeft[r], 0) / float64(m.open[r]) }

// rates returns the max-min fair rate of each flow in flows (slots whose
// resources are src[slot] and dst[slot]), in the order of flows. Ties
// between resources go to the lowest index, so the result is
// deterministic; the rates do not depend on the order of flows.
func (m *maxMin) rates(flows []int32, src, dst []int32) []float64 {
	F := len(flows)
	m.out, m.fixed = m.out[:F], m.fixed[:F]
	clear(m.open)
	for _, f := range flows {
		m.open[src[f]]++
		m.open[dst[f]]++
	}
	m.used = m.used[:0]
	var off int32
	for r := range m.open {
		m.start[r] = off
		off += m.open[r]
		m.capLeft[r] = 1
		if m.open[r] > 0 {
			m.used = append(m.used, int32(r))
		}
	}
	m.start[len(m.open)] = off
	m.byRes = m.byRes[:off]
	next := m.next
	copy(next, m.start[:len(m.open)])
	for i, f := range flows {
		m.byRes[next[src[f]]] = int32(i)
		next[src[f]]++
		m.byRes[next[dst[f]]] = int32(i)
		next[dst[f]]++
		m.fixed[i] = false
	}
	for left := F; left > 0; {
		best, share := int32(-1), math.Inf(1)
		for _, r := range m.used {
			if m.open[r] == 0 {
				continue
			}
			if s := m.share(r); s < share {
				best, share = r, s
			}
		}
		for _, i := range m.byRes[m.start[best]:m.start[best+1]] {
			if m.fixed[i] {
				continue
			}
			m.fixed[i], m.out[i] = true, share
			left--
			f := flows[i]
			other := src[f]
			if other == best {
				other = dst[f]
			}
			m.capLeft[other] -= share
			m.open[other]--
		}
		m.open[best], m.capLeft[best] = 0, 0
	}
	return m.out
}

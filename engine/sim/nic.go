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
// flow keeps its own remaining bytes and finish time. Rates are recomputed
// once per instant at which the set of flows changed (sim.updateRates),
// O(R² + F) for R = 2W resources and F flows; only flows whose rate changed
// get a new heap entry, and entries whose finish time or chunk is no
// longer current are skipped when they reach the top.
type nicNet struct {
	h        minHeap   // (finish time, start seq, slot); stale entries skipped
	finish   []float64 // [slot] finish time of its running flow
	seq      []uint64  // [slot] start seq of its running flow
	rem      []float64 // [slot] bytes left at lastT
	rate     []float64 // [slot] share of B
	src, dst []int32   // [slot] resources of its running flow
	pos      []int32   // [slot] index in flows, or −1
	flows    []int32   // slots with a running flow
	lastT    float64
	bw       float64 // B, bytes/s
	dirty    bool
	fill     maxMin
}

func newNICNet(slots, nodes int, bw float64) *nicNet {
	n := &nicNet{
		finish: make([]float64, slots), seq: make([]uint64, slots), rem: make([]float64, slots),
		rate: make([]float64, slots), src: make([]int32, slots), dst: make([]int32, slots),
		pos: make([]int32, slots), flows: make([]int32, 0, slots), bw: bw,
		fill: newMaxMin(2*nodes, slots),
	}
	n.h.a = make([]entry, 0, 2*slots)
	for i := range n.pos {
		n.pos[i] = -1
	}
	return n
}

// start begins a flow of b bytes on slot from resource src to dst; its
// rate is set by the next recompute, at the same instant.
func (n *nicNet) start(slot int32, b int64, seq uint64, src, dst int32) {
	n.rem[slot], n.rate[slot], n.seq[slot] = float64(b), 0, seq
	n.src[slot], n.dst[slot] = src, dst
	n.pos[slot] = int32(len(n.flows))
	n.flows = append(n.flows, slot)
	n.dirty = true
}

// remove ends the flow on slot.
func (n *nicNet) remove(slot int32) {
	i := n.pos[slot]
	last := n.flows[len(n.flows)-1]
	n.flows[i], n.pos[last] = last, i
	n.flows = n.flows[:len(n.flows)-1]
	n.pos[slot] = -1
	n.dirty = true
}

// top drops stale entries and returns the entry of the flow that finishes
// first, false if no flow runs.
func (n *nicNet) top() (entry, bool) {
	for len(n.h.a) > 0 {
		e := n.h.a[0]
		if n.pos[e.slot] >= 0 && n.seq[e.slot] == e.seq && n.finish[e.slot] == e.key {
			return e, true
		}
		n.h.pop()
	}
	return entry{}, false
}

// recompute advances every flow to now at its old rate, then sets the
// max-min fair rates of the current flows and queues the finish time of
// every flow whose rate changed.
func (n *nicNet) recompute(now float64) {
	n.dirty = false
	dt := now - n.lastT
	n.lastT = now
	for _, f := range n.flows {
		n.rem[f] = max(n.rem[f]-n.rate[f]*n.bw*dt, 0)
	}
	rates := n.fill.rates(n.flows, n.src, n.dst)
	for i, f := range n.flows {
		r := rates[i]
		if r == n.rate[f] {
			continue
		}
		n.rate[f] = r
		n.finish[f] = math.Inf(1)
		if r > 0 {
			n.finish[f] = now + n.rem[f]/(r*n.bw)
		}
		n.h.push(entry{key: n.finish[f], seq: n.seq[f], slot: f})
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
	s.net.start(slot, b, seq, src, dst)
	s.anyDirty = true
}

// maxMin computes max-min fair rates by progressive filling: repeatedly
// the resource with the smallest fair share (capacity left over flows not
// yet fixed) fixes its flows at that share, which is taken from their
// other resource. Every resource has capacity 1. Its slices are scratch
// space reused across calls.
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
			if s := max(m.capLeft[r], 0) / float64(m.open[r]); s < share {
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

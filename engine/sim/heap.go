package sim

// entry is an event-queue element: a completion time (or a virtual-time
// finish tag) and the sequence number of the chunk's start, which breaks
// ties first in, first out.
type entry struct {
	key  float64
	seq  uint64
	slot int32
}

func (a entry) before(b entry) bool {
	return a.key < b.key || (a.key == b.key && a.seq < b.seq)
}

// minHeap is a binary heap of entries ordered by (key, seq). Its backing
// array is preallocated, so push and pop never allocate.
//
// The event loop takes the top with take instead of pop: the top stays in
// place as a hole that the next push fills with one sift-down (most events
// start a chunk on the heap they came from), and settle removes it if no
// push came. The set of entries, and so the order in which they leave, is
// the same as with pop and push, since (key, seq) is a total order.
//
// Alternatives measured on the zoo Inception-v3 runs (W = 4 and 10, 300
// steps; median of pairwise ratios of events per CPU second on the shared
// 2-core machine, ±5% noise): the hole 1.04× over pop + push (5 pairs);
// on top of it, a 4-ary heap 0.97× (5 pairs) and 16-byte entries packing
// seq<<k | slot into one tag 0.94× (9 pairs), both dropped; a branch-free
// 128-bit (key bits, seq) compare was slower in a micro-benchmark. A
// Floyd's bottom-up sift-down (the hole to a leaf along the smaller
// child, then the new entry up) was slower: 1.04× CPU on the zoo Inception
// sweep, 1.13× on predict's 64-node BSP sweep (3-5 pairs, 2026-11-25),
// and a 4-ary heap 1.02× on that BSP sweep too (3 pairs). A
// calendar queue was not tried: at W = 10 the compute heap holds 2–12
// entries (median about 9) and a link class at most W, too few for
// buckets to pay.
type minHeap struct {
	a    []entry
	hole bool // a[0] was taken and awaits replacement
}

// take returns the top entry and leaves it as a hole.
func (h *minHeap) take() entry {
	h.hole = true
	return h.a[0]
}

// settle removes the hole left by take, if any.
func (h *minHeap) settle() {
	if h.hole {
		h.hole = false
		h.pop()
	}
}

func (h *minHeap) push(e entry) {
	if h.hole {
		h.hole = false
		h.down(e)
		return
	}
	a := append(h.a, e)
	i := len(a) - 1
	for i > 0 {
		p := (i - 1) / 2
		if !e.before(a[p]) {
			break
		}
		a[i] = a[p]
		i = p
	}
	a[i] = e
	h.a = a
}

// down places e at the root, replacing the top, and sifts it down.
func (h *minHeap) down(e entry) {
	a := h.a
	n := len(a)
	i := 0
	for {
		c := 2*i + 1
		if c >= n {
			break
		}
		if c+1 < n && a[c+1].before(a[c]) {
			c++
		}
		if !a[c].before(e) {
			break
		}
		a[i] = a[c]
		i = c
	}
	a[i] = e
}

func (h *minHeap) pop() entry {
	top := h.a[0]
	n := len(h.a) - 1
	last := h.a[n]
	h.a = h.a[:n]
	if n > 0 {
		h.down(last)
	}
	return top
}

// qent is a waiting stream in a priority-ordered link scheduler.
type qent struct {
	prio int32
	seq  uint32
	op   int32
}

func (a qent) before(b qent) bool {
	return a.prio < b.prio || (a.prio == b.prio && a.seq < b.seq)
}

// pushQ and popQ maintain a binary heap of qents in a[:n]; the caller owns
// the capacity.
func pushQ(a []qent, n int, e qent) {
	i := n
	for i > 0 {
		p := (i - 1) / 2
		if !e.before(a[p]) {
			break
		}
		a[i] = a[p]
		i = p
	}
	a[i] = e
}

func popQ(a []qent, n int) qent {
	top := a[0]
	n--
	last := a[n]
	i := 0
	for {
		c := 2*i + 1
		if c >= n {
			break
		}
		if c+1 < n && a[c+1].before(a[c]) {
			c++
		}
		if !a[c].before(last) {
			break
		}
		a[i] = a[c]
		i = c
	}
	if n > 0 {
		a[i] = last
	}
	return top
}

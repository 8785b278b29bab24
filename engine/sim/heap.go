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
type minHeap struct{ a []entry }

func (h *minHeap) push(e entry) {
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

func (h *minHeap) pop() entry {
	a := h.a
	top := a[0]
	n := len(a) - 1
	last := a[n]
	a = a[:n]
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
	h.a = a
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

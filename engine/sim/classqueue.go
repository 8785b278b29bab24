package sim

import "math"

// classQueue orders the link classes by their next completion (next, then
// the head chunk's seq), an indexed binary min-heap, so the event loop
// finds the earliest class in O(1) and a class whose rate or head changed
// moves in O(log C), instead of a scan of all 2M classes per event. It
// also keeps the classes whose rates updateRates must revisit: the dirty
// ones (count changed) and, with several PSs, the ones with a worker
// alone, whose share depends on that worker's other transfers. With 64
// separate PSs × 8-GPU nodes (ResNet-50, BSP, 100 steps) the scans were
// 65% of the CPU time.
type classQueue struct {
	scan  bool    // few classes: find the earliest by a scan, keep no heap
	heap  []int32 // class indices
	pos   []int32 // [class] index in heap
	dirty []int32 // classes marked dirty since the last updateRates
	alone []int32 // classes with count 1 (several PSs only)
	inAl  []int32 // [class] index in alone, or −1
}

// scanClasses is the most classes for which classQueue scans instead of
// keeping a heap: with one PS (2 classes) the heap's upkeep cost 8% of
// BenchmarkZooInceptionSweep's events per CPU second.
const scanClasses = 4

func newClassQueue(n int) classQueue {
	q := classQueue{scan: n <= scanClasses, heap: make([]int32, n), pos: make([]int32, n), inAl: make([]int32, n)}
	for i := range n {
		q.heap[i], q.pos[i], q.inAl[i] = int32(i), int32(i), -1
	}
	return q // every class starts idle at next = +Inf: any order is a heap
}

// markDirty flags class i for updateRates.
func (s *sim) markDirty(i int32) {
	c := &s.classes[i]
	if !c.dirty {
		c.dirty = true
		if !s.cq.scan {
			s.cq.dirty = append(s.cq.dirty, i)
		}
	}
	s.anyDirty = true
}

// top returns the class with the earliest completion, false when no class
// has a running chunk. With scan set, the event loop scans instead.
func (q *classQueue) top(classes []linkClass) (int32, bool) {
	if len(q.heap) == 0 {
		return 0, false
	}
	i := q.heap[0]
	return i, !math.IsInf(classes[i].next, 1)
}

func classBefore(classes []linkClass, a, b int32) bool {
	ca, cb := &classes[a], &classes[b]
	if ca.next != cb.next {
		return ca.next < cb.next
	}
	return ca.headSeq() < cb.headSeq()
}

// fix restores the heap after class i's next or head changed.
func (q *classQueue) fix(classes []linkClass, i int32) {
	if q.scan {
		return
	}
	k := int(q.pos[i])
	for k > 0 {
		p := (k - 1) / 2
		if !classBefore(classes, i, q.heap[p]) {
			break
		}
		q.heap[k] = q.heap[p]
		q.pos[q.heap[k]] = int32(k)
		k = p
	}
	for {
		c := 2*k + 1
		if c >= len(q.heap) {
			break
		}
		if c+1 < len(q.heap) && classBefore(classes, q.heap[c+1], q.heap[c]) {
			c++
		}
		if !classBefore(classes, q.heap[c], i) {
			break
		}
		q.heap[k] = q.heap[c]
		q.pos[q.heap[k]] = int32(k)
		k = c
	}
	q.heap[k], q.pos[i] = i, int32(k)
}

// setAlone records whether class i has exactly one worker.
func (q *classQueue) setAlone(i int32, alone bool) {
	switch k := q.inAl[i]; {
	case alone && k < 0:
		q.inAl[i] = int32(len(q.alone))
		q.alone = append(q.alone, i)
	case !alone && k >= 0:
		last := q.alone[len(q.alone)-1]
		q.alone[k], q.inAl[last] = last, k
		q.alone = q.alone[:len(q.alone)-1]
		q.inAl[i] = -1
	}
}

package sim

import "math"

// linkClass holds the chunks running on one direction of one PS NIC. All of
// them progress at the same rate (1/n, or the capped share of the one worker
// alone on it), so the class keeps a virtual time v with dv/dt = rate and
// each chunk a finish tag v₀ + work: an event costs O(log n), not O(n).
type linkClass struct {
	h           minHeap // (finish tag, seq, slot)
	v, lastT    float64
	rate, inv   float64 // share per chunk and its inverse
	count       int32   // workers with a running chunk (active[r] of Alg. 3.1)
	wsum        int64   // sum of their indices: the worker when count == 1
	next        float64 // real time at which the top chunk completes
	dirty       bool
	dir, server int
}

func (c *linkClass) sync(now float64) {
	c.v += (now - c.lastT) * c.rate
	c.lastT = now
}

// headSeq is the seq of the chunk that completes first (valid when the
// class has one).
func (c *linkClass) headSeq() uint64 {
	if len(c.h.a) == 0 {
		return math.MaxUint64
	}
	return c.h.a[0].seq
}

func (c *linkClass) refresh() {
	if len(c.h.a) == 0 {
		c.next = math.Inf(1)
		return
	}
	c.next = c.lastT + max(c.h.a[0].key-c.v, 0)*c.inv
}

// updateRates recomputes the share of every link class whose set of active
// workers changed (Share, B.1.3 and B.1.5), after advancing its virtual time
// at the old rate (lines 16–17 use the shares before the change).
func (s *sim) updateRates() {
	s.anyDirty = false
	if s.net != nil {
		if s.net.dirty {
			s.net.recompute(s.now)
		}
		return
	}
	if s.cq.scan { // few classes: visit them all (classQueue)
		for i := range s.classes {
			if s.singlePS {
				if s.classes[i].dirty {
					s.rateSingle(int32(i))
				}
				continue
			}
			s.rerate(int32(i))
		}
		return
	}
	if s.singlePS {
		for _, i := range s.cq.dirty {
			s.rateSingle(i)
		}
		s.cq.dirty = s.cq.dirty[:0]
		return
	}
	// Several PSs: a class's rate changes when its count does (dirty) or,
	// for a worker alone on it, when that worker's other transfers change;
	// so the dirty classes and every alone class are revisited. The
	// order does not matter: each reads counts and busy flags only.
	for _, i := range s.cq.dirty {
		s.cq.setAlone(i, s.classes[i].count == 1 && s.classes[i].dir != cpuDir)
		s.rerate(i)
	}
	s.cq.dirty = s.cq.dirty[:0]
	for _, i := range s.cq.alone {
		s.rerate(i)
	}
}

// rateSingle sets dirty class i's rate with one PS: 1/n.
func (s *sim) rateSingle(i int32) {
	c := &s.classes[i]
	c.dirty = false
	c.sync(s.now)
	c.rate, c.inv = 0, 0
	if c.count > 0 {
		c.rate, c.inv = 1/float64(c.count), float64(c.count)
	}
	c.refresh()
	s.cq.fix(s.classes, i)
}

// rerate sets class i's rate (Share) if it changed or the class is dirty.
func (s *sim) rerate(i int32) {
	c := &s.classes[i]
	rate := 0.0
	switch {
	case c.count > 1:
		rate = 1 / float64(c.count)
	case c.count == 1 && c.dir == cpuDir: // a shared PS processor: all of it
		rate = 1
	case c.count == 1:
		rate = s.aloneShare(int(c.wsum), c.dir, c.server)
	}
	if !c.dirty && rate == c.rate {
		return
	}
	c.dirty = false
	c.sync(s.now)
	c.rate, c.inv = rate, 0
	if rate > 0 {
		c.inv = 1 / rate
	}
	c.refresh()
	s.cq.fix(s.classes, i)
}

// aloneShare is Share for worker w alone on PS server in direction dir.
func (s *sim) aloneShare(w, dir, server int) float64 {
	base := w * s.S
	for j := range s.g.servers {
		s.act[j] = s.slots[base+1+3*j+dir].busy
		s.cnt[j] = int(s.classes[2*j+dir].count)
	}
	Share(s.act, s.cnt, s.shr)
	return s.shr[server]
}

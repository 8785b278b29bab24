package sim

import "math"

// fill rates the free flows by progressive filling over the touched
// resources: the resource with the smallest share of what it has left
// (capLeft / open) fixes its open flows at that share, which each takes
// from its other resource. Ties go to the lowest resource index, as in
// maxMin, so both give the same allocation. Each round scans the
// resources still open, dropping the closed ones as it goes: a typical
// event's sub-problem is one or two bottlenecks whose flows close most
// of the others in the first round. A min-heap of shares (which only
// grow) pays a push and a pop per fixed flow: with it, 64 nodes × 8 GPUs
// colocated took 8.6 CPU-s, with this scan (and check's shortcut for a
// resource that already fixes frozen flows) 6.0.
func (f *fairShare) fill() {
	live := f.live[:0]
	for _, r := range f.touched {
		if f.rs[r].open > 0 {
			live = append(live, r)
		}
	}
	for len(live) > 0 {
		best, share, n := int32(-1), math.Inf(1), 0
		for _, r := range live {
			if f.rs[r].open == 0 {
				continue
			}
			live[n] = r
			n++
			if s := f.share(r); s < share || (s == share && r < best) {
				best, share = r, s
			}
		}
		live = live[:n]
		if best < 0 {
			break
		}
		for _, i := range f.byRes[f.rs[best].start : f.rs[best].start+f.rs[best].nfree] {
			if f.newBott[i] >= 0 {
				continue
			}
			f.newRate[i], f.newBott[i] = share, best
			g := f.free[i]
			o := f.fl[g].src
			if o == best {
				o = f.fl[g].dst
			}
			f.rs[o].capLeft -= share
			f.rs[o].open--
		}
		f.rs[best].open, f.rs[best].capLeft = 0, 0
	}
	f.live = live
}

// share is resource r's fair share of what it has left.
func (f *fairShare) share(r int32) float64 { return max(f.rs[r].capLeft, 0) / float64(f.rs[r].open) }

// check tests the bottleneck condition at every touched resource and
// lists in grow those where it fails; it reports whether any did.
func (f *fairShare) check() bool {
	f.grow = f.grow[:0]
	for _, r := range f.touched {
		n := f.rs[r].nfree
		if int(n) == len(f.rs[r].on) {
			continue // every flow free: the filling decided it
		}
		freeLoad, freeMax, fixed, level := 0.0, 0.0, false, 0.0
		for _, i := range f.byRes[f.rs[r].start : f.rs[r].start+n] {
			freeLoad += f.newRate[i]
			freeMax = max(freeMax, f.newRate[i])
			if f.newBott[i] == r {
				fixed, level = true, f.newRate[i]
			}
		}
		if f.rs[r].frozenNb > 0 && (math.Abs(f.rs[r].frozen+freeLoad-1) > shareTol || freeMax > f.rs[r].level*(1+shareTol)) {
			f.grow = append(f.grow, r)
			continue
		}
		if !fixed {
			continue
		}
		if f.rs[r].frozenNb > 0 { // its frozen flows are at most level[r]
			if f.rs[r].level > level*(1+shareTol) {
				f.grow = append(f.grow, r)
			}
			continue
		}
		sum, top := 0.0, 0.0
		for _, g := range f.rs[r].on {
			if f.fl[g].mark != f.epoch {
				sum += f.fl[g].rate
				top = max(top, f.fl[g].rate)
			}
		}
		switch {
		case top > level*(1+shareTol):
			f.grow = append(f.grow, r)
		case !f.rs[r].exact:
			// The filling used the kept load: redo it with the exact sum
			// of the frozen rates (once; this resource is then exact).
			f.rs[r].frozen, f.rs[r].exact = sum, true
			f.grow = append(f.grow, -1-r)
		}
	}
	grow := f.grow[:0]
	redo := false
	for _, r := range f.grow {
		if r < 0 {
			redo = true
			continue
		}
		grow = append(grow, r)
	}
	f.grow = grow
	return redo || len(grow) > 0
}

// commit stores the new rates, bottlenecks and loads, and calls moved for
// every flow whose rate changed.
func (f *fairShare) commit(moved func(slot int32, old float64)) {
	for _, r := range f.touched {
		f.rs[r].nb = f.rs[r].frozenNb
		f.rs[r].load = f.rs[r].frozen
	}
	for i, g := range f.free {
		x, b := f.newRate[i], f.newBott[i]
		f.rs[f.fl[g].src].load += x
		f.rs[f.fl[g].dst].load += x
		f.rs[b].nb++
		f.rs[b].level = x
		f.fl[g].bott = b
		if old := f.fl[g].rate; x != old {
			f.fl[g].rate = x
			moved(g, old)
		}
	}
}

// sized returns s with length n, reusing its array when large enough.
func sized[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

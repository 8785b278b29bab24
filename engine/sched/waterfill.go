package sched

import "slices"

// Waterfill is the "run as many jobs as possible" baseline of mascots18 §V-B.
// Its reference [39] is missing from the paper (CATALOGUE M-15), so this is
// an assumed reading of "assigns a minimum number of nodes to each job and
// then uses a filling mechanism": one node to each job in arrival order
// (FCFS, so it "does not favor the completion of short jobs") until nodes run
// out; then the idle nodes are spread like water: repeatedly, the job holding
// the fewest nodes (ties: earlier arrival) among those that some extra nodes
// would make strictly faster gets the fewest extra nodes that do. With FillEq5
// the second stage is the Eq. (5) filling instead (shortest job first).
type Waterfill struct {
	// FillEq5 replaces the level filling with the Eq. (5) filling.
	FillEq5 bool
}

// Name is "Waterfill", or "Waterfill eq5" with FillEq5.
func (p Waterfill) Name() string {
	if p.FillEq5 {
		return "Waterfill eq5"
	}
	return "Waterfill"
}

// New returns the allocator.
func (p Waterfill) New(env Env) (Allocator, error) {
	cv := newCurves(env)
	return &waterfill{g: newGreedy(cv, env.Nodes, 0), eq5: p.FillEq5}, nil
}

type waterfill struct {
	g       *greedy
	eq5     bool
	blocked []bool
}

func (p *waterfill) Allocate(_ float64, jobs []JobState, alloc []int) {
	free := p.g.nodes
	for i := range jobs {
		if free == 0 {
			return
		}
		alloc[i] = 1
		free--
	}
	if free == 0 {
		return
	}
	if p.eq5 {
		p.g.scale(jobs)
		p.g.fill(jobs, alloc, free)
		return
	}
	p.blocked = slices.Grow(p.blocked[:0], len(jobs))[:len(jobs)]
	clear(p.blocked)
	for free > 0 {
		best, bestV := -1, 0
		for i, j := range jobs {
			if p.blocked[i] || (best >= 0 && alloc[i] >= alloc[best]) {
				continue
			}
			cv := &p.g.cv[j.Type]
			v := cv.firstAbove(alloc[i]+1, alloc[i]+free, cv.x[alloc[i]])
			if v < 0 {
				p.blocked[i] = true // free only shrinks: never eligible again
				continue
			}
			best, bestV = i, v
		}
		if best < 0 {
			return
		}
		free -= bestV - alloc[best]
		alloc[best] = bestV
	}
}

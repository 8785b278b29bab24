package sched

import (
	"cmp"
	"math"
	"slices"
)

// greedy is the reusable state of Algorithms 1 and 2 and of the Eq. (5)
// filling: per-job scale c_i (so that S_i^t(w) = c_i/X_i(w)) and the jobs of
// each type sorted by (c, ID). Buffers are reused across events.
type greedy struct {
	cv     []curve
	nodes  int
	gamma  float64 // early-termination exponent γ (0: plain remaining size)
	c      []float64
	typ    []int // typ[i] = jobs[i].Type of the last scale call
	byType [][]int
	ptr    []int
}

func newGreedy(cv []curve, nodes int, gamma float64) *greedy {
	return &greedy{cv: cv, nodes: nodes, gamma: gamma,
		byType: make([][]int, len(cv)), ptr: make([]int, len(cv))}
}

// scale sets c_i for every job: J_i^t, or with γ > 0 the early-termination
// adjusted size J_i^t·(1/(1−p_i^t))^γ = J_i^t·(J_i/J_i^t)^γ (§VI-A, M-11),
// and buckets the jobs by type in (c, ID) order.
func (g *greedy) scale(jobs []JobState) {
	n := len(jobs)
	g.c = slices.Grow(g.c[:0], n)[:n]
	g.typ = slices.Grow(g.typ[:0], n)[:n]
	for t := range g.byType {
		g.byType[t] = g.byType[t][:0]
		g.ptr[t] = 0
	}
	for i := range jobs {
		j := &jobs[i]
		g.c[i] = j.Remaining
		if g.gamma != 0 {
			g.c[i] = j.Remaining * math.Pow(j.Size/j.Remaining, g.gamma)
		}
		g.typ[i] = j.Type
		g.byType[j.Type] = append(g.byType[j.Type], i)
	}
	for t, list := range g.byType {
		if len(list) > 16 {
			slices.SortFunc(list, g.cmpJobs)
			continue
		}
		// Insertion sort: a handful of jobs per type at each event (HELL
		// ~6 jobs in system at load 0.6 on 100 nodes), where calling
		// cmpJobs through slices.SortFunc cost more than the sort itself.
		// (c, index) is a strict total order, so the result is the same.
		for k := 1; k < len(list); k++ {
			i, ci := list[k], g.c[list[k]]
			m := k
			for ; m > 0 && (g.c[list[m-1]] > ci || (g.c[list[m-1]] == ci && list[m-1] > i)); m-- {
				list[m] = list[m-1]
			}
			list[m] = i
		}
		g.byType[t] = list
	}
}

// cmpJobs orders job indices by (c, index).
func (g *greedy) cmpJobs(a, b int) int {
	if r := cmp.Compare(g.c[a], g.c[b]); r != 0 {
		return r
	}
	return cmp.Compare(a, b)
}

// rounds runs the while-loop of Algorithms 1/2 with rule r: while budget
// remains and jobs are unassigned, give the job with the smallest
// c·r.f[type][budget] (ties: earlier arrival) r.w[type][budget] nodes.
// It returns the nodes left idle.
func (g *greedy) rounds(r budgetRule, alloc []int) int {
	b := g.nodes
	for b > 0 {
		best, bestT := -1, -1
		bestV := math.Inf(1)
		for t, list := range g.byType {
			if g.ptr[t] == len(list) {
				continue
			}
			i := list[g.ptr[t]]
			v := g.c[i] * r.f[t][b]
			if best < 0 || v < bestV || (v == bestV && i < best) {
				best, bestT, bestV = i, t, v
			}
		}
		if best < 0 {
			break
		}
		w := r.w[bestT][b]
		alloc[best] = w
		b -= w
		g.ptr[bestT]++
	}
	return b
}

// fill is the filling mechanism of Eq. (5): while free nodes remain, find the
// smallest number w̄ ≤ free of extra nodes such that some job i reaches
// S_i(w_i + w̄) < min_k S_k(w_k), and give them to that job. Ties on w̄ go to
// the job reaching the shorter S_i(w_i + w̄), then to the earlier arrival.
// Jobs holding no nodes have S = ∞: they do not constrain the minimum and are
// eligible targets (CATALOGUE M-9; after Alg. 1/2 every job holds nodes
// whenever any node is free, so this case only arises for other callers).
// "For all k" includes i itself, so a job only gains nodes that strictly
// shorten it. It stops when no job qualifies. It returns the nodes left idle.
func (g *greedy) fill(jobs []JobState, alloc []int, free int) int {
	smin := math.Inf(1)
	for i := range jobs {
		if alloc[i] > 0 {
			smin = math.Min(smin, g.c[i]/g.cv[g.typ[i]].x[alloc[i]])
		}
	}
	for free > 0 {
		best, bestW := -1, 0
		bestS := math.Inf(1)
		finite := !math.IsInf(smin, 1)
		for i, t := range g.typ[:len(jobs)] {
			cv := &g.cv[t]
			thr := 0.0 // X(v) > c/smin ⇔ c/X(v) < smin
			if finite {
				thr = g.c[i] / smin
			}
			// cv.firstAbove(lo, hi, thr) with its common exits inline
			// (it is too large for the compiler to inline).
			lo, hi := alloc[i]+1, alloc[i]+min(free, bestWOr(bestW, free))
			var v int
			switch {
			case lo > hi || cv.maxX <= thr:
				continue
			case cv.monotone && cv.x[lo] > thr:
				v = lo
			case cv.monotone && cv.x[hi] <= thr:
				continue
			default:
				if v = cv.firstAbove(lo, hi, thr); v < 0 {
					continue
				}
			}
			w, s := v-alloc[i], g.c[i]/cv.x[v]
			if best < 0 || w < bestW || (w == bestW && s < bestS) {
				best, bestW, bestS = i, w, s
			}
		}
		if best < 0 {
			break
		}
		alloc[best] += bestW
		free -= bestW
		if bestS < smin { // math.Min without the NaN and ±0 cases
			smin = bestS
		}
	}
	return free
}

// bestWOr bounds the search of later jobs by the best w̄ found so far (a
// larger w̄ can never win).
func bestWOr(bestW, free int) int {
	if bestW == 0 {
		return free
	}
	return bestW
}

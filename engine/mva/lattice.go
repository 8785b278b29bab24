package mva

import "fmt"

// lattice enumerates the population vectors 0 ≤ v ≤ bound of one total
// level in lexicographic order and ranks the predecessors v−e_t in the level
// below, so the recursion keeps only two levels in memory.
type lattice struct {
	bound []int
	total int
	// cum[i][r] = number of vectors (v_i..v_{T−1}) within bounds whose sum
	// is ≤ r; cum[T] counts the empty suffix.
	cum [][]int
	a   []int // scratch: rank terms at the current level
	b   []int // scratch: rank terms with one customer fewer
}

func newLattice(bound []int, maxVectors int) (*lattice, error) {
	size := 1
	total := 0
	for _, b := range bound {
		if size > maxVectors/(b+1) {
			return nil, fmt.Errorf("mva: recursion needs more than %d population vectors (populations %v); use BardSchweitzer or raise MaxVectors", maxVectors, bound)
		}
		size *= b + 1
		total += b
	}
	T := len(bound)
	lt := &lattice{bound: bound, total: total, cum: make([][]int, T+1), a: make([]int, T), b: make([]int, T)}
	lt.cum[T] = make([]int, total+1)
	for r := range lt.cum[T] {
		lt.cum[T][r] = 1
	}
	for i := T - 1; i >= 0; i-- {
		lt.cum[i] = make([]int, total+1)
		for r := 0; r <= total; r++ {
			cnt := lt.cumAt(i+1, r) - lt.cumAt(i+1, r-bound[i]-1)
			lt.cum[i][r] = lt.cumAt(i, r-1) + cnt
		}
	}
	return lt, nil
}

func (lt *lattice) cumAt(i, r int) int {
	if r < 0 {
		return 0
	}
	return lt.cum[i][r]
}

// size is the number of vectors whose components sum to level.
func (lt *lattice) size(level int) int { return lt.cumAt(0, level) - lt.cumAt(0, level-1) }

// maxSize is the largest level size.
func (lt *lattice) maxSize() int {
	m := 0
	for s := 0; s <= lt.total; s++ {
		m = max(m, lt.size(s))
	}
	return m
}

// fillLast writes into v[from:] the lexicographically smallest vector of
// sum rest: as much as possible in the last components.
func (lt *lattice) fillLast(v []int, from, rest int) {
	for j := len(v) - 1; j >= from; j-- {
		v[j] = min(lt.bound[j], rest)
		rest -= v[j]
	}
}

// first sets v to the first vector of level.
func (lt *lattice) first(level int, v []int) { lt.fillLast(v, 0, level) }

// next advances v to its lexicographic successor in the same level and
// reports whether one exists.
func (lt *lattice) next(v []int) bool {
	suffix := 0
	for i := len(v) - 1; i >= 0; i-- {
		if v[i] < lt.bound[i] && suffix > 0 {
			v[i]++
			lt.fillLast(v, i+1, suffix-1)
			return true
		}
		suffix += v[i]
	}
	return false
}

// term counts vectors that agree with v before position i and have a
// smaller component i, when the components from i on sum to r.
func (lt *lattice) term(i, r, vi int) int { return lt.cumAt(i+1, r) - lt.cumAt(i+1, r-vi) }

// predecessors sets idx[t] to the rank of v−e_t within level−1, or −1 when
// v[t] = 0; level is the sum of v.
func (lt *lattice) predecessors(v []int, level int, idx []int) {
	r, sumA := level, 0
	for i, vi := range v {
		lt.a[i] = lt.term(i, r, vi)
		if r > 0 {
			lt.b[i] = lt.term(i, r-1, vi)
		}
		sumA += lt.a[i]
		r -= vi
	}
	r, prefixA, prefixB := level, 0, 0
	for t, vt := range v {
		idx[t] = -1
		if vt > 0 {
			idx[t] = prefixB + lt.term(t, r-1, vt-1) + (sumA - prefixA - lt.a[t])
		}
		prefixA += lt.a[t]
		prefixB += lt.b[t]
		r -= vt
	}
}

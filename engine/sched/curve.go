package sched

import (
	"fmt"
	"math"
)

// curve holds one job type's throughput X[0..W] (examples/s) and the
// per-budget tables the KNEE and HELL rules need. Because a job's remaining
// service time is S_i^t(w) = c_i/X(w) for a per-job scale c_i (remaining
// examples, or the early-termination adjusted size), both rules reduce to
// functions of the type and the node budget b only:
//
//	HELL: S(w)/E(w) = w·S(w)²/S(1) = c·w·X(1)/X(w)²  → argmin over w ≤ b
//	KNEE: δ(w) = S(w)/S(w−1) − 1 = X(w−1)/X(w) − 1   (independent of c)
type curve struct {
	x        []float64 // X[0..W]; x[0] = 0
	maxX     float64   // max_{1≤w≤W} X(w)
	monotone bool      // X non-decreasing on 1..W
	hellW    []int     // hellW[b] = argmin_{1≤w≤b} w·X(1)/X(w)² (smallest w on ties)
	hellH    []float64 // hellH[b] = the minimum value (dimensionless)
}

func newCurves(env Env) []curve {
	cv := make([]curve, len(env.Types))
	for i, t := range env.Types {
		cv[i] = newCurve(t.X[:env.Nodes+1])
	}
	return cv
}

func newCurve(x []float64) curve {
	W := len(x) - 1
	c := curve{x: make([]float64, W+1), monotone: true,
		hellW: make([]int, W+1), hellH: make([]float64, W+1)}
	copy(c.x[1:], x[1:])
	c.hellH[0] = math.Inf(1)
	for w := 1; w <= W; w++ {
		c.maxX = math.Max(c.maxX, c.x[w])
		if w > 1 && c.x[w] < c.x[w-1] {
			c.monotone = false
		}
		g := float64(w) * c.x[1] / (c.x[w] * c.x[w])
		if g < c.hellH[w-1] {
			c.hellW[w], c.hellH[w] = w, g
		} else {
			c.hellW[w], c.hellH[w] = c.hellW[w-1], c.hellH[w-1]
		}
	}
	return c
}

// kneeTable returns knee[b] = w^KNEE within a budget of b nodes, b = 1..W,
// for threshold alpha > 0 on the improvement magnitude
// δ⁺(w) = (S(w') − S(w))/S(w') = 1 − X(w')/X(w), where w' is the previous
// candidate (CATALOGUE M-1, choice (a)).
//
// Candidates are the node counts whose throughput is strictly higher than
// with any fewer nodes; a dominated count (more nodes, no faster) is never a
// knee. This matters at w = 2, which under M-4 has X(2) = X(1): the literal
// rule would see δ(2) = 0 < α and stop every job at one node. w = 1 is always
// admissible (M-2: δ(1) needs the undefined S(0)); the first candidate whose
// successor improves by less than α is the knee k*, and a successor beyond
// the budget counts as < α (M-2), so knee[b] = min(k*, last candidate ≤ b).
// The set is therefore never empty.
func (c *curve) kneeTable(alpha float64) []int {
	W := len(c.x) - 1
	cand := []int{1}
	for w := 2; w <= W; w++ {
		if c.x[w] > c.x[cand[len(cand)-1]] {
			cand = append(cand, w)
		}
	}
	kstar := cand[len(cand)-1]
	for j := 0; j+1 < len(cand); j++ {
		if 1-c.x[cand[j]]/c.x[cand[j+1]] < alpha {
			kstar = cand[j]
			break
		}
	}
	knee := make([]int, W+1)
	j := 0
	for b := 1; b <= W; b++ {
		for j+1 < len(cand) && cand[j+1] <= b {
			j++
		}
		knee[b] = min(kstar, cand[j])
	}
	return knee
}

// firstAbove returns the smallest v in [lo, hi] with X(v) > thr, or -1.
func (c *curve) firstAbove(lo, hi int, thr float64) int {
	if c.maxX <= thr || lo > hi {
		return -1
	}
	if c.monotone {
		// The two ends first: in the Eq. (5) filling most searches end
		// there (one more node suffices, or the window cannot qualify).
		if c.x[lo] > thr {
			return lo
		}
		if c.x[hi] <= thr {
			return -1
		}
		l, h := lo+1, hi // invariant: answer in [l, h]
		for l < h {
			m := int(uint(l+h) >> 1)
			if c.x[m] > thr {
				h = m
			} else {
				l = m + 1
			}
		}
		return l
	}
	for v := lo; v <= hi; v++ {
		if c.x[v] > thr {
			return v
		}
	}
	return -1
}

// budgetRule is a per-type, per-budget allocation rule of the Alg. 1/Alg. 2
// form: within budget b a job of type t wants w[t][b] nodes and is ranked by
// c·f[t][b] (smaller first).
type budgetRule struct {
	w [][]int
	f [][]float64
}

func hellRule(cv []curve) budgetRule {
	r := budgetRule{w: make([][]int, len(cv)), f: make([][]float64, len(cv))}
	for t := range cv {
		r.w[t], r.f[t] = cv[t].hellW, cv[t].hellH
	}
	return r
}

func kneeRule(cv []curve, alpha float64) budgetRule {
	r := budgetRule{w: make([][]int, len(cv)), f: make([][]float64, len(cv))}
	for t := range cv {
		r.w[t] = cv[t].kneeTable(alpha)
		r.f[t] = make([]float64, len(r.w[t]))
		r.f[t][0] = math.Inf(1)
		for b := 1; b < len(r.w[t]); b++ {
			r.f[t][b] = 1 / cv[t].x[r.w[t][b]] // S(w^KNEE) = c/X(w^KNEE)
		}
	}
	return r
}

func checkAlpha(name string, alpha float64) error {
	if !(alpha > 0) || math.IsInf(alpha, 0) {
		return fmt.Errorf("sched: %s: %v, need finite > 0 (δ is the improvement magnitude, CATALOGUE M-1)", name, alpha)
	}
	return nil
}

package mva

import (
	"errors"
	"math"
	"slices"
)

// The hybrid fixed point (TotalFixedPoint, ClassFixedPoint) at one
// population vector n solves z = G(z), where z holds the g arguments that
// matter, one utilization (dimensionless) per HybridLink station, and G
// evaluates Eq. 3 at z and returns the utilizations the resulting
// throughputs imply. With TotalFixedPoint there is one block of H unknowns
// (H hybrid stations) coupling every type; with ClassFixedPoint type t's
// arguments only enter type t's response times, so each present type is an
// independent block of H unknowns.
//
// Each block is solved by Anderson mixing (type II, Walker & Ni 2011) of
// depth min(H, maxDepth) with mixing factor β = Options.Damping: a
// multi-secant step that solves a locally affine G in about H+1
// evaluations, where the plain damped iteration needs ~40 evaluations at
// β = 0.5 even when G is constant (g = 0 below ρ = 0.8). g is only
// piecewise smooth, so the step is safeguarded: after accelStall
// evaluations without a new minimum residual the history is dropped and
// the iteration restarts from the best iterate; after accelRestarts
// restarts it continues as the plain damped iteration (damper). The stopping
// rule is unchanged: the largest change of a utilization ≤ Options.Tolerance
// at the returned iterate.
const (
	maxDepth      = 5
	accelStall    = 8
	accelRestarts = 3
	// dropTol is the relative norm below which a difference column is
	// treated as linearly dependent on the newer ones and skipped.
	dropTol = 1e-10
)

// anderson holds the per-block buffers of the accelerated iteration; it is
// sized once per solver for blocks of p unknowns.
type anderson struct {
	p, depth            int
	z, g, f             []float64 // current iterate, G(z), G(z) − z
	gOld, fOld          []float64 // previous iterate's G and residual
	bestZ, bestG, bestF []float64 // iterate with the smallest residual
	dF, dG              [][]float64
	n, head             int // stored difference columns; next slot
	q                   [][]float64
	r                   []float64 // depth×depth upper triangle, row-major
	col                 []int     // accepted columns, newest first
	coef                []float64
	nonneg              bool // iterates must stay ≥ 0 (plain step otherwise)
}

func newAnderson(p int) *anderson {
	depth := min(p, maxDepth)
	a := &anderson{p: p, depth: depth, r: make([]float64, depth*depth),
		col: make([]int, depth), coef: make([]float64, depth)}
	buf := make([]float64, (8+3*depth)*p) // one allocation for every vector
	next := func() []float64 {
		v := buf[:p:p]
		buf = buf[p:]
		return v
	}
	for _, v := range []*[]float64{&a.z, &a.g, &a.f, &a.gOld, &a.fOld, &a.bestZ, &a.bestG, &a.bestF} {
		*v = next()
	}
	a.dF, a.dG, a.q = make([][]float64, depth), make([][]float64, depth), make([][]float64, depth)
	for i := range depth {
		a.dF[i], a.dG[i], a.q[i] = next(), next(), next()
	}
	return a
}

// push stores the differences between the current and previous evaluation.
func (a *anderson) push() {
	df, dg := a.dF[a.head], a.dG[a.head]
	for i := range a.f {
		df[i], dg[i] = a.f[i]-a.fOld[i], a.g[i]-a.gOld[i]
	}
	a.head = (a.head + 1) % a.depth
	a.n = min(a.n+1, a.depth)
}

// step sets z to the Anderson update z + βf − Σ_j c_j (ΔG_j − ΔF_j + βΔF_j),
// with c the least-squares solution of min ‖f − ΔF c‖₂ over the stored
// columns (newest first, dependent columns skipped; modified Gram–Schmidt).
func (a *anderson) step(beta float64) {
	k := 0
	for m := 1; m <= a.n; m++ {
		j := (a.head - m + a.depth) % a.depth
		v := a.q[k]
		copy(v, a.dF[j])
		norm0 := l2(v)
		for i := 0; i < k; i++ {
			rij := dot(a.q[i], v)
			a.r[i*a.depth+k] = rij
			for e := range v {
				v[e] -= rij * a.q[i][e]
			}
		}
		nv := l2(v)
		if norm0 == 0 || nv <= dropTol*norm0 {
			continue
		}
		for e := range v {
			v[e] /= nv
		}
		a.r[k*a.depth+k] = nv
		a.col[k] = j
		k++
	}
	// Back substitution R c = Qᵀ f.
	for i := k - 1; i >= 0; i-- {
		c := dot(a.q[i], a.f)
		for m := i + 1; m < k; m++ {
			c -= a.r[i*a.depth+m] * a.coef[m]
		}
		a.coef[i] = c / a.r[i*a.depth+i]
	}
	for e := range a.z {
		a.z[e] += beta * a.f[e]
	}
	for i := 0; i < k; i++ {
		df, dg, c := a.dF[a.col[i]], a.dG[a.col[i]], a.coef[i]
		for e := range a.z {
			a.z[e] -= c * (dg[e] - df[e] + beta*df[e])
		}
	}
}

func dot(x, y []float64) float64 {
	s := 0.0
	for i, v := range x {
		s += v * y[i]
	}
	return s
}

func l2(x []float64) float64 { return math.Sqrt(dot(x, x)) }

// errNoConvergence reports that solve reached its iteration cap.
var errNoConvergence = errors.New("mva: no convergence")

// solve iterates z = G(z) from a.z by safeguarded Anderson mixing with
// mixing factor damping (def when zero) until eval, which writes G(z) into
// g and returns the stopping residual of z, returns a residual ≤ tol; a.z
// then holds the solution and eval's side effects are those of that z. It
// returns the number of evaluations and the last residual, with
// errNoConvergence after maxIter evaluations or eval's error.
func (a *anderson) solve(damping, def, tol float64, maxIter int, eval func(z, g []float64) (float64, error)) (int, float64, error) {
	beta := damping
	if beta == 0 {
		beta = def
	}
	best, stall, restarts, accel := math.Inf(1), 0, 0, true
	var damp damper
	for it := 1; ; it++ {
		res, err := eval(a.z, a.g)
		if err != nil {
			return it, res, err
		}
		for i, v := range a.g {
			a.f[i] = v - a.z[i]
		}
		if res <= tol {
			return it, res, nil
		}
		if it >= maxIter {
			return it, res, errNoConvergence
		}
		switch {
		case !accel: // plain damped iteration
			alpha := damp.step(res)
			for i, v := range a.f {
				a.z[i] += alpha * v
			}
			continue
		case res < best:
			best, stall = res, 0
			copy(a.bestZ, a.z)
			copy(a.bestG, a.g)
			copy(a.bestF, a.f)
			if it > 1 {
				a.push()
			}
		case stall+1 < accelStall:
			stall++
			if it > 1 {
				a.push()
			}
		default: // stalled: restart from the best iterate, or give up
			stall, restarts = 0, restarts+1
			copy(a.z, a.bestZ)
			copy(a.g, a.bestG)
			copy(a.f, a.bestF)
			a.n, a.head = 0, 0
			if restarts > accelRestarts {
				accel = false
				damp = newDamper(damping, def)
				alpha := damp.step(best)
				for i, v := range a.f {
					a.z[i] += alpha * v
				}
				continue
			}
		}
		copy(a.gOld, a.g)
		copy(a.fOld, a.f)
		a.step(beta)
		if a.nonneg && slices.Min(a.z) < 0 {
			// Leave the feasible region (negative queue lengths lead
			// Bard–Schweitzer to non-physical fixed points): plain step.
			for i, v := range a.fOld {
				a.z[i] = a.g[i] - v + beta*v
			}
		}
	}
}

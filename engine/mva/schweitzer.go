package mva

import (
	"fmt"
	"math"
)

// schweitzer solves the network at counts with the Bard–Schweitzer fixed
// point: the arrival state of a type-t customer is the current state with
// one t customer's share removed, N_t(n−e_t) ≈ ((c_t−1)/c_t)·N_t(n), and
// likewise for the utilizations of Eq. 2 and the g argument of Eq. 3.
// Fixed-point g arguments use the current iterate. The per-customer
// unknowns N_t^l/c_t and X_t/c_t are iterated by the safeguarded Anderson
// mixing of anderson.go, from the no-contention state, or with warm from
// the previous call's solution (Curve: K−1 → K workers). On return s.resp
// and s.x hold the solution; it returns the number of iterations.
func (s *solver) schweitzer(counts []int, warm bool) (int, error) {
	nw := s.nw
	T, L := nw.types(), nw.stations
	if s.bs == nil {
		s.bs = newAnderson(T*L + T)
		s.bs.nonneg = true
		s.bsCount = make([]int, T)
		s.bsQ, s.bsX = make([]float64, T*L), make([]float64, T)
		s.total, s.arrive = make([]float64, s.stride), make([]float64, s.stride)
	}
	a := s.bs
	a.n, a.head = 0, 0
	for t, c := range counts {
		if warm && s.bsCount[t] > 0 {
			s.bsCount[t] = c
			continue // per-customer unknowns: keep the previous solution
		}
		s.bsCount[t] = c
		cycle := 0.0
		for l := 0; l < L; l++ {
			cycle += nw.demand[t*L+l]
		}
		a.z[T*L+t] = 1 / cycle
		for l := 0; l < L; l++ {
			a.z[t*L+l] = nw.demand[t*L+l] / cycle
		}
	}
	it, res, err := a.solve(s.o.damping, 1, s.o.tol, s.o.maxIter, func(z, g []float64) (float64, error) {
		return s.schweitzerStep(counts, z, g)
	})
	if err == errNoConvergence {
		return it, fmt.Errorf("mva: Bard–Schweitzer at population %v: no convergence after %d iterations (residual %.3g)", counts, it, res)
	}
	return it, err
}

// schweitzerStep evaluates the Bard–Schweitzer map at the per-customer
// unknowns z: queue lengths N_t^l/c_t at [t*L+l] (jobs) and throughputs
// X_t/c_t at [T*L+t] (1/s). It leaves the implied response times and
// throughputs in s.resp and s.x, writes the implied unknowns into g (same
// layout), and returns max |X_t·T_t^l − N_t^l| / c_t.
func (s *solver) schweitzerStep(counts []int, z, g []float64) (float64, error) {
	nw := s.nw
	T, L := nw.types(), nw.stations
	total, arrival := s.total, s.arrive
	queue, thr := s.bsQ, s.bsX
	for t, c := range counts {
		f := float64(c)
		thr[t] = z[T*L+t] * f
		for l := 0; l < L; l++ {
			queue[t*L+l] = z[t*L+l] * f
		}
	}
	s.state(counts, queue, thr, total)
	if s.o.arg.fixedPoint() {
		copy(s.x, thr)
		s.currentArgs(counts, s.arg)
	}
	for t, c := range counts {
		copy(arrival, total)
		share := 1 / float64(c)
		for l := 0; l < L; l++ {
			S := nw.demand[t*L+l]
			n, rho := queue[t*L+l]*share, thr[t]*S*share
			a := arrival[l*aggPerStation : (l+1)*aggPerStation]
			a[aggN] -= n
			a[aggSN] -= S * n
			a[aggSRho] -= S * rho
			a[aggRho] -= rho
		}
		arrival[aggPerStation*L+t] = thr[t] * float64(c-1) * share
		if !s.o.arg.fixedPoint() {
			s.arrivalArgs(t, arrival)
		}
		s.x[t] = float64(c) / s.respond(t, arrival, s.arg[t*L:(t+1)*L])
	}
	if s.err != nil {
		return math.Inf(1), s.err
	}
	res := 0.0
	for t, c := range counts {
		f := float64(c)
		g[T*L+t] = s.x[t] / f
		for l := 0; l < L; l++ {
			i := t*L + l
			n := s.x[t] * s.resp[i]
			g[i] = n / f
			res = math.Max(res, math.Abs(n-queue[i])/f)
		}
	}
	return res, nil
}

// state writes the aggregates of queue lengths queue and throughputs thr.
func (s *solver) state(counts []int, queue, thr, out []float64) {
	L := s.nw.stations
	clear(out)
	for t := range counts {
		out[aggPerStation*L+t] = thr[t]
		for l := 0; l < L; l++ {
			S := s.nw.demand[t*L+l]
			a := out[l*aggPerStation : (l+1)*aggPerStation]
			a[aggN] += queue[t*L+l]
			a[aggSN] += S * queue[t*L+l]
			a[aggSRho] += S * thr[t] * S
			a[aggRho] += thr[t] * S
		}
	}
}

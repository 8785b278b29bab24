package mva

import (
	"fmt"
	"math"
)

// schweitzer solves the network at counts with the Bard–Schweitzer fixed
// point: the arrival state of a type-t customer is the current state with
// one t customer's share removed, N_t(n−e_t) ≈ ((c_t−1)/c_t)·N_t(n), and
// likewise for the utilizations of Eq. 2 and the g argument of Eq. 3.
// Fixed-point g arguments use the current iterate. On return s.resp and s.x
// hold the solution; it returns the number of iterations.
func (s *solver) schweitzer(counts []int) (int, error) {
	nw := s.nw
	T, L := nw.types(), nw.stations
	queue := make([]float64, T*L) // current N_t^l
	thr := make([]float64, T)     // current X_t
	total := make([]float64, s.stride)
	arrival := make([]float64, s.stride)
	for t, c := range counts {
		cycle := 0.0
		for l := 0; l < L; l++ {
			cycle += nw.demand[t*L+l]
		}
		thr[t] = float64(c) / cycle
		for l := 0; l < L; l++ {
			queue[t*L+l] = thr[t] * nw.demand[t*L+l]
		}
	}
	damp := newDamper(s.o.damping, 1)
	for it := 1; ; it++ {
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
			return it, s.err
		}
		res := 0.0
		for t, c := range counts {
			for l := 0; l < L; l++ {
				i := t*L + l
				res = math.Max(res, math.Abs(s.x[t]*s.resp[i]-queue[i])/float64(c))
			}
		}
		if res <= s.o.tol {
			return it, nil
		}
		if it >= s.o.maxIter {
			return it, fmt.Errorf("mva: Bard–Schweitzer at population %v: no convergence after %d iterations (residual %.3g)", counts, it, res)
		}
		alpha := damp.step(res)
		for t := range counts {
			thr[t] += alpha * (s.x[t] - thr[t])
			for l := 0; l < L; l++ {
				i := t*L + l
				queue[i] += alpha * (s.x[t]*s.resp[i] - queue[i])
			}
		}
	}
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

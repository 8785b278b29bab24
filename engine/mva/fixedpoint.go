package mva

import (
	"fmt"
	"math"
)

// fixedBuf is the per-vector scratch of the hybrid fixed point: the parts
// of each type's cycle time that do not depend on the g arguments, so that
// one evaluation of G costs O(types·H) instead of a full respond pass.
type fixedBuf struct {
	base []float64 // [t] Σ of T_t^l over non-hybrid stations, seconds
	ps   []float64 // [t*H+h] Eq. 1 (PS) response time at hybrid h, seconds
	fc   []float64 // [t*H+h] Eq. 2 (FCFS) response time at hybrid h, seconds
	used []bool    // [h] some present type visits hybrid station h
	gam  []float64 // [h] γ at the current iterate (TotalFixedPoint)
}

func newFixedBuf(types, h int) fixedBuf {
	return fixedBuf{base: make([]float64, types), ps: make([]float64, types*h),
		fc: make([]float64, types*h), used: make([]bool, h), gam: make([]float64, h)}
}

// fixedPoint solves Eq. 3 with γ evaluated at the current population by
// safeguarded Anderson mixing (anderson.go). Each block starts from the
// arguments of the previously solved vector (zero for the first), which
// for Curve is the solution at K−1; the TotalFixedPoint block also keeps
// its secant history from that vector. With one class type every argument
// is increasing in the type's throughput X while X is decreasing in every
// γ, so the fixed point is unique and the start only affects the iteration
// count; with several types uniqueness is not proven.
func (s *solver) fixedPoint(counts []int, prev [][]float64) error {
	s.prepare(counts, prev)
	if s.o.arg == TotalFixedPoint {
		if err := s.accelerate(-1, counts); err != nil {
			return err
		}
	} else {
		for t, c := range counts {
			if c == 0 {
				continue
			}
			s.aa.n, s.aa.head = 0, 0 // another type: another G
			if err := s.accelerate(t, counts); err != nil {
				return err
			}
		}
	}
	// Response times and throughputs at the solution, by the same Eq. 3
	// code as every other variant.
	L := s.nw.stations
	for t, c := range counts {
		s.x[t] = 0
		if c > 0 {
			s.x[t] = float64(c) / s.respond(t, prev[t], s.arg[t*L:(t+1)*L])
		}
	}
	return s.err
}

// prepare fills s.fb from the arrival states prev.
func (s *solver) prepare(counts []int, prev [][]float64) {
	L, H, fb := s.nw.stations, len(s.hyb), &s.fb
	clear(fb.used)
	for t, c := range counts {
		if c == 0 {
			continue
		}
		d := s.nw.demand[t*L : (t+1)*L]
		base, h := 0.0, 0
		for l, kind := range s.nw.kinds {
			S := d[l]
			a := prev[t][l*aggPerStation : (l+1)*aggPerStation]
			ps, fcfs := S*(1+a[aggN]), S+a[aggSN]-0.5*a[aggSRho]
			switch {
			case kind == HybridLink && S == 0:
				fb.ps[t*H+h], fb.fc[t*H+h] = 0, 0
			case kind == HybridLink:
				fb.ps[t*H+h], fb.fc[t*H+h] = ps, fcfs
				fb.used[h] = true
			case S == 0:
			case kind == Delay:
				base += S
			case kind == PS || kind == FCFS:
				base += ps
			case kind == DeterministicFCFS:
				base += fcfs
			}
			if kind == HybridLink {
				h++
			}
		}
		fb.base[t] = base
	}
}

// load copies block t's current arguments (row 0 for the total block t < 0)
// into z.
func (s *solver) load(t int, z []float64) {
	row := max(t, 0) * s.nw.stations
	for h, l := range s.hyb {
		z[h] = s.arg[row+l]
	}
}

// store writes z as block t's arguments (every row for the total block).
func (s *solver) store(t int, counts []int, z []float64) {
	L := s.nw.stations
	for u := range counts {
		if t < 0 || u == t {
			for h, l := range s.hyb {
				s.arg[u*L+l] = z[h]
			}
		}
	}
}

// evaluate writes into g the utilizations G(z) implied by block t's
// arguments z: the total utilization Σ_u X_u·S_u^l of each hybrid station
// (t < 0, TotalFixedPoint), or type t's per-class utilization X_t·S_t^l/c_t
// for a type of population-1 classes and X_t·S_t^l otherwise
// (ClassFixedPoint).
func (s *solver) evaluate(t int, counts []int, z, g []float64) {
	L, H, fb := s.nw.stations, len(s.hyb), &s.fb
	if t >= 0 {
		cycle := fb.base[t]
		for h := range s.hyb {
			if i := t*H + h; fb.used[h] {
				gm := s.gamma(z[h])
				cycle += gm*fb.ps[i] + (1-gm)*fb.fc[i]
			}
		}
		x := float64(counts[t]) / cycle
		if s.nw.unit[t] {
			x /= float64(counts[t])
		}
		for h, l := range s.hyb {
			g[h] = x * s.nw.demand[t*L+l]
		}
		return
	}
	for h := range s.hyb {
		fb.gam[h] = 0
		if fb.used[h] {
			fb.gam[h] = s.gamma(z[h])
		}
	}
	clear(g)
	for u, c := range counts {
		if c == 0 {
			continue
		}
		cycle := fb.base[u]
		for h, gm := range fb.gam {
			i := u*H + h
			cycle += gm*fb.ps[i] + (1-gm)*fb.fc[i]
		}
		x := float64(c) / cycle
		for h, l := range s.hyb {
			g[h] += x * s.nw.demand[u*L+l]
		}
	}
}

// accelerate solves block t by safeguarded Anderson mixing and leaves the
// solution in s.arg.
func (s *solver) accelerate(t int, counts []int) error {
	a := s.aa
	s.load(t, a.z)
	_, res, err := a.solve(s.o.damping, defaultHybridDamping, s.o.tol, s.o.maxIter, func(z, g []float64) (float64, error) {
		s.evals++
		s.evaluate(t, counts, z, g)
		res := 0.0
		for i, v := range g {
			res = math.Max(res, math.Abs(v-z[i]))
		}
		return res, s.err
	})
	if err == errNoConvergence {
		return fmt.Errorf("mva: hybrid fixed point at population %v: no convergence after %d iterations (residual %.3g)", counts, s.o.maxIter, res)
	}
	if err == nil {
		s.store(t, counts, a.z)
	}
	return err
}

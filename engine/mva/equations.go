package mva

import (
	"fmt"
	"math"
)

// Per-station aggregates stored for every population vector n; they are all
// that Eq. 1–3 need from the state n−e_k seen at arrival.
const (
	aggN    = iota // Σ_j N_j^l(n), jobs
	aggSN          // Σ_j S_j^l·N_j^l(n), seconds
	aggSRho        // Σ_j S_j^l·ρ_j^l(n), seconds
	aggRho         // Σ_j ρ_j^l(n), dimensionless
	aggPerStation
)

// solver evaluates the MVA equations for one network. A state slice has
// aggPerStation·stations aggregates followed by the per-type throughputs
// X_t(n) (jobs/s).
type solver struct {
	nw      *network
	o       resolved
	stride  int
	resp    []float64 // [t*L+l] response time at the current vector, seconds
	x       []float64 // [t] throughput at the current vector, jobs/s
	arg     []float64 // [t*L+l] argument of g
	hyb     []int     // indices of the HybridLink stations
	aa      *anderson // hybrid fixed-point buffers (nil unless needed)
	fb      fixedBuf  // hybrid fixed-point scratch
	bs      *anderson // Bard–Schweitzer buffers (nil until used)
	bsCount []int     // [t] population of the solution in bs.z
	bsQ     []float64 // [t*L+l] Bard–Schweitzer queue lengths, jobs
	bsX     []float64 // [t] Bard–Schweitzer throughputs, jobs/s
	total   []float64 // Bard–Schweitzer scratch state (stride)
	arrive  []float64 // Bard–Schweitzer scratch arrival state (stride)
	evals   int       // hybrid fixed-point evaluations so far (tests)
	err     error
}

func newSolver(nw *network, o resolved) *solver {
	T, L := nw.types(), nw.stations
	s := &solver{
		nw: nw, o: o,
		stride: aggPerStation*L + T,
		resp:   make([]float64, T*L),
		x:      make([]float64, T),
		arg:    make([]float64, T*L),
	}
	if !nw.anyHybrid || !o.arg.fixedPoint() {
		return s
	}
	for l, k := range nw.kinds {
		if k == HybridLink {
			s.hyb = append(s.hyb, l)
		}
	}
	s.aa = newAnderson(len(s.hyb))
	s.fb = newFixedBuf(T, len(s.hyb))
	return s
}

// gamma is g(ρ) clamped to [0, 1]; a NaN result is recorded as an error.
func (s *solver) gamma(rho float64) float64 {
	v := s.o.g(rho)
	if math.IsNaN(v) {
		if s.err == nil {
			s.err = fmt.Errorf("mva: g(%v) is NaN", rho)
		}
		return 0
	}
	return clamp01(v)
}

// respond fills the response times of type t at every station from the
// arrival state prev (the state at n−e_t) and the g arguments args, and
// returns the cycle time Σ_l T_t^l in seconds.
func (s *solver) respond(t int, prev, args []float64) float64 {
	L := s.nw.stations
	d := s.nw.demand[t*L : (t+1)*L]
	out := s.resp[t*L : (t+1)*L]
	cycle := 0.0
	for l, kind := range s.nw.kinds {
		S := d[l]
		if S == 0 { // the class does not visit l
			out[l] = 0
			continue
		}
		a := prev[l*aggPerStation : (l+1)*aggPerStation]
		var T float64
		switch kind {
		case Delay:
			T = S
		case PS, FCFS: // Eq. 1
			T = S * (1 + a[aggN])
		case DeterministicFCFS: // Eq. 2
			T = S + a[aggSN] - 0.5*a[aggSRho]
		case HybridLink: // Eq. 3
			ps := S * (1 + a[aggN])
			fcfs := S + a[aggSN] - 0.5*a[aggSRho]
			g := s.gamma(args[l])
			T = g*ps + (1-g)*fcfs
		}
		out[l] = T
		cycle += T
	}
	return cycle
}

// arrivalArgs fills the g arguments of type t for the at-arrival choices.
func (s *solver) arrivalArgs(t int, prev []float64) {
	L := s.nw.stations
	args := s.arg[t*L : (t+1)*L]
	switch s.o.arg {
	case TotalAtArrival:
		for l := range args {
			args[l] = prev[l*aggPerStation+aggRho]
		}
	case ClassAtArrival:
		x := 0.0 // a class of population 1 is absent at n−e_k
		if !s.nw.unit[t] {
			x = prev[aggPerStation*L+t]
		}
		d := s.nw.demand[t*L : (t+1)*L]
		for l := range args {
			args[l] = x * d[l]
		}
	}
}

// currentArgs writes into dst the g arguments implied by the throughputs
// s.x at population counts, for the fixed-point choices.
func (s *solver) currentArgs(counts []int, dst []float64) {
	L := s.nw.stations
	switch s.o.arg {
	case TotalFixedPoint:
		for l := 0; l < L; l++ {
			rho := 0.0
			for t, c := range counts {
				if c > 0 {
					rho += s.x[t] * s.nw.demand[t*L+l]
				}
			}
			for t := range counts {
				dst[t*L+l] = rho
			}
		}
	case ClassFixedPoint:
		for t, c := range counts {
			div := 1.0
			if s.nw.unit[t] && c > 0 {
				div = float64(c)
			}
			for l := 0; l < L; l++ {
				dst[t*L+l] = s.x[t] * s.nw.demand[t*L+l] / div
			}
		}
	}
}

// vector solves population vector counts given, for each type t with
// counts[t] > 0, the state prev[t] at counts−e_t, and writes the state at
// counts into out. It leaves T and X of counts in s.resp and s.x.
func (s *solver) vector(counts []int, prev [][]float64, out []float64) error {
	L := s.nw.stations
	if !(s.nw.anyHybrid && s.o.arg.fixedPoint()) {
		for t, c := range counts {
			s.x[t] = 0
			if c == 0 {
				continue
			}
			s.arrivalArgs(t, prev[t])
			s.x[t] = float64(c) / s.respond(t, prev[t], s.arg[t*L:(t+1)*L])
		}
	} else if err := s.fixedPoint(counts, prev); err != nil {
		return err
	}
	if s.err != nil {
		return s.err
	}
	s.aggregate(counts, out)
	return nil
}

// aggregate writes the state of the current vector (s.resp, s.x) to out.
func (s *solver) aggregate(counts []int, out []float64) {
	L := s.nw.stations
	clear(out)
	for t, c := range counts {
		out[aggPerStation*L+t] = s.x[t]
		if c == 0 {
			continue
		}
		x := s.x[t]
		for l := 0; l < L; l++ {
			S := s.nw.demand[t*L+l]
			n := x * s.resp[t*L+l] // Little's law
			a := out[l*aggPerStation : (l+1)*aggPerStation]
			a[aggN] += n
			a[aggSN] += S * n
			a[aggSRho] += S * x * S
			a[aggRho] += x * S
		}
	}
}

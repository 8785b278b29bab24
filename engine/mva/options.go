package mva

import (
	"fmt"
	"math"
)

// Method selects the solution algorithm.
type Method int

const (
	// Recursive runs the MVA recursion over all population vectors
	// n ≤ n* (mascots18 §III-B), level by level in total population. It is
	// exact for Delay, PS and FCFS stations (Eq. 1) and is the recursion of
	// Eq. 2–3 for DeterministicFCFS and HybridLink stations.
	Recursive Method = iota
	// BardSchweitzer replaces the recursion with the fixed point
	// N_j(n−e_k) ≈ N_j(n) for j ≠ k and ((n_k−1)/n_k)·N_k(n) for j = k,
	// for large heterogeneous populations. The same scaling is applied to
	// the utilizations in Eq. 2 and to the g argument of Eq. 3.
	BardSchweitzer
)

// Argument selects the utilization passed to g at HybridLink stations
// (mascots18 Eq. 3; CATALOGUE M-7).
type Argument int

const (
	// TotalAtArrival uses the total station utilization Σ_j ρ_j^l(n−e_k),
	// i.e. the state an arriving class-k customer sees. Default.
	TotalAtArrival Argument = iota
	// TotalFixedPoint uses the total station utilization Σ_j ρ_j^l(n) at
	// the current population, found at each n by a fixed-point iteration
	// accelerated with Anderson mixing (see Options.Damping).
	TotalFixedPoint
	// ClassFixedPoint uses the per-class utilization ρ_k^l(n) of Eq. 3 as
	// printed, found at each n like TotalFixedPoint, one class type at a
	// time.
	ClassFixedPoint
	// ClassAtArrival uses the per-class utilization ρ_k^l(n−e_k). For a
	// class of population 1 this is always 0, so the station behaves as
	// DeterministicFCFS.
	ClassAtArrival
)

func (a Argument) String() string {
	switch a {
	case TotalAtArrival:
		return "TotalAtArrival"
	case TotalFixedPoint:
		return "TotalFixedPoint"
	case ClassFixedPoint:
		return "ClassFixedPoint"
	case ClassAtArrival:
		return "ClassAtArrival"
	}
	return fmt.Sprintf("Argument(%d)", int(a))
}

func (a Argument) perClass() bool   { return a == ClassFixedPoint || a == ClassAtArrival }
func (a Argument) fixedPoint() bool { return a == TotalFixedPoint || a == ClassFixedPoint }

// Options configures Solve. The zero value is the recursive solver with
// g = Eq4 on the total utilization at arrival.
type Options struct {
	// Method is the algorithm (default Recursive).
	Method Method
	// G maps a utilization (dimensionless) to the PS weight γ of Eq. 3.
	// Its result is clamped to [0, 1]; NaN is an error. Nil means Eq4.
	G func(rho float64) float64
	// Argument is the utilization given to G (default TotalAtArrival).
	Argument Argument
	// Tolerance is the convergence threshold of every fixed point: the
	// largest change of a utilization (hybrid) or of a queue length divided
	// by its class population (BardSchweitzer). Zero means 1e-12.
	Tolerance float64
	// MaxIterations caps every fixed point; hitting it is an error.
	// Zero means 100000.
	MaxIterations int
	// Damping is the mixing factor of every fixed point, in (0, 1]: the
	// fraction of the new iterate mixed into the old one. Zero means 1 for
	// BardSchweitzer and 0.5 for the hybrid fixed point. Both iterations
	// take Anderson (multi-secant) steps with this factor; if those stall
	// they fall back to the plain damped iteration, which halves the
	// factor whenever the residual has not reached a new minimum for 50
	// iterations.
	Damping float64
	// MaxVectors caps the number of population vectors Π_t (n_t+1) that
	// the Recursive method may visit; larger models return an error
	// (use BardSchweitzer). Zero means 1<<24.
	MaxVectors int
}

const (
	defaultTolerance     = 1e-12
	defaultMaxIterations = 100000
	defaultHybridDamping = 0.5
	stallIterations      = 50
	defaultMaxVectors    = 1 << 24
	minDamping           = 1.0 / 1024
)

// Eq4 is mascots18 Eq. 4: g(ρ) = (ρ − 0.8)/0.2 for ρ ≥ 0.8, else 0,
// clamped to [0, 1]. ρ is a utilization (dimensionless).
func Eq4(rho float64) float64 {
	return clamp01((rho - 0.8) / 0.2)
}

// Ramp returns g(ρ) that is 0 for ρ ≤ lo, 1 for ρ ≥ hi and linear in
// between; Eq4 equals Ramp(0.8, 1). mascots18 notes that g must be profiled
// per environment. Ramp panics if !(lo < hi).
func Ramp(lo, hi float64) func(rho float64) float64 {
	if !(lo < hi) {
		panic(fmt.Sprintf("mva: Ramp needs lo < hi, got %v, %v", lo, hi))
	}
	return func(rho float64) float64 { return clamp01((rho - lo) / (hi - lo)) }
}

func clamp01(v float64) float64 {
	if v <= 0 {
		return 0
	}
	if v >= 1 {
		return 1
	}
	return v
}

// resolved holds Options with defaults applied.
type resolved struct {
	method     Method
	g          func(float64) float64
	arg        Argument
	tol        float64
	maxIter    int
	damping    float64
	maxVectors int
}

// damper adapts the damping factor of a fixed-point iteration: it halves
// the factor when the residual has not reached a new minimum for
// stallIterations iterations (oscillation or divergence), down to
// minDamping, and tolerates transient growth of the residual.
type damper struct {
	alpha float64
	best  float64
	since int
}

// newDamper starts from alpha, or from def when alpha is zero.
func newDamper(alpha, def float64) damper {
	if alpha == 0 {
		alpha = def
	}
	return damper{alpha: alpha, best: math.Inf(1)}
}

// step records a residual and returns the factor for the next update.
func (d *damper) step(res float64) float64 {
	if res < d.best {
		d.best, d.since = res, 0
	} else if d.since++; d.since >= stallIterations && d.alpha > minDamping {
		d.alpha /= 2
		d.since = 0
	}
	return d.alpha
}

func (o Options) resolve() (resolved, error) {
	r := resolved{method: o.Method, g: o.G, arg: o.Argument, tol: o.Tolerance,
		maxIter: o.MaxIterations, damping: o.Damping, maxVectors: o.MaxVectors}
	if r.method != Recursive && r.method != BardSchweitzer {
		return r, fmt.Errorf("mva: options: unknown method %d", int(r.method))
	}
	if r.arg < TotalAtArrival || r.arg > ClassAtArrival {
		return r, fmt.Errorf("mva: options: unknown argument %v", r.arg)
	}
	if r.g == nil {
		r.g = Eq4
	}
	switch {
	case math.IsNaN(r.tol) || r.tol < 0 || math.IsInf(r.tol, 0):
		return r, fmt.Errorf("mva: options: invalid tolerance %v", o.Tolerance)
	case r.tol == 0:
		r.tol = defaultTolerance
	}
	switch {
	case r.maxIter < 0:
		return r, fmt.Errorf("mva: options: negative max iterations %d", r.maxIter)
	case r.maxIter == 0:
		r.maxIter = defaultMaxIterations
	}
	switch {
	case math.IsNaN(r.damping) || r.damping < 0 || r.damping > 1:
		return r, fmt.Errorf("mva: options: damping %v outside (0, 1]", o.Damping)
	}
	switch {
	case r.maxVectors < 0:
		return r, fmt.Errorf("mva: options: negative max vectors %d", r.maxVectors)
	case r.maxVectors == 0:
		r.maxVectors = defaultMaxVectors
	}
	return r, nil
}

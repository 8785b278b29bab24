package sched

import (
	"fmt"
	"math"
	"slices"
)

// Defaults of the Config fields whose zero value means "default".
const (
	DefaultMaxJobs   = 200_000 // arrivals
	DefaultMinJobs   = 5_000   // completions before the stopping rule applies
	DefaultWarmup    = 0.1     // fraction of completions discarded (Poisson)
	DefaultBatches   = 30      // batch means
	DefaultPrecision = 0.05    // relative CI half-width (mascots18 §V)
)

// Arrival is one job of an explicit arrival list (e.g. from a trace).
type Arrival struct {
	Time     float64 // seconds, non-decreasing along the list
	Type     int     // index into Config.Workload.Types
	Examples float64 // job size J in examples (> 0)
}

// Config describes one simulation run.
type Config struct {
	// Nodes is W, the number of homogeneous nodes (≥ 1).
	Nodes int
	// Workload holds the job types; every type needs X (≥ Nodes+1 entries).
	Workload Workload
	// Policy decides the allocations.
	Policy Policy
	// Load is the system load x = λ·E[S(1)]/W (M-5). With Poisson arrivals
	// (Arrivals empty) it sets λ = x·W/E[S(1)] and must be > 0. With
	// explicit Arrivals it is only passed to the policy (Env.Load); zero
	// means estimate it as Σ_i J_i/X_i(1) / (W·(last − first arrival)).
	Load float64
	// Arrivals, when non-empty, replaces the Poisson stream: exactly these
	// jobs arrive, the run lasts until all complete, and no stopping rule
	// or instability test applies.
	Arrivals []Arrival
	// MaxJobs caps the number of Poisson arrivals (0: DefaultMaxJobs). The
	// run stops at the first arrival beyond the cap.
	MaxJobs int
	// MinJobs is the number of completions before the stopping rule is
	// checked (0: DefaultMinJobs).
	MinJobs int
	// Warmup is the fraction of completions (the first, in departure order)
	// discarded from the statistics (0: DefaultWarmup with Poisson
	// arrivals, none with explicit Arrivals).
	Warmup float64
	// Batches is the number of batch means for the confidence interval
	// (0: DefaultBatches).
	Batches int
	// Precision is the target CI half-width relative to the mean
	// (0: DefaultPrecision): the run stops when it is reached.
	Precision float64
	// MaxInSystem is the backlog bound: a Poisson run with more jobs in
	// the system is stopped and reported Unstable (0: max(20·Nodes, 200)).
	MaxInSystem int
	// Progress are fractions in (0, 1] (e.g. 0.4 for Fig. 14) whose
	// reaching time is recorded per job.
	Progress []float64
	// History records every allocation change of every job (Job.Nodes).
	History bool
}

func (c Config) withDefaults() Config {
	trace := len(c.Arrivals) > 0
	if c.MaxJobs == 0 {
		c.MaxJobs = DefaultMaxJobs
	}
	if c.MinJobs == 0 {
		c.MinJobs = DefaultMinJobs
	}
	if c.Warmup == 0 && !trace {
		c.Warmup = DefaultWarmup
	}
	if c.Batches == 0 {
		c.Batches = DefaultBatches
	}
	if c.Precision == 0 {
		c.Precision = DefaultPrecision
	}
	if c.MaxInSystem == 0 {
		c.MaxInSystem = max(20*c.Nodes, 200)
	}
	return c
}

func (c Config) validate() error {
	if c.Nodes < 1 {
		return fmt.Errorf("sched: Nodes %d, need ≥ 1", c.Nodes)
	}
	if c.Policy == nil {
		return fmt.Errorf("sched: Policy is nil")
	}
	if err := c.Workload.validate(c.Nodes); err != nil {
		return err
	}
	trace := len(c.Arrivals) > 0
	switch {
	case !trace && (!(c.Load > 0) || math.IsInf(c.Load, 0)):
		return fmt.Errorf("sched: Load %v, need finite > 0 for Poisson arrivals", c.Load)
	case trace && (!(c.Load >= 0) || math.IsInf(c.Load, 0)):
		return fmt.Errorf("sched: Load %v, need finite ≥ 0", c.Load)
	case c.MaxJobs < 1 || c.MinJobs < 1 || c.MaxInSystem < 1:
		return fmt.Errorf("sched: MaxJobs %d, MinJobs %d, MaxInSystem %d: need ≥ 1", c.MaxJobs, c.MinJobs, c.MaxInSystem)
	case !(c.Warmup >= 0 && c.Warmup < 1):
		return fmt.Errorf("sched: Warmup %v, need 0 ≤ Warmup < 1", c.Warmup)
	case c.Batches < 2:
		return fmt.Errorf("sched: Batches %d, need ≥ 2", c.Batches)
	case !(c.Precision > 0) || math.IsInf(c.Precision, 0):
		return fmt.Errorf("sched: Precision %v, need finite > 0", c.Precision)
	}
	for k, f := range c.Progress {
		if !(f > 0 && f <= 1) {
			return fmt.Errorf("sched: Progress[%d] = %v, need 0 < f ≤ 1", k, f)
		}
	}
	if !slices.IsSorted(c.Progress) {
		return fmt.Errorf("sched: Progress %v must be in increasing order", c.Progress)
	}
	for i, a := range c.Arrivals {
		switch {
		case !(a.Time >= 0) || math.IsInf(a.Time, 0):
			return fmt.Errorf("sched: Arrivals[%d].Time %v, need finite ≥ 0", i, a.Time)
		case i > 0 && a.Time < c.Arrivals[i-1].Time:
			return fmt.Errorf("sched: Arrivals[%d].Time %v before Arrivals[%d].Time %v", i, a.Time, i-1, c.Arrivals[i-1].Time)
		case a.Type < 0 || a.Type >= len(c.Workload.Types):
			return fmt.Errorf("sched: Arrivals[%d].Type %d, workload has %d types", i, a.Type, len(c.Workload.Types))
		case !(a.Examples > 0) || math.IsInf(a.Examples, 0):
			return fmt.Errorf("sched: Arrivals[%d].Examples %v, need finite > 0", i, a.Examples)
		}
	}
	return nil
}

// traceLoad estimates λ·E[S(1)]/W of an explicit arrival list, and λ.
func (c Config) traceLoad() (load, lambda float64) {
	a := c.Arrivals
	span := a[len(a)-1].Time - a[0].Time
	if span <= 0 {
		return c.Load, 0
	}
	work := 0.0
	for _, j := range a {
		work += j.Examples / c.Workload.Types[j.Type].X[1]
	}
	lambda = float64(len(a)-1) / span
	if c.Load > 0 {
		return c.Load, lambda
	}
	return work / float64(c.Nodes) / span, lambda
}

package collection

import (
	"fmt"
	"time"

	"pslab/engine/testbed/accounting"
	"pslab/engine/testbed/analysis"
	"pslab/engine/testbed/config"
	"pslab/engine/testbed/node"
	"pslab/engine/testbed/training"
	"pslab/engine/trace"
)

// Point is the throughput measured at one W.
type Point struct {
	Workers int
	// Rates are the throughputs of the repetitions (examples/s).
	Rates []float64
	// Mean and Std (sample, n−1) over the repetitions (examples/s).
	Mean, Std float64
}

// Run is the step times of one run.
type Run struct {
	Workers, Repetition int
	Steps               []analysis.StepTimes
	Wall                time.Duration
	// Usage is the run's CPU accounting (from /proc).
	Usage accounting.RunUsage
}

// Outcome is everything measured for one configuration.
type Outcome struct {
	Config  config.Config
	Plan    *training.Plan
	Network string
	// Trace is the 1-worker profile (Config.ProfileSteps steps).
	Trace     *trace.Trace
	Transfers []analysis.Transfer
	Phases    analysis.Phases
	Overhead  analysis.Overhead
	// Window and ConnWindow are the flow-control windows read from the
	// worker's SETTINGS and WINDOW_UPDATE frames (bytes, −1 unknown).
	Window, ConnWindow int64
	Clamped            int
	Profile            Run
	Points             []Point
	Runs               []Run
	Elapsed            time.Duration
	// Load is /proc/loadavg at the start and end of the measurement.
	Load [2]string
	// Nice is the scheduling priority of the processes.
	Nice int
	// Acct is the artifact accounting (engine/testbed doc.go, "Artifact accounting").
	Acct accounting.Accounting
}

// FromProfile fills the trace, phases, overhead and window from the
// profiling worker's result.
func (o *Outcome) FromProfile(r *node.WorkerResult) error {
	c, p := o.Config, o.Plan
	if len(r.Steps) != c.ProfileSteps {
		return fmt.Errorf("profiling run recorded %d steps, want %d", len(r.Steps), c.ProfileSteps)
	}
	ov, err := analysis.FitOverhead(r.Transfers)
	if err != nil {
		return err
	}
	ph, err := analysis.ExtractPhases(r.Transfers, c.PhaseSkip)
	if err != nil {
		return err
	}
	o.Transfers, o.Overhead, o.Phases = r.Transfers, ov, ph
	o.Window, o.ConnWindow, o.Clamped = r.Window, r.ConnWindow, r.Clamped
	o.Trace = &trace.Trace{
		Meta:  ProfileMeta(ConfigSource(c.Name), o.Network, p, c, o.Window, ov),
		Steps: r.Steps,
	}
	if err := o.Trace.Validate(); err != nil {
		return fmt.Errorf("recorded trace: %w", err)
	}
	return nil
}

// windowOf is the WIN of the dataset: the window read from the wire for
// the multiplexed transport, 0 (flow control off) for the ordered one.
func windowOf(c config.Config, measured int64) int64 {
	switch {
	case c.Transport == training.Ordered:
		return 0
	case measured > 0:
		return measured
	}
	return c.Window
}

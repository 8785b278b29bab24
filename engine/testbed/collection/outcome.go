package collection

import (
	"fmt"
	"strings"
	"time"

	"pslab/engine/testbed/accounting"
	"pslab/engine/testbed/analysis"
	"pslab/engine/testbed/config"
	"pslab/engine/testbed/node"
	"pslab/engine/testbed/training"
	"pslab/engine/trace"
)

// Point is the throughput measured at one W and one dilation.
type Point struct {
	Workers int
	// Dilation is the stretch factor k of the point's runs (engine/testbed
	// doc, "Dilation sensitivity"); 1 (or 0) for the configuration as it is.
	Dilation float64
	// Rates are the throughputs of the repetitions on the configuration's
	// time scale (examples/s; Run.Throughput).
	Rates []float64
	// Mean and Std (sample, n−1) over the repetitions (examples/s).
	Mean, Std float64
	// Stop says why no further repetition was run ("" if not recorded).
	Stop string
}

// Run is the step times of one run.
type Run struct {
	Workers, Repetition int
	// Dilation is the run's stretch factor k (1, or 0, unstretched).
	Dilation float64
	// Throughput is the run's throughput (analysis.Throughput) on the
	// configuration's time scale, examples/s: that of its own clock × k.
	Throughput float64
	Steps      []analysis.StepTimes
	Wall       time.Duration
	// Usage is the run's CPU accounting (from /proc).
	Usage accounting.RunUsage
}

// dilation is the run's stretch factor, 1 when unset.
func (r *Run) dilation() float64 { return max(1, r.Dilation) }

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
	// Points are the unstretched points, one per W of Config.Workers;
	// Dilated the stretched ones (Config.Dilations).
	Points, Dilated []Point
	// Runs are every throughput run, stretched ones included.
	Runs    []Run
	Elapsed time.Duration
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

// Facts returns every throughput run of o as judged (Judge): its
// throughput, steps, and the largest contention and retransmissions of
// its processes and the other work on the host.
func (o *Outcome) Facts() []RunFacts {
	out := make([]RunFacts, len(o.Runs))
	for i, r := range o.Runs {
		f := RunFacts{Workers: r.Workers, Repetition: r.Repetition, Dilation: r.dilation(), Throughput: r.Throughput, Steps: r.Steps, DSACK: true}
		other := r.Usage.HostCPU * float64(r.Usage.HostCPUs)
		for _, p := range r.Usage.Procs {
			f.Contention, f.Retrans, f.Lost = max(f.Contention, p.Contention), max(f.Retrans, p.Retrans), max(f.Lost, p.Lost())
			other -= p.CPU
		}
		f.Other = max(0, other)
		out[i] = f
	}
	return out
}

// JudgeInput is what Judge needs of o's configuration.
func (o *Outcome) JudgeInput() JudgeInput {
	return JudgeInput{Batch: o.Plan.Batch, Average: o.Config.Average, Unscaled: o.Acct.Unscaled, Dilations: o.Config.Dilations}
}

// Judge judges o's points (Judge) and sets o.Acct.Cause to what the
// configuration breaks: its unscaled share
// (accounting.Accounting.UnscaledBreach) and every point that moves
// under dilation, misses the interval, breaks a limit of its runs or
// cannot be judged; such an outcome is host_limited. It returns the
// verdicts.
func (o *Outcome) Judge() (points, stretched []PointVerdict) {
	a := &o.Acct
	points, stretched = Judge(o.Facts(), o.JudgeInput())
	var why []string
	if s := a.UnscaledBreach(); s != "" {
		why = append(why, s)
	}
	for _, p := range points {
		for _, w := range p.Why {
			why = append(why, fmt.Sprintf("W=%d: %s", p.Workers, w))
		}
		if p.Unjudged != "" {
			why = append(why, fmt.Sprintf("W=%d unjudged: %s", p.Workers, p.Unjudged))
		}
	}
	a.Cause = strings.Join(why, "; ")
	return points, stretched
}

package testbed

import (
	"context"
	"fmt"
	"io"
	"time"

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
	Steps               []StepTimes
	Wall                time.Duration
	// Usage is the run's CPU accounting (from /proc).
	Usage RunUsage
}

// Outcome is everything measured for one configuration.
type Outcome struct {
	Config  Config
	Plan    *Plan
	Network string
	// Trace is the 1-worker profile (Config.ProfileSteps steps).
	Trace     *trace.Trace
	Transfers []Transfer
	Phases    Phases
	Overhead  Overhead
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
	// Acct is the artifact accounting (doc.go, "Artifact accounting").
	Acct Accounting
}

// measure runs the protocol of one configuration (icpe20 §4.1, mascots18
// §III-A): a probe run of probeSteps 1-worker steps without compute and
// with 4-byte tensors that fits the per-message cost, a 1-worker
// profiling run of ProfileSteps steps that records the trace, then for
// each W in Workers, Repetitions runs of Steps steps whose throughput is
// the time average over the last Average steps. Every run's processes are
// accounted (Outcome.Acct); a host-limited outcome is returned with its
// Cause set, and a warning naming it is printed to progress.
func (l Launcher) measure(ctx context.Context, net network, root string, c Config, progress io.Writer) (*Outcome, error) {
	begin := time.Now()
	if err := net.Shape(ctx, c.Bandwidth()); err != nil {
		return nil, err
	}
	plan, err := func() (*Plan, error) { j := c.Job(root, 1); return j.LoadPlan() }()
	if err != nil {
		return nil, err
	}
	o := &Outcome{Config: c, Plan: plan, Network: net.Mode(), Nice: l.Nice}
	o.Load[0] = readTrim("/proc/loadavg")
	defer func() { o.Load[1] = readTrim("/proc/loadavg") }()
	timeout := func(steps, w int) time.Duration {
		// generous: 20× the serialized compute+transfer time of every step
		per := plan.StepCompute().Seconds() + 2*float64(plan.ModelBytes())*float64(w)/c.Bandwidth()
		return 60*time.Second + time.Duration(20*per*float64(steps)*1e9)
	}
	a := &o.Acct
	res, u, err := l.runOnce(ctx, net, runSpec{job: probeJob(c.Job(root, 1)), steps: probeSteps, failAt: -1, timeout: timeout(probeSteps, 1)})
	if err != nil {
		return nil, fmt.Errorf("%s: probe run: %w", c.Name, err)
	}
	a.Messages, a.RTT, a.Burst = MessagesPerStep(plan), minRTT(res[0]), BurstTime(o.Network, c.Bandwidth())
	a.MessageCost = fitMessageCost(StepTimes{Start: res[0].Start, End: res[0].End}, a.RTT, a.Messages)
	_ = u // the probe is calibration, CPU-bound by design: not judged
	t0 := time.Now()
	res, u, err = l.runOnce(ctx, net, runSpec{job: c.Job(root, 1), steps: c.ProfileSteps, trace: true, failAt: -1, timeout: timeout(c.ProfileSteps, 1)})
	if err != nil {
		return nil, fmt.Errorf("%s: profiling run: %w", c.Name, err)
	}
	r := res[0]
	o.Profile = Run{Workers: 1, Steps: []StepTimes{{Start: r.Start, End: r.End}}, Wall: time.Since(t0), Usage: u}
	a.setBaseline(u)
	a.addUsage(u, "profile")
	a.Step = medianStep(o.Profile.Steps[0], c.PhaseSkip)
	a.Unscaled = UnscaledShare(a.MessageCost, a.Messages, a.RTT, a.Burst, c.DeviceSpeed, a.Step)
	if err := o.fromProfile(r); err != nil {
		return nil, fmt.Errorf("%s: %w", c.Name, err)
	}
	fmt.Fprintf(progress, "%s: profiled %d steps in %v: S^D %.2f ms, S^W %.2f ms, S^U %.2f ms, S^S %.2f ms, α %.3g s/B, β %.3g s, WIN %d B\n",
		c.Name, c.ProfileSteps, o.Profile.Wall.Round(time.Millisecond), 1e3*o.Phases.SD, 1e3*o.Phases.SW, 1e3*o.Phases.SU, 1e3*o.Phases.SS,
		o.Overhead.Alpha, o.Overhead.Beta, o.Window)
	for _, w := range c.Workers {
		p := Point{Workers: w}
		for rep := range c.Repetitions {
			t := time.Now()
			res, u, err := l.runOnce(ctx, net, runSpec{job: c.Job(root, w), steps: c.Steps, failAt: -1, timeout: timeout(c.Steps, w)})
			if err != nil {
				return nil, fmt.Errorf("%s: W=%d repetition %d: %w", c.Name, w, rep, err)
			}
			run := Run{Workers: w, Repetition: rep, Wall: time.Since(t), Usage: u}
			a.addUsage(u, fmt.Sprintf("W=%d rep %d", w, rep))
			for _, r := range res {
				run.Steps = append(run.Steps, StepTimes{Start: r.Start, End: r.End})
			}
			x, err := Throughput(run.Steps, plan.Batch, c.Average)
			if err != nil {
				return nil, fmt.Errorf("%s: W=%d repetition %d: %w", c.Name, w, rep, err)
			}
			p.Rates = append(p.Rates, x)
			o.Runs = append(o.Runs, run)
		}
		p.Mean, p.Std = MeanStd(p.Rates)
		o.Points = append(o.Points, p)
		reps := o.Runs[len(o.Runs)-c.Repetitions:]
		_, cv := StepCI(reps, c.Average)
		var steps [][]StepTimes
		for _, r := range reps {
			steps = append(steps, r.Steps)
		}
		ci, err := BatchCI(steps, plan.Batch, c.Average, ciBatches)
		if err != nil {
			return nil, fmt.Errorf("%s: W=%d: %w", c.Name, w, err)
		}
		a.CI, a.CV = append(a.CI, ci), append(a.CV, cv)
		fmt.Fprintf(progress, "%s: W=%d %.1f ± %.1f examples/s (95%% CI ±%.1f%%, step CV %.1f%%)\n", c.Name, w, p.Mean, p.Std, 100*ci, 100*cv)
	}
	o.Elapsed = time.Since(begin)
	a.judge()
	fmt.Fprintf(progress, "%s: %s\n", c.Name, a.Summary())
	if a.HostLimited() {
		fmt.Fprintf(progress, "testbed: WARNING: %s is host_limited: %s\n", c.Name, a.Cause)
	}
	return o, nil
}

// fromProfile fills the trace, phases, overhead and window from the
// profiling worker's result.
func (o *Outcome) fromProfile(r *WorkerResult) error {
	c, p := o.Config, o.Plan
	if len(r.Steps) != c.ProfileSteps {
		return fmt.Errorf("profiling run recorded %d steps, want %d", len(r.Steps), c.ProfileSteps)
	}
	ov, err := FitOverhead(r.Transfers)
	if err != nil {
		return err
	}
	ph, err := ExtractPhases(r.Transfers, c.PhaseSkip)
	if err != nil {
		return err
	}
	o.Transfers, o.Overhead, o.Phases = r.Transfers, ov, ph
	o.Window, o.ConnWindow, o.Clamped = r.Window, r.ConnWindow, r.Clamped
	o.Trace = &trace.Trace{
		Meta:  profileMeta(configSource(c.Name), o.Network, p, c, o.Window, ov),
		Steps: r.Steps,
	}
	if err := o.Trace.Validate(); err != nil {
		return fmt.Errorf("recorded trace: %w", err)
	}
	return nil
}

// windowOf is the WIN of the dataset: the window read from the wire for
// the multiplexed transport, 0 (flow control off) for the ordered one.
func windowOf(c Config, measured int64) int64 {
	switch {
	case c.Transport == Ordered:
		return 0
	case measured > 0:
		return measured
	}
	return c.Window
}

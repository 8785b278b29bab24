package testbed

import (
	"context"
	"fmt"
	"io"
	"math"
	"time"

	"pslab/engine/testbed/accounting"
	"pslab/engine/testbed/analysis"
	"pslab/engine/testbed/collection"
	"pslab/engine/testbed/config"
	"pslab/engine/testbed/network"
	"pslab/engine/testbed/node"
	"pslab/engine/testbed/training"
)

// ciBatches is the number of batches each repetition's averaging window
// is cut into for the within-run batch-means diagnostic (analysis.BatchCI).
const ciBatches = 5

// measure runs the protocol of one configuration (icpe20 §4.1, mascots18
// §III-A; engine/testbed doc, "Measurement protocol"): a probe run of
// accounting.ProbeSteps 1-worker steps without compute and with 4-byte
// tensors that fits the per-message cost, a 1-worker profiling run of
// ProfileSteps steps that records the trace, then for each W in Workers
// runs of Steps steps whose throughput is the time average over the last
// Average steps, Repetitions of them and more until the interval over
// them is within ±accounting.MaxCI (measurer.point), and last the
// stretched points (measurer.stretch). Every run's processes are
// accounted (collection.Outcome.Acct) and the points judged
// (collection.Outcome.Judge); a host-limited outcome is returned with its
// Cause set, and a warning naming it is printed to progress.
func (l Launcher) measure(ctx context.Context, net network.Hosts, root string, c config.Config, progress io.Writer) (*collection.Outcome, error) {
	begin := time.Now()
	if err := net.Shape(ctx, network.Link{Rate: c.Bandwidth()}); err != nil {
		return nil, err
	}
	plan, err := func() (*training.Plan, error) { j := c.Job(root, 1); return j.LoadPlan() }()
	if err != nil {
		return nil, err
	}
	o := &collection.Outcome{Config: c, Plan: plan, Network: net.Mode(), Nice: l.Nice}
	o.Load[0] = readTrim("/proc/loadavg")
	defer func() { o.Load[1] = readTrim("/proc/loadavg") }()
	timeout := func(steps, w int, k float64) time.Duration {
		// generous: 20× the serialized compute+transfer time of every
		// step, k× for a run stretched k×
		per := plan.StepCompute().Seconds() + 2*float64(plan.ModelBytes())*float64(w)/c.Bandwidth()
		return 60*time.Second + time.Duration(20*per*k*float64(steps)*1e9)
	}
	a := &o.Acct
	res, u, err := l.runOnce(ctx, net, runSpec{job: accounting.ProbeJob(c.Job(root, 1)), steps: accounting.ProbeSteps, failAt: -1, timeout: timeout(accounting.ProbeSteps, 1, 1)})
	if err != nil {
		return nil, fmt.Errorf("%s: probe run: %w", c.Name, err)
	}
	a.Messages, a.RTT, a.Burst = accounting.MessagesPerStep(plan), minRTT(res[0]), network.BurstTime(o.Network, c.Bandwidth())
	a.MessageCost = accounting.FitMessageCost(analysis.StepTimes{Start: res[0].Start, End: res[0].End}, a.RTT, a.Messages)
	_ = u // the probe is calibration, CPU-bound by design: not judged
	t0 := time.Now()
	res, u, err = l.runOnce(ctx, net, runSpec{job: c.Job(root, 1), steps: c.ProfileSteps, trace: true, failAt: -1, timeout: timeout(c.ProfileSteps, 1, 1)})
	if err != nil {
		return nil, fmt.Errorf("%s: profiling run: %w", c.Name, err)
	}
	r := res[0]
	o.Profile = collection.Run{Workers: 1, Steps: []analysis.StepTimes{{Start: r.Start, End: r.End}}, Wall: time.Since(t0), Usage: u}
	a.SetBaseline(u)
	a.AddUsage(u, "profile")
	a.Step = analysis.MedianStep(o.Profile.Steps[0], c.PhaseSkip)
	a.Unscaled = accounting.UnscaledShare(a.MessageCost, a.Messages, a.RTT, a.Burst, c.DeviceSpeed, a.Step)
	if err := o.FromProfile(r); err != nil {
		return nil, fmt.Errorf("%s: %w", c.Name, err)
	}
	fmt.Fprintf(progress, "%s: profiled %d steps in %v: S^D %.2f ms, S^W %.2f ms, S^U %.2f ms, S^S %.2f ms, α %.3g s/B, β %.3g s, WIN %d B\n",
		c.Name, c.ProfileSteps, o.Profile.Wall.Round(time.Millisecond), 1e3*o.Phases.SD, 1e3*o.Phases.SW, 1e3*o.Phases.SU, 1e3*o.Phases.SS,
		o.Overhead.Alpha, o.Overhead.Beta, o.Window)
	m := &measurer{l: l, ctx: ctx, net: net, root: root, c: c, plan: plan, o: o, begin: begin, progress: progress, timeout: timeout}
	for _, w := range c.Workers {
		p, runs, err := m.point(w, 1)
		if err != nil {
			return nil, err
		}
		o.Points = append(o.Points, p)
		var steps [][]analysis.StepTimes
		for _, r := range runs {
			steps = append(steps, r.Steps)
		}
		_, cv := analysis.StepCI(steps, c.Average)
		ci, err := analysis.BatchCI(steps, plan.Batch, c.Average, ciBatches)
		if err != nil {
			return nil, fmt.Errorf("%s: W=%d: %w", c.Name, w, err)
		}
		a.CI, a.CV = append(a.CI, ci), append(a.CV, cv)
		a.RepCI = append(a.RepCI, analysis.NewSample(p.Rates).RelHalfWidth())
		fmt.Fprintf(progress, "%s: W=%d %.1f ± %.1f examples/s over %d repetitions (95%% CI ±%.1f%%; %s; within-run batch means ±%.1f%%, step CV %.1f%%)\n",
			c.Name, w, p.Mean, p.Std, len(p.Rates), 100*a.RepCI[len(a.RepCI)-1], p.Stop, 100*ci, 100*cv)
	}
	if err := m.stretch(); err != nil {
		return nil, err
	}
	o.Elapsed = time.Since(begin)
	o.Judge()
	fmt.Fprintf(progress, "%s: %s\n", c.Name, a.Summary())
	if a.HostLimited() {
		fmt.Fprintf(progress, "testbed: WARNING: %s is host_limited: %s\n", c.Name, a.Cause)
	}
	return o, nil
}

// minRTT is the smallest positive round trip of a worker result (s).
func minRTT(r *node.WorkerResult) float64 {
	best := time.Duration(math.MaxInt64)
	for _, x := range r.RTTs {
		if x > 0 {
			best = min(best, time.Duration(x))
		}
	}
	if best == math.MaxInt64 {
		return 0
	}
	return best.Seconds()
}

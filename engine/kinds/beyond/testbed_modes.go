package beyond

import (
	"context"
	"fmt"
	"math"
	"strconv"

	"pslab/engine/dataset"
	"pslab/engine/experiment"
	"pslab/engine/measured"
	"pslab/engine/sim"
)

// tbmStart is one [[params.start]]: a testbed configuration directory (an
// input) of the job, measured with one way of starting the workers.
type tbmStart struct {
	// ID names its metrics; Label its point in the figure.
	ID, Label string
	Input     string
}

type tbmParams struct {
	// Starts are the configurations of one job and one W that differ only
	// in how the workers start (testbed start_stagger_ms), in drawing
	// order; the first is the reference the others are tested against.
	Starts []tbmStart `toml:"start"`
	// SynchronySplit: a run whose synchrony (the testbed's Kuramoto order
	// parameter of the workers' step starts, 1 lockstep, 0 interleaved)
	// exceeds it settled in step, any other interleaved.
	SynchronySplit float64 `toml:"synchrony_split"`
	// Simulator is the ID of the start whose recorded 1-worker profile
	// the icpe20 simulator reads.
	Simulator string
	// Precision is the converged estimate's target relative half-width
	// (0 → sim.DefaultTarget).
	Precision float64
	// Workers is the W compared; each configuration's unstretched runs
	// at it are read, any others left out.
	Workers int
	// PaperSteps are the simulated steps per worker of icpe20's own
	// procedure (workers started together, the first 50 completions
	// excluded), simulated beside the converged estimate (0 → 1000).
	PaperSteps int `toml:"paper_steps"`
}

// tbmData is one start's runs.
type tbmData struct {
	start   tbmStart
	c       *measured.Config
	stagger float64   // ms, the testbed's start_stagger_ms (0: together)
	inStep  []float64 // in-step runs' throughputs, examples/s
	apart   []float64 // interleaved runs' throughputs
	// inStepSync and apartSync are the same runs' synchronies.
	inStepSync, apartSync []float64
	spread                float64 // mean first-start spread, ms
}

// all is the throughput of every run of d, in-step runs first.
func (d tbmData) all() []float64 { return append(append([]float64(nil), d.inStep...), d.apart...) }

// testbedModes asks what selects a testbed point's operating mode: the
// same job at one W measured with its workers started in different ways
// (engine/testbed config start_stagger_ms: worker i starts its first step
// i·stagger after all registered). Each run is classed by its synchrony
// as settled in step or interleaved. Per start (metrics .<id>): runs and
// runs_in_step, the fraction in step with its 95% Wilson interval (in_step), the mean
// first-start spread of the workers (start_spread_ms), the stagger
// (stagger_ms), the mean throughput over all runs with its Student-t
// interval (throughput), and for every start after the first Fisher's
// exact two-sided p-value that it has the first's in-step fraction
// (fisher_p). Pooled over every start, each mode's throughput and
// synchrony (mode.in_step.*, mode.interleaved.*, throughput with its
// interval) and mode_loss, the fraction of the interleaved mode's
// throughput the in-step one loses. The icpe20 simulator predicts the point from the recorded
// profile of params.simulator: its converged estimate (workers started
// apart; simulator.converged with its interval) and icpe20's procedure
// (workers started together; simulator.paper), and the same intervention
// in the simulator (intervene); error.<mode> is the
// converged estimate's error against each mode's mean, in percent of
// |predicted − measured|/measured, with its interval
// (measured.NewRelError; signed_error.<mode> keeps the sign), and
// error.mixture.<id> the same against a start's mean over all its runs.
// A mean over one run has no interval: its metric is recorded without
// one. The figure draws the in-step fraction against the start spread.
func testbedModes(ctx context.Context, env *experiment.Env) (*experiment.Result, error) {
	p := tbmParams{SynchronySplit: 0.4, PaperSteps: 1000}
	if err := env.Params(&p); err != nil {
		return nil, err
	}
	ds, err := p.load(env)
	if err != nil {
		return nil, err
	}
	w := p.Workers
	var simC *measured.Config
	for _, d := range ds {
		if d.start.ID == p.Simulator {
			simC = d.c
		}
	}
	ops := len(simC.Trace.Steps[0].Ops)
	// The converged estimate's least, icpe20's procedure, and the
	// intervention's runs at every start (intervene).
	events := float64(sim.DefaultReplications*(1+len(ds)))*experiment.SimEvents(ops, sim.InitialSteps(w), w) + experiment.SimEvents(ops, p.PaperSteps, w)
	what := fmt.Sprintf("testbed-modes: the simulator at W = %d (a converged estimate, %d paper-procedure steps and %d starts' interventions)", w, p.PaperSteps, len(ds))
	if err := env.CheckEvents(events, what); err != nil {
		return nil, err
	}
	// Rows: each start's point, note and about 25 metrics, and about 50
	// of the modes and the simulator.
	if err := env.CheckRows([]string{"params", "start"}, 0, float64(30*len(ds)+50), what); err != nil {
		return nil, err
	}
	res := experiment.NewResult()
	var inStep, apart []float64
	for i, d := range ds {
		n := len(d.inStep) + len(d.apart)
		lo, hi := sim.Wilson(len(d.inStep), n)
		frac := float64(len(d.inStep)) / float64(n)
		res.MetricInterval("in_step."+d.start.ID, frac, lo, hi)
		res.Metric("runs."+d.start.ID, float64(n))
		res.Metric("runs_in_step."+d.start.ID, float64(len(d.inStep)))
		res.Metric("start_spread_ms."+d.start.ID, d.spread)
		res.Metric("stagger_ms."+d.start.ID, d.stagger)
		meanMetric(res, "throughput."+d.start.ID, d.all())
		if i > 0 {
			res.Metric("fisher_p."+d.start.ID, fisherExact(len(ds[0].inStep), len(ds[0].apart), len(d.inStep), len(d.apart)))
		}
		res.PointRange("testbed: runs that settle in step", "measurement", dataset.Measured, d.spread, frac, lo, hi)
		res.Note("%s (stagger %g ms, first starts %.1f ms apart): %d of %d runs in step (%.0f%%, 95%% Wilson [%.0f%%, %.0f%%])",
			d.start.Label, d.stagger, d.spread, len(d.inStep), n, 100*frac, 100*lo, 100*hi)
		inStep, apart = append(inStep, d.inStep...), append(apart, d.apart...)
	}
	modes := map[string][]float64{"in_step": inStep, "interleaved": apart}
	for _, name := range []string{"in_step", "interleaved"} {
		if len(modes[name]) == 0 {
			continue
		}
		meanMetric(res, "mode."+name+".throughput", modes[name])
		res.Metric("mode."+name+".runs", float64(len(modes[name])))
	}
	if len(inStep) > 0 && len(apart) > 0 {
		res.Metric("mode_loss", 1-res.Metrics["mode.in_step.throughput"]/res.Metrics["mode.interleaved.throughput"])
	}
	res.Metric("mode.in_step.synchrony", meanSynchrony(ds, true))
	res.Metric("mode.interleaved.synchrony", meanSynchrony(ds, false))
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	rest := experiment.SimEvents(ops, p.PaperSteps, w) + float64(sim.DefaultReplications*len(ds))*experiment.SimEvents(ops, sim.InitialSteps(w), w)
	return res, p.simulate(env, res, ds, simC, w, modes, rest)
}

// meanMetric records the mean of xs as metric name, with its 95% interval
// (Student's t) when there are two or more.
func meanMetric(res *experiment.Result, name string, xs []float64) {
	m, lo, hi := experiment.MeanCI(xs)
	if len(xs) < 2 {
		res.Metric(name, m)
		return
	}
	res.MetricInterval(name, m, lo, hi)
}

// meanSynchrony is the mean synchrony of the runs in step (or
// interleaved) over every start; NaN-free: 0 when there is none.
func meanSynchrony(ds []tbmData, inStep bool) float64 {
	sum, n := 0.0, 0
	for _, d := range ds {
		xs := d.apartSync
		if inStep {
			xs = d.inStepSync
		}
		for _, x := range xs {
			sum, n = sum+x, n+1
		}
	}
	if n == 0 {
		return 0
	}
	return sum / float64(n)
}

// staggerOf is a configuration's start_stagger_ms from its metadata (0
// when unset: the workers start together).
func staggerOf(c *measured.Config) (float64, error) {
	s, ok := c.MeasTable.Provenance.Extra["testbed.start_stagger_ms"]
	if !ok {
		return 0, nil
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || !(v >= 0) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("throughput.arrow metadata testbed.start_stagger_ms = %q: want a number ≥ 0", s)
	}
	return v, nil
}

// fisherExact is Fisher's exact test of a 2×2 table [[a, b], [c, d]]: the
// two-sided p-value, the probability under the hypergeometric law of the
// margins of every table no more likely than the observed one. Written
// here because gonum has no hypergeometric distribution; a few dozen
// terms of math.Lgamma.
func fisherExact(a, b, c, d int) float64 {
	r1, c1, n := a+b, a+c, a+b+c+d
	lf := func(k int) float64 { v, _ := math.Lgamma(float64(k) + 1); return v }
	logP := func(x int) float64 {
		return lf(r1) + lf(n-r1) + lf(c1) + lf(n-c1) - lf(n) - lf(x) - lf(r1-x) - lf(c1-x) - lf(n-r1-c1+x)
	}
	obs := logP(a)
	p := 0.0
	for x := max(0, r1+c1-n); x <= min(r1, c1); x++ {
		if lp := logP(x); lp <= obs+1e-7 {
			p += math.Exp(lp)
		}
	}
	return min(p, 1)
}

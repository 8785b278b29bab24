package mechanism

import (
	"context"
	"fmt"
	"math"

	"pslab/engine/experiment"
	"pslab/engine/sim"
	"pslab/engine/trace"
)

type desyncParams struct {
	mechTraceParams
	Link    mechLinkParams
	Workers int
	Steps   int     // simulated steps per worker
	WindowS float64 `toml:"window_s"` // length of a series window, seconds
	// First is the number of leading windows averaged as "first".
	First int
	// Plot selects the drawn quantity: "overlap" or "throughput".
	Plot string
}

// desyncSeries simulates W workers that start together (icpe20 Figs. 15,
// 16) and records, per window of WindowS seconds, the downlink overlap
// (time with ≥ 2 workers downloading over time with ≥ 1) and the
// throughput. Metrics: overlap.first and throughput.first (means over the
// first First windows), overlap.last and throughput.last (the last First
// windows), overlap.steady and throughput.steady (the simulator's
// measurement window after its 50-step warm-up, §4.1), overlap.drop =
// first − steady, throughput.rise = steady − first, and overlap.warmup
// (the whole warm-up).
func desyncSeries(_ context.Context, env *experiment.Env) (*experiment.Result, error) {
	p := desyncParams{Workers: 2, Steps: 100, First: 2, Plot: "overlap"}
	if err := env.Params(&p); err != nil {
		return nil, err
	}
	if p.Workers < 2 || p.Steps < 1 || p.First < 1 {
		return nil, env.Errorf("workers", "workers %d must be ≥ 2, steps %d and first %d ≥ 1", p.Workers, p.Steps, p.First)
	}
	if !(p.WindowS > 0) || math.IsInf(p.WindowS, 0) {
		return nil, env.Errorf("window_s", "window_s %v: want > 0", p.WindowS)
	}
	if p.Plot != "overlap" && p.Plot != "throughput" {
		return nil, env.Errorf("plot", "plot %q: want overlap or throughput", p.Plot)
	}
	link, err := p.Link.link(env, "link")
	if err != nil {
		return nil, err
	}
	on, err := p.placement(env)
	if err != nil {
		return nil, err
	}
	prof, err := mechProfile(env)
	if err != nil {
		return nil, err
	}
	ops, steps, err := mechSize(env, prof, p.mechTraceParams)
	if err != nil {
		return nil, err
	}
	if err := env.CheckEvents(experiment.SimEvents(ops, p.Steps, p.Workers), "workers × steps"); err != nil {
		return nil, err
	}
	what := fmt.Sprintf("desync-series: %d profiled steps of %d ops", steps, ops)
	if err := env.CheckModelWork([]string{"params", "profiled_steps"}, synthWork(ops, steps), what); err != nil {
		return nil, err
	}
	rng := env.Rand()
	tr, err := mechSynth(env, prof, p.mechTraceParams, rng.Uint64())
	if err != nil {
		return nil, err
	}
	// The simulator keeps a window of the series per window_s seconds of
	// simulated time: bound their number by the longest the run can take.
	windows := desyncWindows(tr, p.Workers, p.Steps, p.WindowS)
	if err := env.CheckRows([]string{"params", "window_s"}, synthWork(ops, steps)+windows, windows+13,
		fmt.Sprintf("%s, at most %.3g windows of %g s", what, windows, p.WindowS)); err != nil {
		return nil, err
	}
	r, err := sim.Run(tr, sim.Config{Workers: p.Workers, Steps: p.Steps, Link: link, OverheadOn: on, Seed: rng.Uint64(), SeriesWindow: p.WindowS,
		Progress: env.EventCounter()})
	if err != nil {
		return nil, err
	}
	if len(r.Series) < 2*p.First {
		return nil, env.Errorf("window_s", "%d windows of %g s, need at least 2·first = %d", len(r.Series), p.WindowS, 2*p.First)
	}
	env.CountModelWork(float64(len(r.Series)))
	res := experiment.NewResult()
	name, steadyName := fmt.Sprintf("downlink overlap, W = %d", p.Workers), "mean after the 50-step warm-up (§4.1)"
	if p.Plot == "throughput" {
		name = fmt.Sprintf("throughput, W = %d", p.Workers)
	}
	var ov, x, ovLast, xLast float64
	n := len(r.Series)
	for i, w := range r.Series {
		y := w.DownlinkOverlap
		if p.Plot == "throughput" {
			y = w.Throughput
		}
		res.Point(name, "icpe20-sim", "derived", (w.Start+w.End)/2, y)
		if i < p.First {
			ov += w.DownlinkOverlap / float64(p.First)
			x += w.Throughput / float64(p.First)
		}
		if i >= n-p.First {
			ovLast += w.DownlinkOverlap / float64(p.First)
			xLast += w.Throughput / float64(p.First)
		}
	}
	steady := r.DownlinkOverlap
	if p.Plot == "throughput" {
		steady = r.Throughput
	}
	res.Point(steadyName, "icpe20-sim", "derived", r.WindowStart, steady)
	res.Point(steadyName, "icpe20-sim", "derived", r.WindowEnd, steady)
	res.Metric("overlap.first", ov)
	res.Metric("overlap.last", ovLast)
	res.Metric("throughput.last", xLast)
	res.Metric("overlap.steady", r.DownlinkOverlap)
	res.Metric("overlap.drop", ov-r.DownlinkOverlap)
	res.Metric("overlap.warmup", r.WarmupDownlinkOverlap)
	res.Metric("throughput.first", x)
	res.Metric("throughput.steady", r.Throughput)
	res.Metric("throughput.rise", r.Throughput-x)
	res.Note("%s bs %d, %d profiled steps, W = %d, %d steps each; window (%.1f, %.1f] s; step time %.3f s", tr.Meta.Model,
		tr.Meta.Batch, len(tr.Steps), p.Workers, p.Steps, r.WindowStart, r.WindowEnd, r.StepTime.Mean)
	return res, nil
}

// desyncWindows bounds the number of series windows of windowS seconds in
// a run of workers workers for steps steps each on tr. Whatever the order
// its resources serve them in, a step's ops take at most their recorded
// durations one after another, at a 1/w share of a link when w workers
// share it; so the run lasts at most steps·workers times the largest sum
// of a recorded step's op durations, counted twice for safety, plus one
// window.
func desyncWindows(tr *trace.Trace, workers, steps int, windowS float64) float64 {
	longest := 0.0
	for _, st := range tr.Steps {
		sum := 0.0
		for _, op := range st.Ops {
			sum += float64(op.End-op.Start) / 1e9
		}
		longest = math.Max(longest, sum)
	}
	return math.Floor(2*float64(steps)*float64(workers)*longest/windowS) + 1
}

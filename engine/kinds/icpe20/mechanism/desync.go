package mechanism

import (
	"context"
	"fmt"
	"math"

	"pslab/engine/experiment"
	"pslab/engine/sim"
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
	rng := env.Rand()
	tr, _, err := mechTrace(env, p.mechTraceParams, rng.Uint64())
	if err != nil {
		return nil, err
	}
	link, err := p.Link.link(env, "link")
	if err != nil {
		return nil, err
	}
	on, err := p.placement(env)
	if err != nil {
		return nil, err
	}
	if err := env.CheckEvents(experiment.SimEvents(len(tr.Steps[0].Ops), p.Steps, p.Workers), "workers × steps"); err != nil {
		return nil, err
	}
	r, err := sim.Run(tr, sim.Config{Workers: p.Workers, Steps: p.Steps, Link: link, OverheadOn: on, Seed: rng.Uint64(), SeriesWindow: p.WindowS})
	if err != nil {
		return nil, err
	}
	if len(r.Series) < 2*p.First {
		return nil, env.Errorf("window_s", "%d windows of %g s, need at least 2·first = %d", len(r.Series), p.WindowS, 2*p.First)
	}
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

package mechanism

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/stat"

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
	// Replications is the number of independent replications (at least
	// experiment.MinReplications), each with its own synthesized trace
	// and simulator seed (Env.ReplicationRands).
	Replications int
}

// desyncSeries simulates W workers that start together (icpe20 Figs. 15,
// 16) and records, per window of WindowS seconds, the downlink overlap
// (time with ≥ 2 workers downloading over time with ≥ 1) and the
// throughput. Metrics: overlap.first and throughput.first (means over the
// first First windows), overlap.last and throughput.last (the last First
// windows), overlap.steady and throughput.steady (the simulator's
// measurement window after its 50-step warm-up, §4.1), overlap.drop =
// first − steady, throughput.rise = steady − first, and overlap.warmup
// (the whole warm-up), and desynchronized (the fraction of runs whose last
// windows' overlap is below 1/2). Each metric is the mean over Replications
// independent replications with its 95% interval (experiment.MetricCI:
// .ci95_lo, .ci95_hi), which golden interval checks judge; the drawn
// series is the mean over the runs per window, with its interval.
func desyncSeries(_ context.Context, env *experiment.Env) (*experiment.Result, error) {
	p := desyncParams{Workers: 2, Steps: 100, First: 2, Plot: "overlap", Replications: experiment.MinReplications}
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
	n := p.Replications
	if err := env.CheckReplications(n); err != nil {
		return nil, err
	}
	if err := env.CheckEvents(float64(n)*experiment.SimEvents(ops, p.Steps, p.Workers), "replications × workers × steps"); err != nil {
		return nil, err
	}
	work := replicatedSynthWork(n, ops, steps)
	what := fmt.Sprintf("desync-series: %d replications of %d profiled steps of %d ops", n, steps, ops)
	if err := env.CheckModelWork([]string{"params", "profiled_steps"}, work, what); err != nil {
		return nil, err
	}
	rngs := env.ReplicationRands(n)
	traces := make([]*trace.Trace, n)
	for i, rng := range rngs {
		if traces[i], err = mechSynth(env, prof, p.mechTraceParams, rng.Uint64()); err != nil {
			return nil, err
		}
	}
	// The simulator keeps a window of the series per window_s seconds of
	// simulated time: bound their number by the longest each run can take.
	// Every replication's windows are counted; the windows all of them
	// reach are drawn (at most replication 0's).
	windows, drawn := 0.0, desyncWindows(traces[0], p.Workers, p.Steps, p.WindowS)
	for _, tr := range traces {
		windows += desyncWindows(tr, p.Workers, p.Steps, p.WindowS)
	}
	// Rows: the drawn windows and steady line, 10 metrics with their two
	// interval bounds, two notes.
	if err := env.CheckRows([]string{"params", "window_s"}, work+windows, drawn+2+3*10+2,
		fmt.Sprintf("%s, at most %.3g windows of %g s", what, windows, p.WindowS)); err != nil {
		return nil, err
	}
	res := experiment.NewResult()
	var rep experiment.Replicated
	var runs []sim.Result
	for i, tr := range traces {
		r, err := sim.Run(tr, sim.Config{Workers: p.Workers, Steps: p.Steps, Link: link, OverheadOn: on, Seed: rngs[i].Uint64(), SeriesWindow: p.WindowS,
			Progress: env.EventCounter()})
		if err != nil {
			return nil, fmt.Errorf("replication %d: %w", i, err)
		}
		if len(r.Series) < 2*p.First {
			return nil, env.Errorf("window_s", "replication %d: %d windows of %g s, need at least 2·first = %d", i, len(r.Series), p.WindowS, 2*p.First)
		}
		env.CountModelWork(float64(len(r.Series)))
		desyncMetrics(&rep, r, p.First)
		runs = append(runs, r)
		if i == 0 {
			res.Note("%s bs %d, %d profiled steps, W = %d, %d steps each; replication 1: window (%.1f, %.1f] s, step time %.3f s", tr.Meta.Model,
				tr.Meta.Batch, len(tr.Steps), p.Workers, p.Steps, r.WindowStart, r.WindowEnd, r.StepTime.Mean)
		}
	}
	desyncDraw(res, runs, p)
	rep.Record(res)
	res.Note("metrics: means over %d independent replications (each its own synthesized trace and simulator seed) with their 95%% interval (Student's t); per replication, overlap of the last %d windows %s, throughput %s",
		n, p.First, roundedList(rep.Samples("overlap.last"), 2), roundedList(rep.Samples("throughput.last"), 2))
	return res, nil
}

// roundedList formats vs with digits decimals, comma-separated.
func roundedList(vs []float64, digits int) string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = strconv.FormatFloat(v, 'f', digits, 64)
	}
	return strings.Join(out, ", ")
}

// desyncMetrics adds one run's metrics to rep: the means of the first and
// the last first windows, the measurement window's and the warm-up's.
func desyncMetrics(rep *experiment.Replicated, r sim.Result, first int) {
	var ov, x, ovLast, xLast float64
	n := len(r.Series)
	for i, w := range r.Series {
		if i < first {
			ov += w.DownlinkOverlap / float64(first)
			x += w.Throughput / float64(first)
		}
		if i >= n-first {
			ovLast += w.DownlinkOverlap / float64(first)
			xLast += w.Throughput / float64(first)
		}
	}
	rep.Add("overlap.first", ov)
	rep.Add("overlap.last", ovLast)
	rep.Add("throughput.last", xLast)
	rep.Add("overlap.steady", r.DownlinkOverlap)
	rep.Add("overlap.drop", ov-r.DownlinkOverlap)
	rep.Add("overlap.warmup", r.WarmupDownlinkOverlap)
	rep.Add("throughput.first", x)
	rep.Add("throughput.steady", r.Throughput)
	rep.Add("throughput.rise", r.Throughput-x)
	desynchronized := 0.0
	if ovLast < 0.5 {
		desynchronized = 1
	}
	rep.Add("desynchronized", desynchronized)
}

// desyncDraw draws, per window every run reaches, the mean of p.Plot over
// the runs with its 95% interval, and the mean of the runs' steady-state
// values over their mean measurement window.
func desyncDraw(res *experiment.Result, runs []sim.Result, p desyncParams) {
	name, steadyName := fmt.Sprintf("downlink overlap, W = %d", p.Workers), "mean after the 50-step warm-up (§4.1)"
	if p.Plot == "throughput" {
		name = fmt.Sprintf("throughput, W = %d", p.Workers)
	}
	name += fmt.Sprintf(", mean of %d replications (95%% CI)", len(runs))
	value := func(w sim.Window) float64 {
		if p.Plot == "throughput" {
			return w.Throughput
		}
		return w.DownlinkOverlap
	}
	windows := len(runs[0].Series)
	for _, r := range runs {
		windows = min(windows, len(r.Series))
	}
	ys := make([]float64, len(runs))
	for k := range windows {
		for i, r := range runs {
			ys[i] = value(r.Series[k])
		}
		w := runs[0].Series[k]
		mean, lo, hi := experiment.MeanCI(ys)
		res.PointRange(name, "icpe20-sim", "derived", (w.Start+w.End)/2, mean, lo, hi)
	}
	// The steady state as a window: the run's measurement window and value.
	var steady, start, end []float64
	for _, r := range runs {
		steady = append(steady, value(sim.Window{Throughput: r.Throughput, DownlinkOverlap: r.DownlinkOverlap}))
		start, end = append(start, r.WindowStart), append(end, r.WindowEnd)
	}
	y, x0, x1 := stat.Mean(steady, nil), stat.Mean(start, nil), stat.Mean(end, nil)
	res.Point(steadyName, "icpe20-sim", "derived", x0, y)
	res.Point(steadyName, "icpe20-sim", "derived", x1, y)
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

package mechanism

import (
	"context"
	"fmt"
	"slices"
	"sort"

	"gonum.org/v1/gonum/mat"

	"pslab/engine/experiment"
	"pslab/engine/sim"
	"pslab/engine/trace"
)

type mechTimelineParams struct {
	mechTraceParams
	Link    mechLinkParams
	Workers int
	Steps   int // simulated steps per worker
	// Height is the height of a busy bar in lane units (0 < Height < 1).
	Height float64
}

// simTimeline simulates W workers for a few steps and draws the simulated
// trace as a Gantt chart (icpe20 Fig. 7): one lane per (worker, resource),
// a square wave that is raised while a chunk runs. From the completed
// chunks (sim.Config.OnSpan) it measures the rate at which a worker's link
// chunk progresses when it is alone and when n workers transfer in the same
// direction: for every link chunk, bytes/B = Σₙ rₙ·tₙ, with tₙ the time the
// chunk spent while n workers had a chunk running in its direction, solved
// for rₙ by least squares over all chunks (metrics rate.<dir>.n<n>; the
// bandwidth-sharing model of §3.1 says rₙ = 1/n).
func simTimeline(_ context.Context, env *experiment.Env) (*experiment.Result, error) {
	p := mechTimelineParams{Workers: 2, Steps: 2, Height: 0.7}
	if err := env.Params(&p); err != nil {
		return nil, err
	}
	if p.Workers < 1 || p.Steps < 1 {
		return nil, env.Errorf("workers", "workers %d and steps %d must be ≥ 1", p.Workers, p.Steps)
	}
	if !(p.Height > 0 && p.Height < 1) {
		return nil, env.Errorf("height", "height %v: want 0 < height < 1", p.Height)
	}
	prof, err := mechProfile(env)
	if err != nil {
		return nil, err
	}
	ops, steps, err := mechSize(env, prof, p.mechTraceParams)
	if err != nil {
		return nil, err
	}
	// Every span is kept in memory for the figure and the rate fit: bound
	// the simulation, the fit and the figure first (timelineWork).
	events := experiment.SimEvents(ops, p.Steps, p.Workers)
	if err := env.CheckEvents(events, "workers × steps"); err != nil {
		return nil, err
	}
	units, rows := timelineWork(events, p.Workers)
	if err := env.CheckRows([]string{"params", "workers"}, synthWork(ops, steps)+units, rows,
		fmt.Sprintf("sim-timeline: about %.3g chunks of %d workers", events, p.Workers)); err != nil {
		return nil, err
	}
	rng := env.Rand()
	tr, err := mechSynth(env, prof, p.mechTraceParams, rng.Uint64())
	if err != nil {
		return nil, err
	}
	if tr.Meta.Servers > 1 {
		return nil, env.Errorf("profile", "the timeline kind draws 1 PS; the trace has %d", tr.Meta.Servers)
	}
	link, err := p.Link.link(env, "link")
	if err != nil {
		return nil, err
	}
	on, err := p.placement(env)
	if err != nil {
		return nil, err
	}
	var spans []sim.Span
	cfg := sim.Config{Workers: p.Workers, Steps: p.Steps, Warmup: sim.NoWarmup, Link: link, OverheadOn: on, Seed: rng.Uint64(),
		Progress: env.EventCounter(),
		OnSpan: func(s sim.Span) {
			if !s.Overhead || on == sim.Processor { // receive-thread overheads occupy no lane
				spans = append(spans, s)
			}
		}}
	r, err := sim.Run(tr, cfg)
	if err != nil {
		return nil, err
	}
	res := experiment.NewResult()
	// The lanes stay idle for a third of the run after the last chunk: the
	// legend goes there instead of over the chunks.
	drawLanes(res, spans, p.Workers, p.Height, r.Duration*4/3)
	env.CountModelWork(float64(len(spans)))
	window := link.Window
	if window == 0 {
		window = tr.Meta.Window
	}
	bw := tr.Meta.Bandwidth
	for _, dir := range []trace.Kind{trace.Downlink, trace.Uplink} {
		rates, iters, err := shareRatesCount(spans, tr, dir, link.Mode, window, bw, p.Workers)
		env.CountModelWork(iters)
		if err != nil {
			return nil, fmt.Errorf("%s rates: %w", dir, err)
		}
		for n, rate := range rates {
			if rate.chunks > 0 {
				res.Metric(fmt.Sprintf("rate.%s.n%d", dir, n+1), rate.rate)
				res.Metric(fmt.Sprintf("time.%s.n%d", dir, n+1), rate.seconds)
			}
		}
	}
	res.Metric("spans", float64(len(spans)))
	res.Note("%d workers × %d steps of %s (%d profiled steps), %s link, %d chunks", p.Workers, p.Steps, tr.Meta.Model, len(tr.Steps), link.Mode, len(spans))
	return res, nil
}

// laneKinds is the order of a worker's lanes, top to bottom.
var laneKinds = []trace.Kind{trace.Downlink, trace.Worker, trace.Uplink, trace.PS}

// drawLanes adds one square-wave series per (worker, resource): y = lane
// while idle, lane + height while a chunk runs. Lanes are numbered from
// the bottom so that worker 1's downlink is the top lane.
func drawLanes(res *experiment.Result, spans []sim.Span, workers int, height, end float64) {
	nLanes := workers * len(laneKinds)
	// The spans of each lane, in completion order: one pass over them,
	// not one per lane.
	lanes := make([][]sim.Span, nLanes)
	for _, s := range spans {
		if k := slices.Index(laneKinds, s.Resource.Kind); k >= 0 && s.Worker >= 0 && s.Worker < workers {
			lanes[s.Worker*len(laneKinds)+k] = append(lanes[s.Worker*len(laneKinds)+k], s)
		}
	}
	for w := range workers {
		for k, kind := range laneKinds {
			base := float64(nLanes - 1 - (w*len(laneKinds) + k))
			name := fmt.Sprintf("worker %d %s", w+1, kind)
			own := lanes[w*len(laneKinds)+k]
			sort.SliceStable(own, func(i, j int) bool { return own[i].Start < own[j].Start })
			res.Point(name, "icpe20-sim", "derived", 0, base)
			for _, s := range own {
				res.Point(name, "icpe20-sim", "derived", s.Start, base)
				res.Point(name, "icpe20-sim", "derived", s.Start, base+height)
				res.Point(name, "icpe20-sim", "derived", s.End, base+height)
				res.Point(name, "icpe20-sim", "derived", s.End, base)
			}
			res.Point(name, "icpe20-sim", "derived", end, base)
		}
	}
}

// shareRate is the fitted progress rate of a link chunk while n workers
// transfer in its direction.
type shareRate struct {
	rate    float64 // fraction of the bandwidth B
	seconds float64 // total chunk time spent at this n
	chunks  int     // chunks that spent time at this n
}

// chunkBytes returns the bytes a link chunk carried under the HTTP/2 chunk
// rule (§3.2.2) or as a whole stream.
func chunkBytes(s sim.Span, size int64, mode sim.Mode, window int64) float64 {
	switch {
	case mode == sim.WholeStream || size <= window:
		return float64(size)
	case s.Chunk == 0:
		return float64(window)
	default:
		return float64(size - window)
	}
}

// shareRates fits the rate rₙ of a chunk while n workers have a chunk
// running in direction dir (1 PS): Σ over chunks of (bytes/B − Σₙ rₙ·tₙ)²
// is minimized. Counts n with no chunk time get rate 0 and chunks 0.
func shareRates(spans []sim.Span, tr *trace.Trace, dir trace.Kind, mode sim.Mode, window int64, bw float64, workers int) ([]shareRate, error) {
	out, _, err := shareRatesCount(spans, tr, dir, mode, window, bw, workers)
	return out, err
}

// shareRatesCount is shareRates that also returns its work in model-work
// units: the intervals its two passes visit, the cells of its matrix and
// the least-squares solve's chunks × columns².
func shareRatesCount(spans []sim.Span, tr *trace.Trace, dir trace.Kind, mode sim.Mode, window int64, bw float64, workers int) ([]shareRate, float64, error) {
	var iters float64
	var own []sim.Span
	var cuts []float64
	for _, s := range spans {
		if s.Resource.Kind == dir {
			own = append(own, s)
			cuts = append(cuts, s.Start, s.End)
		}
	}
	slices.Sort(cuts)
	cuts = slices.Compact(cuts)
	// active[i] is the number of chunks running in (cuts[i], cuts[i+1]).
	active := make([]int, max(len(cuts)-1, 0))
	for _, s := range own {
		i, _ := slices.BinarySearch(cuts, s.Start)
		for ; cuts[i] < s.End; i++ {
			active[i]++
			iters++
		}
	}
	out := make([]shareRate, workers)
	if len(own) == 0 {
		return out, iters, nil
	}
	a := mat.NewDense(len(own), workers, nil)
	b := mat.NewVecDense(len(own), nil)
	for c, s := range own {
		i, _ := slices.BinarySearch(cuts, s.Start)
		for ; cuts[i] < s.End; i++ {
			iters++
			n := active[i]
			if n < 1 || n > workers {
				return nil, iters, fmt.Errorf("%d chunks running at once with %d workers", n, workers)
			}
			dt := cuts[i+1] - cuts[i]
			a.Set(c, n-1, a.At(c, n-1)+dt)
			out[n-1].seconds += dt
		}
		for n := range workers {
			if a.At(c, n) > 0 {
				out[n].chunks++
			}
		}
		b.SetVec(c, chunkBytes(s, tr.Steps[0].Ops[s.Op].Bytes, mode, window)/bw)
	}
	// Drop the columns of counts never seen, which would make A singular.
	var cols []int
	for n := range workers {
		if out[n].chunks > 0 {
			cols = append(cols, n)
		}
	}
	sub := mat.NewDense(len(own), len(cols), nil)
	for j, n := range cols {
		for c := range own {
			sub.Set(c, j, a.At(c, n))
		}
	}
	iters += float64(len(own)) * float64(workers+len(cols)*(1+len(cols)))
	var x mat.VecDense
	if err := x.SolveVec(sub, b); err != nil {
		return nil, iters, err
	}
	for j, n := range cols {
		out[n].rate = x.AtVec(j)
	}
	return out, iters, nil
}

// timelineWork bounds sim-timeline's work besides the simulation for at
// most chunks completed chunks of workers workers: per direction the rate
// fit's two passes over the intervals each chunk spans (at most all 2·chunks
// cut points), its matrix and its least-squares solve (shareRates), and
// sorting the lanes (units); four points per chunk and the lanes' ends,
// metrics and note (rows).
func timelineWork(chunks float64, workers int) (units, rows float64) {
	w := float64(workers)
	units = 2*(2*chunks*2*chunks+chunks*(w+w*(1+w))) + 20*chunks
	rows = 4*chunks + 2*w*float64(len(laneKinds)) + 4*w + 2
	return units, rows
}

package beyond

import (
	"fmt"
	"math"

	"pslab/engine/experiment"
	"pslab/engine/measured"
	"pslab/engine/predict"
	"pslab/engine/sim"
)

// simulate predicts the point with the icpe20 simulator from c's profile:
// a converged estimate and icpe20's procedure, and the converged
// estimate's errors against each mode and each start's mixture. The
// converged estimate may use the events the limit leaves the other runs
// (rest).
func (p *tbmParams) simulate(env *experiment.Env, res *experiment.Result, ds []tbmData, c *measured.Config, w int, modes map[string][]float64, rest float64) error {
	mode, err := predict.ParseTransport(c.Transport)
	if err != nil {
		return err
	}
	order, err := predict.ParseOrder(c.Order)
	if err != nil {
		return err
	}
	cl := predict.Cluster{Link: sim.Link{Mode: mode, Order: order}, Seed: env.Spec.Seed, OverheadOn: sim.ReceiveThreads,
		Progress: env.EventCounter(), Estimates: env.Estimates(),
		Precision: sim.Precision{Target: p.Precision, MaxEvents: max(int64(env.EventLimit()-rest), 1)}}
	conv, err := predict.Run(c.Trace, cl, []int{w}, []predict.Model{predict.Simulator})
	if err != nil {
		return err
	}
	cl.Paper, cl.Steps = true, p.PaperSteps
	paper, err := predict.Run(c.Trace, cl, []int{w}, []predict.Model{predict.Simulator})
	if err != nil {
		return err
	}
	cv := conv.Curves[0]
	x, hs := cv.Throughput[0], (cv.Hi[0]-cv.Lo[0])/(2*cv.Throughput[0])
	res.MetricInterval("simulator.converged", x, cv.Lo[0], cv.Hi[0])
	res.Metric("simulator.converged.replications", float64(cv.Replications[0]))
	res.Metric("simulator.paper", paper.Curves[0].Throughput[0])
	if !cv.Converged[0] {
		res.Note("the simulator's estimate did not reach ±%g%% (%d replications)", 100*p.Precision, cv.Replications[0])
	}
	relErr := func(name string, xs []float64) {
		m, lo, hi := experiment.MeanCI(xs)
		hm := math.NaN() // one run: no interval
		if len(xs) > 1 {
			hm = (hi - lo) / (2 * m)
		}
		e := measured.NewRelError(x, m, hs, hm)
		res.MetricInterval("signed_"+name, 100*e.E, 100*e.Lo, 100*e.Hi)
		a, lo, hi := e.Abs()
		res.MetricInterval(name, 100*a, 100*lo, 100*hi)
	}
	for _, name := range []string{"in_step", "interleaved"} {
		if len(modes[name]) > 0 {
			relErr("error."+name, modes[name])
		}
	}
	for _, d := range ds {
		relErr("error.mixture."+d.start.ID, d.all())
	}
	res.Note("icpe20 simulator at W = %d: %.0f examples/s [%.0f, %.0f] (converged, workers started apart, %d replications); %.0f by icpe20's procedure (workers started together, %d steps)",
		w, x, cv.Lo[0], cv.Hi[0], cv.Replications[0], paper.Curves[0].Throughput[0], p.PaperSteps)
	return p.intervene(env, res, ds, c, w, cl.Link)
}

// intervene runs the simulator under each start's intervention: worker i
// starts its first step i·stagger late (sim.Config.StartOffsets), in
// sim.DefaultReplications runs of sim.InitialSteps(W) steps per worker
// with seeds spec seed + r, each run's throughput after its MSER-5
// transient. Metrics per start: simulator.start.<id> (the mean with its
// Student-t interval) and simulator.overlap.<id> (the mean fraction of
// downlink time during which two or more workers download,
// sim.Result.DownlinkOverlap: the simulator's own signature of workers in
// step); simulator.start_range is the largest over the smallest mean less
// one. Starts with the same stagger share their runs.
func (p *tbmParams) intervene(env *experiment.Env, res *experiment.Result, ds []tbmData, c *measured.Config, w int, link sim.Link) error {
	pr, err := sim.Compile(c.Trace)
	if err != nil {
		return err
	}
	type runs struct {
		xs      []float64
		overlap float64
	}
	byStagger := map[float64]runs{} // starts with one stagger simulate alike
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, d := range ds {
		got, ok := byStagger[d.stagger]
		if !ok {
			off := make([]float64, w)
			for i := range off {
				off[i] = float64(i) * d.stagger / 1e3
			}
			got.xs = make([]float64, sim.DefaultReplications)
			for r := range got.xs {
				cfg := sim.Config{Workers: w, Steps: sim.InitialSteps(w), Seed: uint64(env.Spec.Seed) + uint64(r), Link: link,
					OverheadOn: sim.ReceiveThreads, StartOffsets: off, Warmup: sim.NoWarmup, Progress: env.EventCounter()}
				out, err := pr.Run(cfg)
				if err != nil {
					return fmt.Errorf("%s: %w", d.start.ID, err)
				}
				got.xs[r], got.overlap = out.Output.Throughput, got.overlap+out.DownlinkOverlap/float64(len(got.xs))
			}
			byStagger[d.stagger] = got
		}
		meanMetric(res, "simulator.start."+d.start.ID, got.xs)
		res.Metric("simulator.overlap."+d.start.ID, got.overlap)
		m := res.Metrics["simulator.start."+d.start.ID]
		lo, hi = min(lo, m), max(hi, m)
	}
	res.Metric("simulator.start_range", hi/lo-1)
	return nil
}

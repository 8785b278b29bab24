package mechanism

import (
	"context"
	"fmt"
	"math"
	"sync/atomic"

	"pslab/engine/experiment"
	"pslab/engine/sim"
	"pslab/engine/trace"
)

type linkShareParams struct {
	// Starts and Work give one transfer per worker on one PS link: its
	// start time and its work, the time it takes at the full bandwidth
	// (both in the same time unit).
	Starts []float64
	Work   []float64
	// ExampleWorkers transfers of ExampleWork each start together; they
	// are also run through the simulator (sim.Run, one downlink per step,
	// 1 byte per time unit) for the catalogue's example.
	ExampleWorkers int     `toml:"example_workers"`
	ExampleWork    float64 `toml:"example_work"`
}

// linkShare shows icpe20's bandwidth sharing (§3.1, [000] Fig. 9, [001]
// Fig. 10): transfers of several workers on one PS link start and end at
// different times, the number n of active connections changes, and each
// active worker gets sim.Share's fraction 1/n. It integrates the transfers
// event by event and draws n and every worker's share over time; metrics
// finish.w<k> (time unit of the params). The example of CATALOGUE
// icpe20-fig9 (ExampleWorkers transfers of ExampleWork start together) is
// computed the same way (example.fluid) and by the simulator on a trace of
// one downlink per step (example.sim, the mean step time).
func linkShare(_ context.Context, env *experiment.Env) (*experiment.Result, error) {
	p := linkShareParams{}
	if err := env.Params(&p); err != nil {
		return nil, err
	}
	if len(p.Starts) == 0 || len(p.Starts) != len(p.Work) {
		return nil, env.Errorf("starts", "starts (%d) and work (%d) must be non-empty and of equal length", len(p.Starts), len(p.Work))
	}
	for i := range p.Starts {
		if !(p.Starts[i] >= 0) || !(p.Work[i] > 0) || math.IsInf(p.Starts[i], 0) || math.IsInf(p.Work[i], 0) {
			return nil, env.Errorf("starts", "transfer %d: start %v must be ≥ 0 and work %v > 0, finite", i, p.Starts[i], p.Work[i])
		}
	}
	if p.ExampleWorkers < 1 || !(p.ExampleWork > 0) {
		return nil, env.Errorf("example_workers", "example_workers %d must be ≥ 1 and example_work %v > 0", p.ExampleWorkers, p.ExampleWork)
	}
	// shareFluid passes at most 2n events (a start or a finish each),
	// visiting every transfer and drawing two points per transfer and
	// two of n each time; the example runs once with all transfers
	// together, then through the simulator.
	n, ex := float64(len(p.Starts)), float64(p.ExampleWorkers)
	if err := env.CheckEvents(experiment.SimEvents(1, 1, p.ExampleWorkers), "example_workers"); err != nil {
		return nil, err
	}
	if err := env.CheckRows([]string{"params", "starts"}, 2*n*3*n+4*ex, 2*n*(2*n+2)+n+2,
		fmt.Sprintf("link-share: %d transfers and %d example workers", len(p.Starts), p.ExampleWorkers)); err != nil {
		return nil, err
	}
	res := experiment.NewResult()
	finish, iters := shareFluidCount(p.Starts, p.Work, func(t0, t1 float64, shares []float64) {
		n := 0
		for _, s := range shares {
			if s > 0 {
				n++
			}
		}
		res.Point("active connections n", "icpe20-share", "derived", t0, float64(n))
		res.Point("active connections n", "icpe20-share", "derived", t1, float64(n))
		for w, s := range shares {
			name := fmt.Sprintf("worker %d share of B", w+1)
			res.Point(name, "icpe20-share", "derived", t0, s)
			res.Point(name, "icpe20-share", "derived", t1, s)
		}
	})
	for w, f := range finish {
		res.Metric(fmt.Sprintf("finish.w%d", w+1), f)
	}
	starts := make([]float64, p.ExampleWorkers)
	work := make([]float64, p.ExampleWorkers)
	for i := range work {
		work[i] = p.ExampleWork
	}
	exFinish, exIters := shareFluidCount(starts, work, nil)
	env.CountModelWork(iters + exIters)
	res.Metric("example.fluid", slicesMax(exFinish))
	simTime, err := shareExampleSimOn(env.EventCounter(), p.ExampleWorkers, p.ExampleWork)
	if err != nil {
		return nil, err
	}
	res.Metric("example.sim", simTime)
	return res, nil
}

func slicesMax(v []float64) float64 {
	m := math.Inf(-1)
	for _, x := range v {
		m = max(m, x)
	}
	return m
}

// shareFluid integrates transfers on one link shared as sim.Share says
// (1 PS: 1/n each) and returns their finish times. seg, if non-nil, is
// called for every interval [t0, t1] between events with the share of every
// transfer (0 when inactive).
func shareFluid(starts, work []float64, seg func(t0, t1 float64, shares []float64)) []float64 {
	finish, _ := shareFluidCount(starts, work, seg)
	return finish
}

// shareFluidCount is shareFluid that also returns its work in model-work
// units: three passes over the transfers per event, at most 2n events (a
// start or a finish each).
func shareFluidCount(starts, work []float64, seg func(t0, t1 float64, shares []float64)) ([]float64, float64) {
	var iters float64
	n := len(starts)
	left := append([]float64(nil), work...)
	finish := make([]float64, n)
	done := make([]bool, n)
	shares := make([]float64, n)
	one := []float64{0}
	t := 0.0
	for remaining := n; remaining > 0; {
		active := 0
		for i := range n {
			if !done[i] && starts[i] <= t {
				active++
			}
		}
		iters += 3 * float64(n)
		next := math.Inf(1)
		for i := range n {
			shares[i] = 0
			switch {
			case done[i]:
			case starts[i] > t:
				next = min(next, starts[i])
			default:
				sim.Share([]bool{true}, []int{active}, one)
				shares[i] = one[0]
				next = min(next, t+left[i]/shares[i])
			}
		}
		if seg != nil {
			seg(t, next, shares)
		}
		for i := range n {
			if shares[i] > 0 {
				// A transfer whose end is the next event finishes there,
				// even when its remaining work is below the resolution
				// of t (start 1e20, work 1: t + 1 == t), which used to
				// loop forever.
				end := t + left[i]/shares[i]
				left[i] -= (next - t) * shares[i]
				if left[i] <= 1e-12*work[i] || end <= next {
					done[i], finish[i] = true, next
					remaining--
				}
			}
		}
		t = next
	}
	return finish, iters
}

// shareExampleSim runs the simulator with `workers` workers whose only op
// is one downlink of `work` bytes at 1 byte per time unit, no parsing
// overhead, one step each, and returns the mean step time.
func shareExampleSim(workers int, work float64) (float64, error) {
	return shareExampleSimOn(nil, workers, work)
}

// shareExampleSimOn is shareExampleSim counting the simulator's events on
// progress (sim.Config.Progress; nil: not counted).
func shareExampleSimOn(progress *atomic.Int64, workers int, work float64) (float64, error) {
	bytes := int64(math.Round(work))
	if bytes < 1 || float64(bytes) != work {
		return 0, fmt.Errorf("example_work %v: the simulator example needs a whole number of bytes", work)
	}
	tr := &trace.Trace{Meta: trace.Meta{Source: "icpe20 Fig. 9 example", Batch: 1, Bandwidth: 1, Servers: 1},
		Steps: []trace.Step{{Ops: []trace.Op{{Name: "params", Resource: trace.Resource{Kind: trace.Downlink}, Bytes: bytes}}}}}
	r, err := sim.Run(tr, sim.Config{Workers: workers, Steps: 1, Warmup: sim.NoWarmup,
		Overhead: &sim.Overhead{}, Link: sim.Link{Mode: sim.WholeStream}, Progress: progress})
	if err != nil {
		return 0, err
	}
	return r.StepTime.Mean, nil
}

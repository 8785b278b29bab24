package main

import (
	"fmt"
	"io"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/schollz/progressbar/v3"

	"pslab/engine/experiment"
	"pslab/engine/predict"
	"pslab/engine/sim"
	"pslab/engine/trace"
)

// defaultMaxEvents is the most simulator work `pslab predict` runs
// without -max-events: 2·10^8 single-PS event equivalents, about 10 CPU
// seconds on the reference machine. The estimate is 2 events (start, end)
// per op of a step, per simulated step, per worker, summed over the
// -workers counts and the -bandwidth values, each event weighted by the
// cluster's sharing cost (predict.Cluster.SharingCost).
const defaultMaxEvents = 2e8

// workEstimate is the simulator work predicting tr for the worker counts
// ws at nBW bandwidths: events, and work = events weighted by the sharing
// cost of each worker count. Both are 0 when the simulator is not run.
// For the converged estimate it is the least work: its first
// sim.DefaultReplications replications at their initial length.
type workEstimate struct {
	events, work float64
	cost         float64 // the largest sharing cost, at the largest W
}

func estimateWork(tr *trace.Trace, c predict.Cluster, ws []int, models []predict.Model, nBW int) workEstimate {
	var e workEstimate
	if !slices.Contains(models, predict.Simulator) || len(tr.Steps) == 0 {
		return e
	}
	reps := 1.0
	if !c.Paper {
		reps = sim.DefaultReplications
	}
	for _, w := range ws {
		steps := c.Steps
		switch {
		case steps > 0:
		case c.Paper:
			steps = sim.DefaultSteps
		default:
			steps = sim.EstimateSteps(c.Sync, w)
		}
		ev := reps * experiment.SimEvents(len(tr.Steps[0].Ops), steps, w) * float64(nBW)
		cost := c.SharingCost(w)
		e.events += ev
		e.work += ev * cost
		e.cost = max(e.cost, cost)
	}
	return e
}

// checkWork refuses a prediction whose estimated work exceeds -max-events.
func (f *predictFlags) checkWork(e workEstimate) error {
	limit := f.eventLimit()
	if e.work > limit {
		return fmt.Errorf("predict: about %.3g simulator events (ops × -steps × Σ -workers × bandwidths, × 10 replications without -paper), "+
			"each up to %.3g times a single-PS event's work (bandwidth sharing across the cluster): %.3g event equivalents exceed -max-events %.3g; "+
			"lower -workers or -steps, or raise -max-events to %.3g if you mean it", e.events, e.cost, e.work, limit, e.work)
	}
	return nil
}

// eventLimit is -max-events, or defaultMaxEvents when not positive.
func (f *predictFlags) eventLimit() float64 {
	if f.maxEvents <= 0 {
		return defaultMaxEvents
	}
	return f.maxEvents
}

// progressWork is the estimated work above which predict shows progress:
// about 2 s at the ~8·10^6 simulator events/s measured on the 2-core
// reference machine (nasnetalarge, 1.3·10^9 events in 163 s).
const progressWork = 1.6e7

// progress is predict's progress bar: simulated events done of the
// estimate, with rate and ETA, on stderr when it is a terminal and the
// work is expected to take over 2 s.
type progress struct {
	bar  *progressbar.ProgressBar
	done *atomic.Int64 // the simulator's event count (sim.Config.Progress)
	stop chan struct{}
	wg   sync.WaitGroup
}

// newProgress starts the bar for estimate e, or returns a progress that
// shows nothing (but still counts) under -q, when stderr is not a terminal
// or when the work is short. The converged estimate may run past the
// estimate (it is the least work): the total then grows with what is done.
func newProgress(stderr io.Writer, quiet bool, e workEstimate) *progress {
	p := &progress{done: new(atomic.Int64)}
	total := max(int64(e.events), 1)
	if e.work < progressWork {
		return p
	}
	if p.bar = newBar(stderr, quiet, total, "predict: simulating", "events"); p.bar == nil {
		return p
	}
	p.stop = make(chan struct{})
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		tick := time.NewTicker(250 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-p.stop:
				return
			case <-tick.C:
				n := p.done.Load()
				if n > total {
					total = n + n/4
					p.bar.ChangeMax64(total)
				}
				_ = p.bar.Set64(n)
			}
		}
	}()
	return p
}

// describe sets the bar's description.
func (p *progress) describe(s string) {
	if p.bar != nil {
		p.bar.Describe(s)
	}
}

// finish stops and clears the bar.
func (p *progress) finish() {
	if p.bar == nil {
		return
	}
	close(p.stop)
	p.wg.Wait()
	_ = p.bar.Finish()
}

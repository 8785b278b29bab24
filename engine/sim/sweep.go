package sim

import (
	"errors"
	"fmt"
	"runtime"
	"sync"

	"pslab/engine/trace"
)

// Sweep runs Run(tr, cfg) with cfg.Workers set to each element of workers
// and returns the results in the same order. The trace is compiled once and
// the runs execute in parallel goroutines, at most GOMAXPROCS at a time;
// each run is independent and seeded by cfg.Seed alone, so the results are
// identical to serial Run calls. cfg.Timeline and cfg.OnSpan must be nil
// (they are per run). The error joins the errors of all failed runs. To
// sweep one trace several times (seeds, bandwidths), Compile it once and
// use Program.Sweep.
func Sweep(tr *trace.Trace, cfg Config, workers []int) ([]Result, error) {
	if tr == nil {
		return nil, errors.New("sim: nil trace")
	}
	if cfg.Timeline != nil || cfg.OnSpan != nil {
		return nil, errors.New("sim: Sweep: Config.Timeline and Config.OnSpan must be nil; use Run for timelines")
	}
	if _, err := resolve(&tr.Meta, &cfg); err != nil { // configuration errors first
		return nil, err
	}
	pr, err := Compile(tr)
	if err != nil {
		return nil, err
	}
	return pr.Sweep(cfg, workers)
}

func sweep(g *program, p *params, cfg Config, workers []int) ([]Result, error) {
	results := make([]Result, len(workers))
	errs := make([]error, len(workers))
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for i, w := range workers {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			c := cfg
			c.Workers = w
			r, err := run(g, p, &c)
			if err != nil {
				err = fmt.Errorf("W = %d: %w", w, err)
			}
			results[i], errs[i] = r, err
		}()
	}
	wg.Wait()
	return results, errors.Join(errs...)
}

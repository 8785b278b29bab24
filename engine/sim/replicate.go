package sim

import (
	"errors"
	"fmt"
	"runtime"
	"sync"
)

// replicate runs replications from..to−1 of g in parallel (at most
// GOMAXPROCS at once), each an open run to its window end, and returns
// their outputs and runs in order and their events. Under the Random order
// each replication draws its own priorities.
func replicate(pr *Program, g *program, p *params, cfg Config, from, to int) ([]Output, []*sim, int64, error) {
	outs := make([]Output, to-from)
	runs := make([]*sim, to-from)
	errs := make([]error, to-from)
	parallel(to-from, func(i int) {
		q := *p
		q.seed = replicationSeed(cfg.Seed, from+i)
		c := cfg
		c.Seed = q.seed
		gr := g
		if q.order == Random {
			gr = pr.variant(&q)
		}
		var err error
		runs[i], outs[i], err = startOpen(gr, &q, &c)
		if err != nil {
			errs[i] = fmt.Errorf("replication %d: %w", from+i, err)
		}
	})
	var sum int64
	for _, s := range runs {
		if s != nil {
			sum += s.events
		}
	}
	return outs, runs, sum, errors.Join(errs...)
}

// extend continues every open run to steps per worker, in parallel, and
// returns their outputs in order and the events they added.
func extend(runs []*sim, steps int) ([]Output, int64, error) {
	outs := make([]Output, len(runs))
	before := make([]int64, len(runs))
	errs := make([]error, len(runs))
	parallel(len(runs), func(i int) {
		before[i] = runs[i].events
		var err error
		if outs[i], err = runs[i].extend(steps); err != nil {
			errs[i] = fmt.Errorf("replication %d: %w", i, err)
		}
	})
	var sum int64
	for i, s := range runs {
		sum += s.events - before[i]
	}
	return outs, sum, errors.Join(errs...)
}

// flush hands the uncounted events of runs to Config.Progress.
func flush(runs []*sim) {
	for _, s := range runs {
		if s != nil {
			s.flushProgress()
		}
	}
}

// parallel calls f(0), …, f(n−1), at most GOMAXPROCS at once.
func parallel(n int, f func(i int)) {
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			f(i)
		}()
	}
	wg.Wait()
}

package sim

import (
	"errors"
	"fmt"
	"runtime"
	"sync"
)

// replicas are the replications of one estimate at one run length: their
// outputs, their open runs (nil where the run was not kept or an
// EstimateCache gave the output) and the events each open run had
// simulated by its window end.
type replicas struct {
	outs []Output
	runs []*sim
	cum  []int64
}

// add appends r's replications.
func (rs *replicas) add(r replicas) {
	rs.outs, rs.runs, rs.cum = append(rs.outs, r.outs...), append(rs.runs, r.runs...), append(rs.cum, r.cum...)
}

// events is the sum of cum: what the replications cost from their start.
func (rs *replicas) events() int64 {
	var sum int64
	for _, v := range rs.cum {
		sum += v
	}
	return sum
}

// drop hands the runs' uncounted events to Config.Progress and lets them
// go: no doubling will continue them.
func (rs *replicas) drop() {
	for i := range rs.runs {
		rs.dropRun(i)
	}
}

// dropRun lets replication i's open run go, if it has one.
func (rs *replicas) dropRun(i int) {
	if s := rs.runs[i]; s != nil {
		s.flushProgress()
		rs.runs[i] = nil
	}
}

// openReplication starts replication r of the estimate with resolved
// parameters p (p.steps its run length) as an open run and runs it to its
// window end. Under the Random order it draws its own priorities.
func openReplication(pr *Program, g *program, p *params, cfg Config, r int) (*sim, Output, error) {
	q := *p
	q.seed = replicationSeed(cfg.Seed, r)
	cfg.Seed = q.seed
	if q.order == Random {
		g = pr.variant(&q)
	}
	s, o, err := startOpen(g, &q, &cfg)
	if err != nil {
		return nil, o, fmt.Errorf("replication %d: %w", r, err)
	}
	return s, o, nil
}

// replicate runs replications from..to−1 in parallel (at most GOMAXPROCS
// at once), each an open run to its window end, taking from
// cfg.Estimates those another estimate of the same trace and
// configuration simulated (see EstimateCache).
func replicate(pr *Program, g *program, p *params, cfg Config, from, to int) (replicas, error) {
	rs := replicas{outs: make([]Output, to-from), runs: make([]*sim, to-from), cum: make([]int64, to-from)}
	errs := make([]error, to-from)
	parallel(to-from, func(i int) {
		if rec, ok := cfg.Estimates.replication(pr, p, from+i); ok {
			rs.outs[i], rs.cum[i] = rec.out, rec.events
			return
		}
		s, o, err := openReplication(pr, g, p, cfg, from+i)
		if err != nil {
			errs[i] = err
			return
		}
		rs.outs[i], rs.runs[i], rs.cum[i] = o, s, s.events
		cfg.Estimates.storeReplication(pr, p, from+i, replicationRecord{out: o, events: s.events})
	})
	return rs, errors.Join(errs...)
}

// extend takes every replication of rs to p.steps per worker, in
// parallel: from cfg.Estimates where it has it, by continuing its open
// run, or by a new one where rs has no run. It returns the events the
// replications cost beyond their previous length, the same whichever way.
func extend(pr *Program, g *program, p *params, cfg Config, rs *replicas) (int64, error) {
	add := make([]int64, len(rs.outs))
	errs := make([]error, len(rs.outs))
	parallel(len(rs.outs), func(i int) {
		if rec, ok := cfg.Estimates.replication(pr, p, i); ok {
			rs.dropRun(i) // left behind: a later doubling opens it anew
			rs.outs[i], add[i], rs.cum[i] = rec.out, rec.events-rs.cum[i], rec.events
			return
		}
		var o Output
		var err error
		if s := rs.runs[i]; s != nil {
			o, err = s.extend(p.steps)
			if err != nil {
				err = fmt.Errorf("replication %d: %w", i, err)
			}
		} else {
			rs.runs[i], o, err = openReplication(pr, g, p, cfg, i)
		}
		if err != nil {
			errs[i] = err
			return
		}
		ev := rs.runs[i].events
		rs.outs[i], add[i], rs.cum[i] = o, ev-rs.cum[i], ev
		cfg.Estimates.storeReplication(pr, p, i, replicationRecord{out: o, events: ev})
	})
	var sum int64
	for _, v := range add {
		sum += v
	}
	return sum, errors.Join(errs...)
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

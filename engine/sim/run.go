package sim

import (
	"fmt"
	"math"
)

// progressEvery is how many events a run counts before adding them to
// Config.Progress, so the event loop pays one atomic add per batch.
const progressEvery = 1 << 12

// run simulates one run of g to the end: every worker runs its
// p.steps steps and retires (Run and the paper's procedure).
func run(g *program, p *params, cfg *Config) (Result, error) {
	s, err := setup(g, p, cfg)
	if err != nil {
		return Result{}, err
	}
	s.loop()
	s.flushProgress()
	if s.finished != s.W {
		return Result{}, fmt.Errorf("sim: internal error: simulation stalled with %d of %d workers finished", s.finished, s.W)
	}
	res, err := s.st.result(s.events, s.now)
	if s.tl != nil {
		if terr := s.tl.close(); terr != nil && err == nil {
			err = fmt.Errorf("sim: Config.Timeline: %w", terr)
		}
	}
	return res, err
}

// setup checks cfg.Workers and prepares a run of g up to its event loop:
// state allocated, every worker's first step started.
func setup(g *program, p *params, cfg *Config) (*sim, error) {
	if cfg.Workers < 1 {
		return nil, fmt.Errorf("sim: Config.Workers: %d; want ≥ 1", cfg.Workers)
	}
	if int64(cfg.Workers)*int64(max(g.nOps, g.slots)) >= math.MaxInt32 {
		return nil, fmt.Errorf("sim: Config.Workers: %d workers × %d ops is too large", cfg.Workers, g.nOps)
	}
	if cfg.Colocated && g.servers != cfg.Workers {
		return nil, fmt.Errorf("sim: Config.Colocated: %d workers but the trace has %d PSs; colocation puts one PS shard on each worker's node", cfg.Workers, g.servers)
	}
	s := newSim(g, p, cfg.Workers)
	var err error
	if s.bar, err = newBarrier(cfg.Sync, cfg.Workers); err != nil {
		return nil, err
	}
	s.onSpan, s.progress = cfg.OnSpan, cfg.Progress
	if cfg.Timeline != nil {
		s.tl = newTimeline(cfg.Timeline, g, cfg.Workers)
	}
	s.emit = s.onSpan != nil || s.tl != nil
	if s.emit && g.nDelay > 0 {
		s.delayStart = make([]float64, cfg.Workers*g.nOps)
	}
	off, err := s.startOffsets(cfg)
	if err != nil {
		return nil, err
	}
	for w := range s.W {
		if off == nil || off[w] == 0 {
			s.startStep(w)
			continue
		}
		s.compute.push(entry{key: off[w], seq: s.seq, slot: s.startEvent(w)})
		s.seq++
	}
	return s, nil
}

// An open run is a replication of an estimate (Estimate). Its workers
// never retire, and its event loop stops at the window end, the first
// worker's stepsPerWk-th completion, once every event at that instant is
// handled. Up to there it is exactly the run one started with a larger
// stepsPerWk makes (the worker that ends the window starts its next step
// at once either way), so a doubling continues it (extend) instead of
// simulating its first half again; and its Output is the one run gives,
// which counts no completion after the window end, without the tail of
// workers finishing one by one.

// startOpen sets up an open run of g and runs it to its window end.
func startOpen(g *program, p *params, cfg *Config) (*sim, Output, error) {
	s, err := setup(g, p, cfg)
	if err != nil {
		return nil, Output{}, err
	}
	s.open = true
	o, err := s.runOpen()
	return s, o, err
}

// extend continues an open run to steps per worker (more than it ran).
func (s *sim) extend(steps int) (Output, error) {
	s.stepsPerWk, s.st.stepsPerWorker, s.st.ended = steps, steps, false
	return s.runOpen()
}

func (s *sim) runOpen() (Output, error) {
	s.loop()
	if !s.st.ended {
		return Output{}, fmt.Errorf("sim: internal error: open run stalled before its window end (%d workers, %d steps)", s.W, s.stepsPerWk)
	}
	r, err := s.st.result(s.events, s.now)
	return r.Output, err
}

// flushProgress adds to Config.Progress the events the loop has not
// added yet; call it once, when the run is done with (run's end, or an
// open run's last use).
func (s *sim) flushProgress() {
	if s.progress != nil {
		s.progress.Add(s.events % progressEvery)
	}
}

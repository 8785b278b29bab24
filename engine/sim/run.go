package sim

import (
	"fmt"
	"math"
)

// progressEvery is how many events a run counts before adding them to
// Config.Progress, so the event loop pays one atomic add per batch.
const progressEvery = 1 << 12

func run(g *program, p *params, cfg *Config) (Result, error) {
	s, err := setup(g, p, cfg)
	if err != nil {
		return Result{}, err
	}
	s.loop()
	if s.progress != nil {
		s.progress.Add(s.events % progressEvery)
	}
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

package icpe20

import (
	"fmt"

	"pslab/engine/experiment"
	"pslab/engine/sim"
	"pslab/engine/trace"
)

// estimate fills cv with converged estimates (sim.Estimate) for every W.
// The events bound is the experiment's limit, shared by the points.
func (p *tputParams) estimate(env *experiment.Env, c *tputCase, tr *trace.Trace, cfg sim.Config, ws []int, cv *tputCurve) error {
	steps := cfg.Steps
	if steps <= 0 {
		steps = sim.DefaultEstimateSteps
	}
	least := float64(sim.DefaultReplications) * experiment.SimEvents(len(tr.Steps[0].Ops), steps, ws...)
	if err := env.CheckEvents(least, fmt.Sprintf("case %q", c.ID)); err != nil {
		return err
	}
	pr, err := sim.Compile(tr)
	if err != nil {
		return fmt.Errorf("case %q: %w", c.ID, err)
	}
	cfg.Warmup = 0
	prec := sim.Precision{Target: p.Precision, MaxEvents: int64(env.EventLimit())} // shared by the W in proportion
	if cv.est, err = pr.EstimateSweep(cfg, prec, ws); err != nil {
		return fmt.Errorf("case %q: %w", c.ID, err)
	}
	for _, e := range cv.est {
		cv.sim = append(cv.sim, e.Throughput)
	}
	return nil
}

package icpe20

import (
	"fmt"

	"pslab/engine/experiment"
	"pslab/engine/sim"
	"pslab/engine/trace"
)

// estimate fills cv with converged estimates (sim.Estimate) for every W.
// checkWork admitted the least events of every case (DefaultReplications
// of Steps per worker); the events bound of this case is its share of the
// experiment's limit in proportion to that least, so that all cases
// together stay within the limit. The W of the case share it in
// proportion (sim.EstimateSweep).
func (p *tputParams) estimate(env *experiment.Env, c *tputCase, tr *trace.Trace, cfg sim.Config, ws []int, cv *tputCurve) error {
	var least float64
	for _, w := range ws {
		least += float64(sim.DefaultReplications) * experiment.SimEvents(len(tr.Steps[0].Ops), convergedSteps(cfg.Steps, w), w)
	}
	share := env.EventLimit()
	if admitted := env.Charged().Events; admitted > 0 {
		share *= least / admitted
	}
	pr, err := sim.Compile(tr)
	if err != nil {
		return fmt.Errorf("case %q: %w", c.ID, err)
	}
	cfg.Warmup = 0
	cfg.Estimates = env.Estimates() // shared with the run's other experiments
	prec := sim.Precision{Target: p.Precision, MaxEvents: max(int64(share), 1)}
	if cv.est, err = pr.EstimateSweep(cfg, prec, ws); err != nil {
		return fmt.Errorf("case %q: %w", c.ID, err)
	}
	for _, e := range cv.est {
		cv.sim = append(cv.sim, e.Throughput)
	}
	return nil
}

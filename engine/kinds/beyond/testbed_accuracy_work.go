package beyond

import (
	"fmt"
	"strings"

	"pslab/engine/experiment"
	"pslab/engine/kinds/zhang"
	"pslab/engine/measured"
	"pslab/engine/predict"
	"pslab/engine/sim"
)

// tbaMVAWork is the model work of one MVA curve up to w workers:
// experiment.DefaultMaxModelWork's ten units per population level of a
// fixed-point variant, the most a level of any variant costs.
func tbaMVAWork(w int) float64 { return 10 * float64(w) }

// estimate is testbed-accuracy's work on the configurations cs, before
// any is predicted: simulator events (ASP: each simulator model of the
// spec at every judged W, leastEvents), model work (MVA curves, Cynthia's
// evaluations, the coarse models' pass over the trace, zhang's
// predictions, whose per-layer profiles it reads) and the result's rows,
// metrics and notes.
func (p *tbaParams) estimate(env *experiment.Env, cs []*measured.Config) (events, units, rows float64, err error) {
	cfg, err := p.Constants.Config(env)
	if err != nil && env.UsesModel(tbaZhang) {
		return 0, 0, 0, err
	}
	sims := 0.0
	for _, m := range []string{string(predict.Simulator), tbaSimOnProcessor} {
		if env.UsesModel(m) {
			sims++
		}
	}
	for _, c := range cs {
		rows += 40 + 2*float64(len(c.Meas)) // its metrics, notes and bars
		judged := tbaJudged(c)
		if len(judged) == 0 {
			continue
		}
		ws := tbaWorkersOf(judged)
		maxW := ws[len(ws)-1]
		if c.Sync == "asp" {
			events += sims * p.leastEvents(c, ws)
			units += 2*tbaTraceOps(c) + float64(len(ws)) + 4*tbaMVAWork(maxW)
			continue
		}
		units += float64(len(ws)) // Cynthia's BSP model
		if env.UsesModel(tbaZhang) {
			input, ok := p.Profiles[c.Model]
			if !ok {
				return 0, 0, 0, env.Errorf("profiles", "no per-layer profile input for DNN %q (configuration %s)", c.Model, c.Name)
			}
			pr, err := measured.Profile(env, input)
			if err != nil {
				return 0, 0, 0, err
			}
			units += float64(len(ws)) * zhang.PredictWork(cfg.Iterations, len(pr.Layers))
		}
	}
	return events, units, rows + 4*float64(len(tbaModels)) + 4, nil
}

// leastEvents are the events one simulator sweep of c at ws costs at
// least: the paper procedure's runs of Steps steps per worker, or a
// converged estimate's DefaultReplications of its initial length at each W.
func (p *tbaParams) leastEvents(c *measured.Config, ws []int) float64 {
	ops := len(c.Trace.Steps[0].Ops)
	if p.Estimate == "paper" {
		return experiment.SimEvents(ops, max(p.Steps, 1), ws...)
	}
	least := 0.0
	for _, w := range ws {
		steps := p.Steps
		if steps == 0 {
			steps = sim.InitialSteps(w)
		}
		least += float64(sim.DefaultReplications) * experiment.SimEvents(ops, steps, w)
	}
	return least
}

// eventShare is the events bound of one converged simulator sweep of c at
// ws: its share of the experiment's event limit in proportion to the
// least events checkWork admitted for it, so that all of them together
// stay within the limit (as icpe20-throughput's converged cases).
func (p *tbaParams) eventShare(env *experiment.Env, c *measured.Config, ws []int) int64 {
	share := env.EventLimit()
	if admitted := env.Charged().Events; admitted > 0 {
		share *= p.leastEvents(c, ws) / admitted
	}
	return max(int64(share), 1)
}

// tbaTraceOps is the number of ops of c's recorded trace: the coarse
// models' pass over it (predict.FromTrace) costs one unit each.
func tbaTraceOps(c *measured.Config) float64 {
	n := 0
	for _, st := range c.Trace.Steps {
		n += len(st.Ops)
	}
	return float64(n)
}

// countASP counts the model work of predict.Run's coarse models on c at
// the worker counts ws for models: the pass over the trace, Cynthia's
// evaluations and the MVA curves.
func countASP(env *experiment.Env, c *measured.Config, ws []int, models []predict.Model) {
	units := tbaTraceOps(c)
	for _, m := range models {
		switch {
		case strings.HasPrefix(string(m), "mva-"):
			units += tbaMVAWork(ws[len(ws)-1])
		case m == predict.Cynthia:
			units += float64(len(ws))
		}
	}
	env.CountModelWork(units)
}

// checkWork bounds testbed-accuracy's work on cs before any is predicted.
func (p *tbaParams) checkWork(env *experiment.Env, cs []*measured.Config) error {
	events, units, rows, err := p.estimate(env, cs)
	if err != nil {
		return err
	}
	what := fmt.Sprintf("testbed-accuracy: %d configurations, %s estimates, %d simulated steps per worker", len(cs), p.Estimate, p.Steps)
	if err := env.CheckEvents(events, what); err != nil {
		return err
	}
	return env.CheckRows([]string{"params", "dataset"}, units, rows, what)
}

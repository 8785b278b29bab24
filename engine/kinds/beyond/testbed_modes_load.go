package beyond

import (
	"math"

	"pslab/engine/experiment"
	"pslab/engine/measured"
	"pslab/engine/sim"
)

// check refuses parameters testbed-modes cannot use, naming the key.
func (p *tbmParams) check(env *experiment.Env) error {
	if len(p.Starts) < 2 {
		return env.Errorf("start", "%d [[params.start]] tables; want at least two ways of starting the workers to compare", len(p.Starts))
	}
	seen := map[string]bool{}
	for i, s := range p.Starts {
		if s.ID == "" || s.Input == "" || s.Label == "" {
			return env.Errorf("start", "start %d: id, input and label are required", i+1)
		}
		if seen[s.ID] {
			return env.Errorf("start", "start %d: id %q repeats", i+1, s.ID)
		}
		seen[s.ID] = true
	}
	if !seen[p.Simulator] {
		return env.Errorf("simulator", "simulator %q names no start", p.Simulator)
	}
	if !(p.SynchronySplit > 0 && p.SynchronySplit < 1) {
		return env.Errorf("synchrony_split", "synchrony_split %v: want a value in (0, 1)", p.SynchronySplit)
	}
	if !(p.Precision >= 0 && p.Precision <= sim.MaxTarget) {
		return env.Errorf("precision", "precision %v: want a relative half-width in (0, %g] (0: %g)", p.Precision, sim.MaxTarget, sim.DefaultTarget)
	}
	if p.Precision == 0 {
		p.Precision = sim.DefaultTarget
	}
	if p.Workers < 1 {
		return env.Errorf("workers", "workers %d: want the W compared, ≥ 1", p.Workers)
	}
	if p.PaperSteps < 2 {
		return env.Errorf("paper_steps", "paper_steps %d: want ≥ 2 simulated steps per worker", p.PaperSteps)
	}
	return nil
}

// load checks the parameters and reads every start's configuration: each
// must have unstretched runs at params.workers, all of one job (what the
// simulator and the comparison read must not differ between starts), and
// a synchrony for every such run.
func (p *tbmParams) load(env *experiment.Env) ([]tbmData, error) {
	if err := p.check(env); err != nil {
		return nil, err
	}
	ds := make([]tbmData, len(p.Starts))
	for i, s := range p.Starts {
		c, err := measured.Load(env, s.Input)
		if err != nil {
			return nil, err
		}
		fail := func(format string, args ...any) error {
			return env.Spec.Errorf([]string{"inputs", s.Input}, "input %q: "+format, append([]any{s.Input}, args...)...)
		}
		var runs []measured.Run
		for _, r := range c.Runs {
			if r.Workers == p.Workers {
				runs = append(runs, r)
			}
		}
		if len(runs) == 0 {
			return nil, fail("no unstretched runs at W = %d (%s, accounting version 3 on)", p.Workers, measured.RunsFile)
		}
		d := tbmData{start: s, c: c}
		if d.stagger, err = staggerOf(c); err != nil {
			return nil, fail("%v", err)
		}
		w := ds[0].c
		if i == 0 {
			w = c
		}
		if c.Model != w.Model || c.Batch != w.Batch || c.Servers != w.Servers || c.Sync != w.Sync || c.Transport != w.Transport ||
			c.Order != w.Order || c.Bandwidth != w.Bandwidth || c.BytesScale != w.BytesScale || c.DeviceSpeed != w.DeviceSpeed {
			return nil, fail("%s batch %d, %d PS, %s %s/%s at %g B/s (scales %g, %g) is not the job of start %q (%s batch %d, %d PS, %s %s/%s at %g B/s, scales %g, %g)",
				c.Model, c.Batch, c.Servers, c.Sync, c.Transport, c.Order, c.Bandwidth, c.BytesScale, c.DeviceSpeed,
				p.Starts[0].ID, w.Model, w.Batch, w.Servers, w.Sync, w.Transport, w.Order, w.Bandwidth, w.BytesScale, w.DeviceSpeed)
		}
		for k, r := range runs {
			if math.IsNaN(r.Synchrony) {
				return nil, fail("%s: run %d (repetition %d) has no synchrony to class it by", measured.RunsFile, k+1, r.Repetition)
			}
			if r.Synchrony > p.SynchronySplit {
				d.inStep, d.inStepSync = append(d.inStep, r.Throughput), append(d.inStepSync, r.Synchrony)
			} else {
				d.apart, d.apartSync = append(d.apart, r.Throughput), append(d.apartSync, r.Synchrony)
			}
			d.spread += 1e3 * r.StartSpread / float64(len(runs))
		}
		ds[i] = d
	}
	return ds, nil
}

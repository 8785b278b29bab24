package icpe20

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"

	"pslab/engine/dataset"
	"pslab/engine/experiment"
	"pslab/engine/predict"
	"pslab/engine/sim"
	"pslab/engine/trace"
	"pslab/engine/zoo"
)

// tputWorkers returns the swept worker counts: integers ≥ 1, ascending.
func tputWorkers(env *experiment.Env) ([]int, error) {
	sw := env.Spec.Sweep
	if sw.Var != "workers" {
		return nil, env.Spec.Errorf([]string{"sweep"}, "sweep var %q: this kind sweeps \"workers\"", sw.Var)
	}
	var ws []int
	for _, x := range sw.Points() {
		w := int(x)
		if float64(w) != x || w < 1 || (len(ws) > 0 && w <= ws[len(ws)-1]) {
			return nil, env.Spec.Errorf([]string{"sweep"}, "workers %v: want ascending integers ≥ 1", sw.Points())
		}
		ws = append(ws, w)
	}
	if len(ws) == 0 {
		return nil, env.Spec.Errorf([]string{"sweep"}, "no worker counts")
	}
	return ws, nil
}

// tputProfile loads (once per run) the layer profile of input name.
func tputProfile(env *experiment.Env, name string, cache map[string]*zoo.Profile) (*zoo.Profile, error) {
	if pr, ok := cache[name]; ok {
		return pr, nil
	}
	path, err := env.InputPath(name)
	if err != nil {
		return nil, err
	}
	var pr *zoo.Profile
	if strings.HasSuffix(path, ".arrow") {
		t, err := env.Input(name, zoo.ProfileSchema)
		if err != nil {
			return nil, err
		}
		if pr, err = zoo.ProfileFromTable(t); err != nil {
			return nil, env.Spec.Errorf([]string{"inputs", name}, "input %q: %v", name, err)
		}
	} else {
		f, err := os.Open(path)
		if err != nil {
			return nil, env.Spec.Errorf([]string{"inputs", name}, "input %q: %v", name, err)
		}
		defer f.Close()
		if pr, err = zoo.Parse(f, filepath.Base(path)); err != nil {
			return nil, env.Spec.Errorf([]string{"inputs", name}, "input %q: %v", name, err)
		}
	}
	cache[name] = pr
	return pr, nil
}

// trace returns the case's 1-worker trace: the recorded one, or one
// synthesized from the layer profile with the case's settings.
func (p *tputParams) trace(env *experiment.Env, c *tputCase, cache map[string]*zoo.Profile) (*trace.Trace, error) {
	return p.traceSteps(env, c, cache, p.ProfileSteps)
}

// traceSteps is trace with profileSteps synthesized steps (0: the
// default).
func (p *tputParams) traceSteps(env *experiment.Env, c *tputCase, cache map[string]*zoo.Profile, profileSteps int) (*trace.Trace, error) {
	if c.Trace != "" {
		t, err := env.Input(c.Trace, dataset.TraceSchema)
		if err != nil {
			return nil, err
		}
		tr, err := dataset.ToTrace(t)
		if err != nil {
			return nil, env.Spec.Errorf([]string{"inputs", c.Trace}, "input %q: %v", c.Trace, err)
		}
		if tr.Meta.Batch != c.Batch || max(tr.Meta.Servers, 1) != c.Servers {
			return nil, env.Errorf("case", "case %q: batch %d and %d PS, but trace %q was recorded at batch %d with %d PS", c.ID, c.Batch, c.Servers, c.Trace, tr.Meta.Batch, tr.Meta.Servers)
		}
		return tr, nil
	}
	pr, err := tputProfile(env, c.Model, cache)
	if err != nil {
		return nil, err
	}
	mode, _ := sim.ParseMode(c.Transport)
	cl := predict.Cluster{ProfileSteps: profileSteps, Servers: c.Servers, Batch: c.Batch, DeviceSpeed: c.DeviceSpeed,
		Bandwidth: c.BandwidthGbps * 1e9 / 8, Alpha: p.AlphaNsPerByte * 1e-9, Beta: p.BetaUs * 1e-6, Jitter: p.Jitter,
		UpdateTime: p.UpdateNsPerByte * 1e-9, Seed: env.Spec.Seed,
		Link: sim.Link{Mode: mode, Window: int64(math.Round(c.WindowMB * 1e6))}}
	tr, err := cl.Synthesize(pr)
	if err != nil {
		return nil, fmt.Errorf("case %q: %w", c.ID, err)
	}
	return tr, nil
}

package zhang

import (
	"context"
	"fmt"

	"pslab/engine/dataset"
	"pslab/engine/experiment"
)

// zhangBase is the configuration the one-factor sweeps start from.
type zhangBase struct {
	Compute   float64 // compute capability, × Params.GPUSpeed
	Bandwidth float64 // Gbit/s
	Workers   int
}

type zhangSweepParams struct {
	Common
	Servers int
	Base    zhangBase
	// The swept values: compute capability (× GPUSpeed), bandwidth
	// (Gbit/s) and number of workers.
	Compute   []float64
	Bandwidth []float64
	Workers   []float64
}

// zhangSweeps predicts one DNN's iteration time while one factor at a time
// (compute capability, bandwidth, number of workers) moves away from a
// base configuration (zhang Fig. 4). Each factor is a series whose x is the
// swept value relative to its base value. It records iter_s.<factor>.<value>
// and whether the iteration time is non-increasing in compute and
// bandwidth and non-decreasing in workers (1 or 0).
func zhangSweeps(_ context.Context, env *experiment.Env) (*experiment.Result, error) {
	p := zhangSweepParams{Common: Common{Constants: UnsetConstants()}, Servers: 1}
	if err := env.Params(&p); err != nil {
		return nil, err
	}
	models, base, err := p.Load(env)
	if err != nil {
		return nil, err
	}
	if len(models) != 1 {
		return nil, env.Errorf("dnn", "the sweeps take exactly one [[params.dnn]], got %d", len(models))
	}
	if p.Base.Workers < 1 || !(p.Base.Compute > 0) || !(p.Base.Bandwidth > 0) {
		return nil, env.Errorf("base", "base needs compute > 0, bandwidth > 0 Gbit/s and workers ≥ 1, got %+v", p.Base)
	}
	for _, l := range []struct {
		key string
		vs  []float64
	}{{"compute", p.Compute}, {"bandwidth", p.Bandwidth}, {"workers", p.Workers}} {
		if err := env.AscendingList(l.key, l.vs); err != nil {
			return nil, err
		}
	}
	m := models[0]
	preds := float64(len(p.Compute)+len(p.Bandwidth)+len(p.Workers)) + 1
	if err := checkPredictions(env, []string{"params", "compute"}, preds*PredictWork(base.Iterations, len(m.Layers)), 2*preds+4,
		fmt.Sprintf("%.0f configurations, %d iterations of %d layers", preds, base.Iterations, len(m.Layers))); err != nil {
		return nil, err
	}
	base.Layers, base.Servers = m.Layers, p.Servers
	at := func(compute, bw float64, workers int) (float64, error) {
		cfg := base
		cfg.ComputeScale, cfg.Bandwidth, cfg.Workers = p.GPUSpeed*compute, gbps(bw), workers
		pr, err := Predict(env, cfg)
		if err != nil {
			return 0, fmt.Errorf("%s, compute ×%g, %g Gbit/s, %d workers: %w", m.Name, compute, bw, workers, err)
		}
		return pr.IterationTime, nil
	}
	res := experiment.NewResult()
	sweeps := []struct {
		key, label string
		values     []float64
		base       float64
		config     func(v float64) (float64, float64, int)
		increasing bool // iteration time expected to grow with the value
	}{
		{"compute", fmt.Sprintf("compute capability (base ×%g)", p.Base.Compute), p.Compute, p.Base.Compute,
			func(v float64) (float64, float64, int) { return v, p.Base.Bandwidth, p.Base.Workers }, false},
		{"bandwidth", fmt.Sprintf("bandwidth (base %g Gbit/s)", p.Base.Bandwidth), p.Bandwidth, p.Base.Bandwidth,
			func(v float64) (float64, float64, int) { return p.Base.Compute, v, p.Base.Workers }, false},
		{"workers", fmt.Sprintf("workers (base %d)", p.Base.Workers), p.Workers, float64(p.Base.Workers),
			func(v float64) (float64, float64, int) { return p.Base.Compute, p.Base.Bandwidth, int(v) }, true},
	}
	for _, s := range sweeps {
		monotone, prev := 1.0, 0.0
		for i, v := range s.values {
			if s.key == "workers" && v != float64(int(v)) {
				return nil, env.Errorf("workers", "workers %v is not a whole number", v)
			}
			t, err := at(s.config(v))
			if err != nil {
				return nil, err
			}
			if i > 0 && (s.increasing && t < prev || !s.increasing && t > prev) {
				monotone = 0
			}
			prev = t
			res.Point(m.Name+": "+s.label, "zhang", dataset.Derived, v/s.base, t)
			res.Metric(fmt.Sprintf("iter_s.%s.%g", s.key, v), t)
		}
		name := "nonincreasing." + s.key
		if s.increasing {
			name = "nondecreasing." + s.key
		}
		res.Metric(name, monotone)
	}
	bt, err := at(p.Base.Compute, p.Base.Bandwidth, p.Base.Workers)
	if err != nil {
		return nil, err
	}
	res.Metric("iter_s.base", bt)
	res.Note("%s base: compute ×%g of the profiled GPU ×%g, %g Gbit/s, %d workers, %d PS: %.4f s per iteration",
		m.Name, p.Base.Compute, p.GPUSpeed, p.Base.Bandwidth, p.Base.Workers, p.Servers, bt)
	return res, nil
}

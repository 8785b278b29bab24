package zhang

import (
	"context"
	"fmt"

	"pslab/engine/dataset"
	"pslab/engine/experiment"
	"pslab/engine/syncps"
)

type zhangScalabilityParams struct {
	Common
	Workers int
	Servers int
	// Compute lists the compute capabilities (× GPUSpeed), one pair of
	// series each, in ascending order.
	Compute []float64
}

// zhangScalability predicts the speedup N·t_1/t_N and the
// communication/computation ratio (syncps.Speedup, Prediction.
// CommCompRatio) of one DNN on N workers vs link bandwidth (sweep, Gbit/s)
// for several compute capabilities (zhang Fig. 5). It records
// max_speedup, ratio_decreasing_in_bandwidth (1 if the ratio falls strictly
// with bandwidth for every compute capability, else 0) and
// ratio_increasing_in_compute (1 if it rises strictly with compute at
// every bandwidth).
func zhangScalability(_ context.Context, env *experiment.Env) (*experiment.Result, error) {
	p := zhangScalabilityParams{Common: Common{Constants: UnsetConstants()}, Workers: 2, Servers: 1}
	if err := env.Params(&p); err != nil {
		return nil, err
	}
	models, base, err := p.Load(env)
	if err != nil {
		return nil, err
	}
	if len(models) != 1 {
		return nil, env.Errorf("dnn", "the scalability evaluation takes exactly one [[params.dnn]], got %d", len(models))
	}
	if err := env.AscendingList("compute", p.Compute); err != nil {
		return nil, err
	}
	xs := env.Spec.Sweep.Points()
	if err := env.AscendingList("sweep", xs); err != nil {
		return nil, err
	}
	m := models[0]
	// Predict and Speedup (two more runs of the pipelines) per point.
	preds := float64(len(p.Compute)) * float64(len(xs))
	if err := checkPredictions(env, []string{"sweep"}, 3*preds*PredictWork(base.Iterations, len(m.Layers)), 4*preds+4,
		fmt.Sprintf("%d compute capabilities × %d bandwidths, %d iterations of %d layers", len(p.Compute), len(xs), base.Iterations, len(m.Layers))); err != nil {
		return nil, err
	}
	base.Layers, base.Workers, base.Servers = m.Layers, p.Workers, p.Servers
	res := experiment.NewResult()
	maxSpeedup, decreasing, increasing := 0.0, 1.0, 1.0
	prevByBW := make([]float64, len(xs)) // ratio at each bandwidth for the previous compute
	for ci, c := range p.Compute {
		prev := 0.0
		for bi, bw := range xs {
			cfg := base
			cfg.ComputeScale, cfg.Bandwidth = p.GPUSpeed*c, gbps(bw)
			pr, err := Predict(env, cfg)
			if err != nil {
				return nil, fmt.Errorf("%s at compute ×%g, %g Gbit/s: %w", m.Name, c, bw, err)
			}
			env.CountModelWork(2 * PredictWork(cfg.Iterations, len(cfg.Layers)))
			s, err := syncps.Speedup(cfg)
			if err != nil {
				return nil, fmt.Errorf("%s at compute ×%g, %g Gbit/s: %w", m.Name, c, bw, err)
			}
			r := pr.CommCompRatio
			if bi > 0 && r >= prev {
				decreasing = 0
			}
			if ci > 0 && r <= prevByBW[bi] {
				increasing = 0
			}
			prev, prevByBW[bi] = r, r
			maxSpeedup = max(maxSpeedup, s)
			res.Point(fmt.Sprintf("speedup, compute ×%g", c), "zhang", dataset.Derived, bw, s)
			res.Point(fmt.Sprintf("comm/comp ratio, compute ×%g", c), "zhang", dataset.Derived, bw, r)
			res.Metric(fmt.Sprintf("speedup.c%g.bw%g", c, bw), s)
			res.Metric(fmt.Sprintf("comm_comp.c%g.bw%g", c, bw), r)
		}
	}
	res.Metric("max_speedup", maxSpeedup)
	res.Metric("ratio_decreasing_in_bandwidth", decreasing)
	res.Metric("ratio_increasing_in_compute", increasing)
	res.Note("%s on %d workers and %d PS, batch %d per worker; compute × profiled GPU ×%g", m.Name, p.Workers, p.Servers, m.Batch, p.GPUSpeed)
	return res, nil
}

package zhang

import (
	"context"
	"fmt"
	"math"

	"pslab/engine/dataset"
	"pslab/engine/experiment"
)

type zhangCompressionParams struct {
	Common
	Workers   int
	Servers   int
	Bandwidth float64 // Gbit/s
	// CostFactors multiply κ (constants.compression_cost) for extra curves
	// that show how the optimum depends on the assumed t_c; each records
	// argmin.k<factor>.
	CostFactors []float64 `toml:"cost_factors"`
}

// zhangCompression predicts one DNN's iteration time vs the gradient
// compression rate r_c (sweep, the fraction of packets removed; §V-C,
// CATALOGUE Z-11: PN·(1 − r_c) packets and t_c = κ·bytes·(1/(1−r_c)² − 1)
// added to FC). It marks the fastest rate of the grid as a one-point series
// and records argmin (r_c), min_iter_s, iter_s.r<r_c> and gain (iteration
// time without compression over the minimum). Extra curves with κ scaled
// by each of CostFactors record argmin.k<factor>.
func zhangCompression(_ context.Context, env *experiment.Env) (*experiment.Result, error) {
	p := zhangCompressionParams{Common: Common{Constants: UnsetConstants()}, Workers: 2, Servers: 1}
	if err := env.Params(&p); err != nil {
		return nil, err
	}
	models, base, err := p.Load(env)
	if err != nil {
		return nil, err
	}
	if len(models) != 1 {
		return nil, env.Errorf("dnn", "the compression use case takes exactly one [[params.dnn]], got %d", len(models))
	}
	if !(p.Bandwidth > 0) || math.IsInf(p.Bandwidth, 0) {
		return nil, env.Errorf("bandwidth", "bandwidth must be a positive number of Gbit/s, got %v", p.Bandwidth)
	}
	rates := env.Spec.Sweep.Points()
	if len(rates) == 0 {
		return nil, env.Spec.Errorf([]string{"sweep"}, "no compression rates to sweep")
	}
	m := models[0]
	base.Layers, base.Workers, base.Servers, base.Bandwidth = m.Layers, p.Workers, p.Servers, gbps(p.Bandwidth)
	if len(p.CostFactors) > 0 {
		if err := env.PositiveList("cost_factors", p.CostFactors); err != nil {
			return nil, err
		}
	}
	for _, r := range rates {
		if !(r >= 0 && r < 1) {
			return nil, env.Spec.Errorf([]string{"sweep"}, "compression rate %v outside [0, 1)", r)
		}
	}
	preds := float64(len(rates)) * float64(1+len(p.CostFactors))
	if err := checkPredictions(env, []string{"sweep"}, preds*PredictWork(base.Iterations, len(m.Layers)), preds+float64(len(rates))+2*float64(len(p.CostFactors))+7,
		fmt.Sprintf("%d compression rates × %d curves, %d iterations of %d layers", len(rates), 1+len(p.CostFactors), base.Iterations, len(m.Layers))); err != nil {
		return nil, err
	}
	res := experiment.NewResult()
	curve := func(series string, cost float64, record bool) (best, bestT float64, err error) {
		best, bestT = math.NaN(), math.Inf(1)
		uncompressed := math.NaN()
		for _, r := range rates {
			cfg := base
			cfg.CompressionRate, cfg.CompressionCost = r, cost
			pr, err := Predict(env, cfg)
			if err != nil {
				return 0, 0, fmt.Errorf("%s at r_c = %g, κ = %g s/byte: %w", m.Name, r, cost, err)
			}
			t := pr.IterationTime
			res.Point(series, "zhang", dataset.Derived, r, t)
			if t < bestT {
				best, bestT = r, t
			}
			if !record {
				continue
			}
			res.Metric(fmt.Sprintf("iter_s.r%g", r), t)
			if r == 0 {
				uncompressed = t
			}
		}
		if record && !math.IsNaN(uncompressed) {
			res.Metric("gain", uncompressed/bestT)
		}
		return best, bestT, nil
	}
	kappa := base.CompressionCost
	best, bestT, err := curve(fmt.Sprintf("%s zhang, κ = %g s/byte", m.Name, kappa), kappa, true)
	if err != nil {
		return nil, err
	}
	res.Point("fastest rate", "zhang", dataset.Derived, best, bestT)
	res.Metric("argmin", best)
	res.Metric("min_iter_s", bestT)
	for _, f := range p.CostFactors {
		b, _, err := curve(fmt.Sprintf("%s zhang, κ × %g", m.Name, f), kappa*f, false)
		if err != nil {
			return nil, err
		}
		res.Metric(fmt.Sprintf("argmin.k%g", f), b)
		res.Note("with κ × %g the fastest rate is r_c = %g", f, b)
	}
	res.Note("%s, %d workers, %d PS, %g Gbit/s, κ = %g s/byte: fastest at r_c = %g (%.4f s per iteration)",
		m.Name, p.Workers, p.Servers, p.Bandwidth, p.Constants.CompressionCost, best, bestT)
	return res, nil
}

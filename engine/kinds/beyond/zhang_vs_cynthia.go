package beyond

import (
	"context"
	"fmt"
	"math"

	"pslab/engine/cynthia"
	"pslab/engine/dataset"
	"pslab/engine/experiment"
	cynthiakinds "pslab/engine/kinds/cynthia"
	"pslab/engine/kinds/zhang"
)

type zhangVsCynthiaParams struct {
	zhang.Common
	Servers   int
	Bandwidth float64 // Gbit/s
	// ProfileFLOPS is the effective speed of the profiled GPU in FLOP/s; it
	// turns profile seconds into Cynthia's w_iter (FLOP) and, times
	// GPUSpeed, gives Cynthia's c. It cancels in t_comp = w_iter/(n·c).
	ProfileFLOPS float64 `toml:"profile_flops"`
}

// zhangVsCynthia predicts the BSP iteration time of the same synchronous
// configurations (each of N workers trains its own batch b on one GPU, K PS,
// one link bandwidth) with zhang's model (syncps) and with Cynthia's BSP
// branch (and optionally its Optimus-style baseline), vs N (sweep). Inputs
// are mapped from the per-layer profile:
//
//	w_iter = N · F,  F = Σ_l (FP + BP) seconds at b · ProfileFLOPS  (FLOP;
//	         Cynthia's BSP divides w_iter over the N workers, so the global
//	         batch N·b gives each worker F)
//	c      = ProfileFLOPS · GPUSpeed (FLOP/s), c_base = c
//	g      = Σ_l ParamBytes (bytes), b_ps = Bandwidth (bytes/s)
//	c_prof = b_prof = 0: no PS profiling run, so the utilization rule
//	         never throttles the workers
//
// It records iter_s.<model>.<dnn>.n<N>, zhang_over_cynthia.<dnn>.n<N>, the
// mean relative difference |zhang − cynthia|/cynthia per DNN and Cynthia's
// compute/communication crossover n* = (F/c)·b_ps·K/(2g) per DNN.
func zhangVsCynthia(_ context.Context, env *experiment.Env) (*experiment.Result, error) {
	p := zhangVsCynthiaParams{Common: zhang.Common{Constants: zhang.UnsetConstants()}, Servers: 1}
	if err := env.Params(&p); err != nil {
		return nil, err
	}
	models, base, err := p.Load(env)
	if err != nil {
		return nil, err
	}
	if err := env.PositiveList("bandwidth", []float64{p.Bandwidth}); err != nil {
		return nil, err
	}
	if err := env.PositiveList("profile_flops", []float64{p.ProfileFLOPS}); err != nil {
		return nil, err
	}
	ns := env.Spec.Sweep.Points()
	if err := env.AscendingList("sweep", ns); err != nil {
		return nil, err
	}
	var units float64
	for _, m := range models {
		units += float64(len(ns)) * (zhang.PredictWork(base.Iterations, len(m.Layers)) + 2)
	}
	if err := env.CheckRows([]string{"sweep"}, units, float64(len(models))*(7*float64(len(ns))+3),
		fmt.Sprintf("zhang-vs-cynthia: %d DNNs × %d worker counts, %d iterations", len(models), len(ns), base.Iterations)); err != nil {
		return nil, err
	}
	bw := gbps(p.Bandwidth)
	c := p.ProfileFLOPS * p.GPUSpeed
	inst := cynthia.Instance{Name: "GPU worker", CPU: c, Bandwidth: bw}
	base.Servers, base.Bandwidth = p.Servers, bw
	res := experiment.NewResult()
	for _, m := range models {
		key := experiment.MetricKey(m.Name)
		f := m.ComputeSeconds() * p.ProfileFLOPS
		g := float64(m.ParamBytes())
		var diffSum float64
		for _, x := range ns {
			n := int(x)
			if float64(n) != x {
				return nil, env.Spec.Errorf([]string{"sweep"}, "workers %v is not a whole number", x)
			}
			w := cynthia.Workload{Name: m.Name, WIter: float64(n) * f, GParam: g, Sync: cynthia.BSP, Batch: n * m.Batch}
			h := cynthia.Homogeneous{Instance: inst, Workers: n, PS: p.Servers, CBase: c}
			var zt, ct float64
			for _, model := range []string{"zhang", "cynthia", "optimus"} {
				if !env.UsesModel(model) {
					continue
				}
				var t float64
				if model == "zhang" {
					cfg := base
					cfg.Layers, cfg.Workers = m.Layers, n
					pr, err := zhang.Predict(env, cfg)
					if err != nil {
						return nil, fmt.Errorf("zhang, %s, %d workers: %w", m.Name, n, err)
					}
					t, zt = pr.IterationTime, pr.IterationTime
				} else {
					b, err := cynthiakinds.Models[model].PredictHomogeneous(w, h)
					if err != nil {
						return nil, fmt.Errorf("%s, %s, %d workers: %w", model, m.Name, n, err)
					}
					env.CountModelWork(1)
					t = b.Iter
					if model == "cynthia" {
						ct = t
					}
				}
				res.Point(fmt.Sprintf("%s %s", m.Name, model), model, dataset.Derived, x, t)
				res.Metric(fmt.Sprintf("iter_s.%s.%s.n%d", model, key, n), t)
			}
			if zt > 0 && ct > 0 {
				res.Metric(fmt.Sprintf("zhang_over_cynthia.%s.n%d", key, n), zt/ct)
				diffSum += math.Abs(zt-ct) / ct
			}
		}
		if env.UsesModel("zhang") && env.UsesModel("cynthia") {
			res.Metric("mean_rel_diff."+key, diffSum/float64(len(ns)))
		}
		cross := f / c * bw * float64(p.Servers) / (2 * g)
		res.Metric("cynthia_crossover."+key, cross)
		res.Note("%s: w_iter = N × %.4g FLOP, c = %.4g FLOP/s, g = %.4g bytes, b_ps = %.4g bytes/s; Cynthia's t_comp = t_comm at n* = %.3f workers",
			m.Name, f, c, g, bw, cross)
	}
	return res, nil
}

// gbps converts a link speed in Gbit/s to bytes/s.
func gbps(g float64) float64 { return g * 1e9 / 8 }

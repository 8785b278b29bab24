package zhang

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	"pslab/engine/dataset"
	"pslab/engine/experiment"
	"pslab/engine/syncps"
)

type zhangIterParams struct {
	Common
	Workers int
	Servers int
	// Ratio names two DNNs, [numerator, denominator], whose iteration-time
	// ratio is recorded at each of RatioBandwidths (Gbit/s).
	Ratio           []string
	RatioBandwidths []float64 `toml:"ratio_bandwidths"`
	// MeasuredPlatforms maps the platform column of the optional
	// "measured" input to its link bandwidth in Gbit/s (the measurement
	// schema has no bandwidth column).
	MeasuredPlatforms map[string]float64 `toml:"measured_platforms"`
}

// zhangMeasured is one measured BSP iteration time.
type zhangMeasured struct {
	dnn       int
	bandwidth float64 // Gbit/s
	seconds   float64
}

// zhangIterationTime predicts zhang's average iteration time (Eq. 1–18)
// for each DNN vs link bandwidth (sweep values in Gbit/s) on N workers and
// K PS (zhang Fig. 3). It records iteration times, the ratio of two DNNs at
// the named bandwidths and how that ratio changes between the first and the
// last of them; with an optional "measured" input (MeasurementSchema, sync
// "bsp") it plots the measurements and records the mean and max relative
// error of the predictions.
func zhangIterationTime(_ context.Context, env *experiment.Env) (*experiment.Result, error) {
	p := zhangIterParams{Common: Common{Constants: UnsetConstants()}, Workers: 3, Servers: 1}
	if err := env.Params(&p); err != nil {
		return nil, err
	}
	models, base, err := p.Load(env)
	if err != nil {
		return nil, err
	}
	base.Workers, base.Servers = p.Workers, p.Servers
	xs := env.Spec.Sweep.Points()
	if err := env.PositiveList("sweep", xs); err != nil {
		return nil, err
	}
	res := experiment.NewResult()
	var measured []zhangMeasured
	if env.HasInput("measured") {
		if measured, err = zhangReadMeasured(env, p, models, res); err != nil {
			return nil, err
		}
	}
	// Every DNN at every swept and measured bandwidth, and both DNNs of
	// the ratio at each of its bandwidths.
	var units, rows float64
	for i, m := range models {
		n := len(xs)
		for _, ms := range measured {
			if ms.dnn == i {
				n++
			}
		}
		units += float64(n) * PredictWork(base.Iterations, len(m.Layers))
		rows += 6*float64(n) + 1
	}
	for _, name := range p.Ratio {
		if k := slices.IndexFunc(models, func(m Model) bool { return m.Name == name }); k >= 0 {
			units += float64(len(p.RatioBandwidths)) * PredictWork(base.Iterations, len(models[k].Layers))
		}
	}
	rows += 4*float64(len(p.RatioBandwidths)) + 1
	if err := checkPredictions(env, []string{"sweep"}, units, rows+float64(len(measured))+5,
		fmt.Sprintf("%d DNNs × %d bandwidths (and %d measured), %d iterations", len(models), len(xs), len(measured), base.Iterations)); err != nil {
		return nil, err
	}
	predict := func(m Model, bw float64) (syncps.Prediction, error) {
		cfg := base
		cfg.Layers, cfg.Bandwidth = m.Layers, gbps(bw)
		pr, err := Predict(env, cfg)
		if err != nil {
			return pr, fmt.Errorf("%s at %g Gbit/s: %w", m.Name, bw, err)
		}
		return pr, nil
	}
	var errSum, errMax float64
	for i, m := range models {
		pts := slices.Clone(xs)
		for _, ms := range measured {
			if ms.dnn == i {
				pts = append(pts, ms.bandwidth)
			}
		}
		slices.Sort(pts)
		for _, bw := range slices.Compact(pts) {
			pr, err := predict(m, bw)
			if err != nil {
				return nil, err
			}
			relErr := 0.0
			for _, ms := range measured {
				if ms.dnn == i && ms.bandwidth == bw {
					relErr = math.Abs(pr.IterationTime-ms.seconds) / ms.seconds
					errSum += relErr
					errMax = max(errMax, relErr)
				}
			}
			res.PointError(m.Name+" zhang", "zhang", dataset.Derived, bw, pr.IterationTime, relErr)
			res.Metric(fmt.Sprintf("iter_s.%s.bw%g", experiment.MetricKey(m.Name), bw), pr.IterationTime)
			res.Metric(fmt.Sprintf("comm_comp.%s.bw%g", experiment.MetricKey(m.Name), bw), pr.CommCompRatio)
			res.Metric(fmt.Sprintf("compute_s.%s.bw%g", experiment.MetricKey(m.Name), bw), pr.Compute)
			res.Metric(fmt.Sprintf("exposed_comm_s.%s.bw%g", experiment.MetricKey(m.Name), bw), pr.ExposedComm)
			res.Metric(fmt.Sprintf("aggregation_s.%s.bw%g", experiment.MetricKey(m.Name), bw), pr.Aggregation)
		}
		res.Note("%s: batch %d per worker, %.1f MB of gradients, %.1f ms FP+BP on the profiled GPU (÷ %g)",
			m.Name, m.Batch, float64(m.ParamBytes())/1e6, 1e3*m.ComputeSeconds(), p.GPUSpeed)
	}
	if len(measured) > 0 {
		res.Metric("mean_error", errSum/float64(len(measured)))
		res.Metric("max_error", errMax)
		res.Note("measured: %d BSP points, mean relative error %.1f%%, max %.1f%%", len(measured), 100*errSum/float64(len(measured)), 100*errMax)
	}
	if len(p.Ratio) == 0 {
		return res, nil
	}
	return res, zhangRatios(env, p, models, predict, res)
}

// zhangRatios records ratio.<a>_<b>.bw<g> = t(a)/t(b) at each ratio
// bandwidth and ratio_change = first ratio / last ratio.
func zhangRatios(env *experiment.Env, p zhangIterParams, models []Model, predict func(Model, float64) (syncps.Prediction, error), res *experiment.Result) error {
	if len(p.Ratio) != 2 {
		return env.Errorf("ratio", "ratio names two DNNs [numerator, denominator], got %d", len(p.Ratio))
	}
	if err := env.PositiveList("ratio_bandwidths", p.RatioBandwidths); err != nil {
		return err
	}
	var pair [2]Model
	for j, name := range p.Ratio {
		k := slices.IndexFunc(models, func(m Model) bool { return m.Name == name })
		if k < 0 {
			return env.Errorf("ratio", "ratio names %q, which is not a [[params.dnn]] name", name)
		}
		pair[j] = models[k]
	}
	key := experiment.MetricKey(pair[0].Name) + "_" + experiment.MetricKey(pair[1].Name)
	var ratios []float64
	for _, bw := range p.RatioBandwidths {
		a, err := predict(pair[0], bw)
		if err != nil {
			return err
		}
		b, err := predict(pair[1], bw)
		if err != nil {
			return err
		}
		r := a.IterationTime / b.IterationTime
		ratios = append(ratios, r)
		res.Metric(fmt.Sprintf("ratio.%s.bw%g", key, bw), r)
		res.Note("%s / %s iteration time at %g Gbit/s: %.3f", pair[0].Name, pair[1].Name, bw, r)
		for _, x := range []struct {
			name string
			p    syncps.Prediction
		}{{pair[0].Name, a}, {pair[1].Name, b}} {
			res.Note("  %s at %g Gbit/s: %.4f s = compute %.4f + exposed FC/BC %.4f + aggregation %.4f + stragglers %.4f",
				x.name, bw, x.p.IterationTime, x.p.Compute, x.p.ExposedComm, x.p.Aggregation, x.p.Straggler)
		}
	}
	res.Metric("ratio_change."+key, ratios[0]/ratios[len(ratios)-1])
	return nil
}

// zhangReadMeasured reads the BSP rows of the "measured" input that match a
// DNN (model column equal to its name or input, case-insensitive) at the
// experiment's workers, PS and batch, and plots them. The iteration time is
// workers·batch/throughput (throughput counts all workers' examples/s).
func zhangReadMeasured(env *experiment.Env, p zhangIterParams, models []Model, res *experiment.Result) ([]zhangMeasured, error) {
	t, err := env.Input("measured", dataset.MeasurementSchema)
	if err != nil {
		return nil, err
	}
	var out []zhangMeasured
	skipped := 0
	for r := range t.Len() {
		if t.Strings("sync")[r] != "bsp" || t.Ints("workers")[r] != int64(p.Workers) || t.Ints("ps")[r] != int64(p.Servers) {
			skipped++
			continue
		}
		model := t.Strings("model")[r]
		i := slices.IndexFunc(p.DNN, func(d DNN) bool {
			return strings.EqualFold(model, d.Name) || strings.EqualFold(model, d.Input)
		})
		if i < 0 || t.Ints("batch")[r] != int64(models[i].Batch) {
			skipped++
			continue
		}
		platform := t.Strings("platform")[r]
		bw, ok := p.MeasuredPlatforms[platform]
		if !ok || !(bw > 0) {
			return nil, env.Errorf("measured_platforms", "measured row %d: platform %q has no positive bandwidth in measured_platforms", r, platform)
		}
		thr := t.Floats("throughput")[r]
		if !(thr > 0) {
			return nil, env.Spec.Errorf([]string{"inputs", "measured"}, "measured row %d: throughput %v examples/s, need > 0", r, thr)
		}
		sec := float64(p.Workers) * float64(models[i].Batch) / thr
		out = append(out, zhangMeasured{dnn: i, bandwidth: bw, seconds: sec})
		res.Point(models[i].Name+" measured", "measurement", dataset.Measured, bw, sec)
	}
	if len(out) == 0 {
		return nil, env.Spec.Errorf([]string{"inputs", "measured"}, "input \"measured\": no BSP row with %d workers, %d PS and a DNN and batch of this experiment", p.Workers, p.Servers)
	}
	res.Note("measured: %d rows used, %d skipped (other sync, cluster, model or batch)", len(out), skipped)
	return out, nil
}

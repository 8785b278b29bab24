package beyond

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	"pslab/engine/dataset"
	"pslab/engine/experiment"
	"pslab/engine/predict"
	"pslab/engine/sim"
)

// tfbRun is one run of tf-benchmarks: its inputs and what it has found.
type tfbRun struct {
	p      *tfbParams
	env    *experiment.Env
	groups []*tfbGroup
	models []predict.Model
	res    *experiment.Result
	// calib is each model's largest |throughput − 1-GPU row|/1-GPU row at
	// the calibration point, a fraction.
	calib map[predict.Model]float64
	// simCache holds the simulator's predictions of a group's rows under
	// the node costs at a slowdown (the fit's grid, reused by the
	// variants).
	simCache map[tfbCacheKey][]float64
	// bars are the mean |error| of each bar, percent.
	bars map[tfbBar]float64
	// hint is, per group, the device speed last fitted on it, where the
	// next calibration's search starts (0: 1).
	hint map[int]float64
	// ratio is the compute/communication ratio (predict.Prediction.Ratio,
	// at the simulator's calibrated speed) of a row of a group under a
	// node model.
	ratio map[tfbRowKey]float64
}

// tfbRowKey names one row of a group under a node model (the slowdown of
// its platform; 0: before the node's own costs).
type tfbRowKey struct {
	group, row int
	slowdown   float64
}

// tfbAccuracyVariant is the variant whose points go to the accuracy table:
// the node's own costs at the hardware specifications, nothing fitted.
const tfbAccuracyVariant = "spec"

// tfbBar is one bar: a platform, a variant and a model.
type tfbBar struct {
	platform, variant string
	model             predict.Model
}

type tfbCacheKey struct {
	group    int
	slowdown float64
}

// tfbVariant is one way of modelling the node: before its own costs
// (slowdown nil) or with them, at a slowdown per platform.
type tfbVariant struct {
	name     string             // metric key
	slowdown map[string]float64 // per platform; nil: before
	label    func(platform string) string
}

// all fits the slowdown per platform, runs every variant and records the
// metrics, notes and bars.
func (r *tfbRun) all(ctx context.Context) error {
	r.simCache, r.bars, r.hint = map[tfbCacheKey][]float64{}, map[tfbBar]float64{}, map[int]float64{}
	r.ratio = map[tfbRowKey]float64{}
	var platforms []string
	for _, g := range r.groups {
		if !slices.Contains(platforms, g.platform) {
			platforms = append(platforms, g.platform)
		}
		r.res.Metric("rows."+g.platform, r.res.Metrics["rows."+g.platform]+float64(len(g.rows)))
	}
	r.measuredScaling()
	spec := map[string]float64{}
	fitted := map[string]float64{}
	for _, pl := range platforms {
		spec[pl] = 1
		if !r.env.UsesModel(string(predict.Simulator)) {
			continue
		}
		s, obj, err := r.fit(ctx, pl)
		if err != nil {
			return err
		}
		fitted[pl] = s
		r.res.Metric("slowdown.fit."+pl, s)
		r.res.Metric("fit.error.mean."+pl, 100*obj)
	}
	variants := []tfbVariant{
		{name: "before", label: func(string) string { return "no node\ncosts" }},
		{name: "spec", slowdown: spec, label: func(string) string { return "node costs\n(specs)" }},
	}
	if len(fitted) == 2 {
		lopo := map[string]float64{}
		other := map[string]string{platforms[0]: platforms[1], platforms[1]: platforms[0]}
		for _, pl := range platforms {
			lopo[pl] = fitted[other[pl]]
		}
		variants = append(variants, tfbVariant{name: "lopo", slowdown: lopo, label: func(pl string) string {
			return fmt.Sprintf("slowdown %.3g\nfit on %s", lopo[pl], r.p.Platforms[other[pl]].Label)
		}})
	} else {
		r.res.Note("leave-one-platform-out needs exactly two platforms and the simulator; the table has %d", len(platforms))
	}
	for _, v := range variants {
		if err := r.variant(ctx, v, platforms); err != nil {
			return err
		}
	}
	for _, pl := range platforms { // bars grouped by platform, then variant
		for _, v := range variants {
			for _, m := range tfbDrawn {
				if y, ok := r.bars[tfbBar{pl, v.name, m}]; ok {
					r.res.Bar(tfbLabel(m), r.p.Platforms[pl].Label+"\n"+v.label(pl), m.Tag(), dataset.Derived, y)
				}
			}
		}
	}
	for _, m := range r.models {
		r.res.Metric("calibration.max."+string(m), 100*r.calib[m])
	}
	return nil
}

// variant predicts every group under v and records its errors.
func (r *tfbRun) variant(ctx context.Context, v tfbVariant, platforms []string) error {
	type acc struct{ sum, max, n, iter, within float64 }
	errs := map[string]*acc{} // platform|model, and all|model
	add := func(key string, e, it float64) {
		a := errs[key]
		if a == nil {
			a = &acc{}
			errs[key] = a
		}
		a.sum, a.max, a.n, a.iter = a.sum+e, math.Max(a.max, e), a.n+1, a.iter+it
		if e <= 0.05 {
			a.within++
		}
	}
	for gi, g := range r.groups {
		if err := ctx.Err(); err != nil {
			return err
		}
		preds, err := r.predictGroup(gi, g, v, r.models, true)
		if err != nil {
			return err
		}
		var parts []string
		for _, m := range r.models {
			signed := make([]string, len(g.rows))
			for i, row := range g.rows {
				x := preds[m][i]
				rel := x/row.throughput - 1
				iter := math.Abs(row.throughput/x - 1) // iteration time G·b/X
				add(g.platform+"|"+string(m), math.Abs(rel), iter)
				add("all|"+string(m), math.Abs(rel), iter)
				signed[i] = fmt.Sprintf("%+.1f", 100*rel)
				if ratio := r.ratio[tfbRowKey{gi, i, v.slowdown[g.platform]}]; v.name == tfbAccuracyVariant && ratio > 0 {
					if err := accuracyRow(r.res, "beyond-tf-benchmarks", g.key(), m, "bsp", row.gpus, ratio, x, row.throughput, true); err != nil {
						return err
					}
				}
			}
			parts = append(parts, fmt.Sprintf("%s %s", m, strings.Join(signed, " ")))
		}
		gs := make([]string, len(g.rows))
		for i, row := range g.rows {
			gs[i] = fmt.Sprint(row.gpus)
		}
		r.res.Note("%s, %s: signed error %% at G = %s: %s", v.name, g.key(), strings.Join(gs, ","), strings.Join(parts, "; "))
	}
	for _, pl := range append(slices.Clone(platforms), "all") {
		for _, m := range r.models {
			a := errs[pl+"|"+string(m)]
			if a == nil {
				continue
			}
			key := v.name + "." + pl + "." + string(m)
			r.res.Metric("error.mean."+key, 100*a.sum/a.n)
			r.res.Metric("error.max."+key, 100*a.max)
			if m == predict.Zhang {
				r.res.Metric("iter_error.mean."+key, 100*a.iter/a.n)
			}
			if m == predict.Simulator {
				r.res.Metric("within5."+key, a.within)
			}
			if pl != "all" {
				r.bars[tfbBar{pl, v.name, m}] = 100 * a.sum / a.n
			}
		}
	}
	return nil
}

// fit returns the slowdown of the grid with the simulator's least mean
// |error| over the rows of platform pl (ties to the smaller slowdown) and
// that mean, a fraction.
func (r *tfbRun) fit(ctx context.Context, pl string) (float64, float64, error) {
	best, bestS := math.Inf(1), 0.0
	var curve []string
	for _, s := range r.p.Slowdowns {
		v := tfbVariant{name: "fit", slowdown: map[string]float64{pl: s}}
		var sum float64
		n := 0
		for gi, g := range r.groups {
			if g.platform != pl {
				continue
			}
			if err := ctx.Err(); err != nil {
				return 0, 0, err
			}
			preds, err := r.predictGroup(gi, g, v, []predict.Model{predict.Simulator}, false)
			if err != nil {
				return 0, 0, err
			}
			for i, row := range g.rows {
				sum += math.Abs(preds[predict.Simulator][i]/row.throughput - 1)
				n++
			}
		}
		if n > 0 && sum/float64(n) < best {
			best, bestS = sum/float64(n), s
		}
		curve = append(curve, fmt.Sprintf("%g: %.2f%%", s, 100*sum/float64(max(n, 1))))
	}
	r.res.Note("fit on %s: the simulator's mean |error| over its rows at each slowdown: %s; chosen %g", pl, strings.Join(curve, ", "), bestS)
	return bestS, best, nil
}

// predictGroup returns each model's predicted throughput of g's rows under
// v, every model calibrated on its own on g's 1-GPU row (record: its
// residual counts in calibration.max).
func (r *tfbRun) predictGroup(gi int, g *tfbGroup, v tfbVariant, models []predict.Model, record bool) (map[predict.Model][]float64, error) {
	out := map[predict.Model][]float64{}
	mvaCal := map[tfbCacheKey]predict.Calibration{}
	for _, m := range models {
		key := tfbCacheKey{group: gi, slowdown: v.slowdown[g.platform]}
		if cached, ok := r.simCache[key]; ok && m == predict.Simulator && v.slowdown != nil {
			out[m] = cached
			continue
		}
		base := predict.Cluster{Batch: g.batch, Sync: sim.BSP, Link: sim.Link{Mode: sim.WholeStream}, Paper: true,
			Steps: r.p.Steps, ProfileSteps: 1, Seed: r.env.Spec.Seed, Progress: r.env.EventCounter()}
		if !m.Defines(sim.BSP) {
			base.Sync = sim.ASP // MVA: the asynchronous network of the same node
		}
		c1, w1, err := r.node(base, g, v, 1)
		if err != nil {
			return nil, err
		}
		c1.DeviceSpeed = r.hint[gi] // where the search starts: the group's last fitted speed
		cal, ok := mvaCal[key]
		if !ok || !strings.HasPrefix(string(m), "mva-") {
			cal, err = predict.CalibrateModel(g.profile, c1, m, predict.Point{Workers: w1, Throughput: g.ref.throughput})
			r.env.CountModelWork(float64(cal.Runs) * r.modelRun(g, m, w1))
			if err != nil {
				return nil, fmt.Errorf("%s: %s: %w", g.ref, v.name, err)
			}
			r.hint[gi] = cal.DeviceSpeed
		}
		if strings.HasPrefix(string(m), "mva-") {
			// With one customer every MVA variant is exact, X(1) = 1/ΣS:
			// the three calibrate to the same speed.
			mvaCal[key] = cal
		}
		if record {
			r.calib[m] = math.Max(r.calib[m], math.Abs(cal.Simulated/g.ref.throughput-1))
		}
		for ri, row := range g.rows {
			c, w, err := r.node(base, g, v, row.gpus)
			if err != nil {
				return nil, err
			}
			c.DeviceSpeed = cal.DeviceSpeed
			pr, err := predict.RunProfile(g.profile, c, []int{w}, []predict.Model{m})
			if err != nil {
				return nil, fmt.Errorf("%s: %s: %w", row, v.name, err)
			}
			r.env.CountModelWork(r.modelRun(g, m, w))
			y, ok := pr.Curve(m)
			if !ok {
				return nil, fmt.Errorf("%s: %s: %s n/a (%s)", row, v.name, m, pr.Why(m))
			}
			out[m] = append(out[m], y[0])
			if m == predict.Simulator {
				r.ratio[tfbRowKey{gi, ri, v.slowdown[g.platform]}] = pr.Ratio()
			}
		}
		if m == predict.Simulator && v.slowdown != nil {
			r.simCache[key] = out[m]
		}
	}
	return out, nil
}

// node returns the cluster of gpus GPUs of g's platform under v and the
// worker count to predict it at: before, one worker of gpus GPUs
// (predict.NodeProfile) with its PS across one host link; with node
// costs, predict.Host.Cluster at v's slowdown, gpus workers. The
// simulator excludes the first step's completions.
func (r *tfbRun) node(base predict.Cluster, g *tfbGroup, v tfbVariant, gpus int) (predict.Cluster, int, error) {
	pl := r.p.Platforms[g.platform]
	if v.slowdown == nil {
		c := base
		c.GPUsPerNode, c.Bandwidth, c.Warmup = gpus, pl.LinkBandwidth, 1
		if c.Bandwidth == 0 {
			c.Bandwidth = predict.PCIe3x16
		}
		return c, 1, nil
	}
	c, err := pl.host(v.slowdown[g.platform]).Cluster(base, gpus)
	if err != nil {
		return c, 0, r.env.Errorf("platform", "platform %q: %v", g.platform, err)
	}
	c.Warmup = gpus
	return c, gpus, nil
}

// measuredScaling records what the table itself says, no model involved:
// efficiency.<platform>.g<G>, the mean over the platform's groups of the
// measured scaling efficiency X(G)/(G·X(1)), and
// real_over_synthetic.<platform>.g<G>, the mean over the (model, batch)
// pairs measured with both of X_real(G)/X_synthetic(G).
func (r *tfbRun) measuredScaling() {
	type acc struct{ sum, n float64 }
	eff, ros := map[string]*acc{}, map[string]*acc{}
	add := func(m map[string]*acc, k string, v float64) {
		if m[k] == nil {
			m[k] = &acc{}
		}
		m[k].sum, m[k].n = m[k].sum+v, m[k].n+1
	}
	synth := map[string]float64{}
	for _, g := range r.groups {
		for _, row := range append([]tfbRow{g.ref}, g.rows...) {
			add(eff, fmt.Sprintf("%s.g%d", g.platform, row.gpus), row.throughput/(float64(row.gpus)*g.ref.throughput))
			if g.data == "synthetic" {
				synth[fmt.Sprintf("%s|%s|%d|%d", g.platform, g.model, g.batch, row.gpus)] = row.throughput
			}
		}
	}
	for _, g := range r.groups {
		if g.data != "real" {
			continue
		}
		for _, row := range append([]tfbRow{g.ref}, g.rows...) {
			if x, ok := synth[fmt.Sprintf("%s|%s|%d|%d", g.platform, g.model, g.batch, row.gpus)]; ok {
				add(ros, fmt.Sprintf("%s.g%d", g.platform, row.gpus), row.throughput/x)
			}
		}
	}
	for k, a := range eff {
		if !strings.HasSuffix(k, ".g1") {
			r.res.Metric("efficiency."+k, a.sum/a.n)
		}
	}
	for k, a := range ros {
		r.res.Metric("real_over_synthetic."+k, a.sum/a.n)
	}
}

package icpe20

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"pslab/engine/cynthia"
	"pslab/engine/dataset"
	"pslab/engine/experiment"
	"pslab/engine/mva"
	"pslab/engine/predict"
)

// emit writes a case's curves and metrics.
func (p *tputParams) emit(env *experiment.Env, res *experiment.Result, cv *tputCurve, ws []int) error {
	c, id, co := cv.c, cv.c.ID, cv.coarse
	res.Metric("step_1w."+id, co.Step)
	res.Metric("s_w."+id, co.Phases.Worker)
	res.Metric("s_u."+id, co.Phases.Uplink)
	res.Metric("s_s."+id, co.Phases.Server)
	res.Metric("s_d."+id, co.Phases.Downlink)
	res.Metric("tp."+id, co.Tp)
	res.Metric("tc."+id, co.Tc)
	res.Metric("u1."+id, co.U1)
	res.Metric("link_bound."+id, cv.bound)
	if c.Servers > 1 {
		res.Metric("imbalance."+id, co.Imbalance())
		res.Note("%s: PS bytes per step %v (heaviest/lightest %.3g)", c.Label, co.ServerBytes, co.Imbalance())
	}
	res.Note("%s: 1-worker step %.4g s; tcpdump phases S^D %.4g, S^W %.4g, S^U %.4g, S^S %.4g s; T_p %.4g s, T_C %.4g s, U_1 %.4g; link bound %.4g examples/s",
		c.Label, co.Step, co.Phases.Downlink, co.Phases.Worker, co.Phases.Uplink, co.Phases.Server, co.Tp, co.Tc, co.U1, cv.bound)
	last := len(ws) - 1
	if cv.sim != nil {
		name := c.Label + ": icpe20 simulator"
		for i, w := range ws {
			r, ok := cv.relErr(w, cv.sim[i])
			switch {
			case cv.est != nil: // converged: the 95% interval as y_lo, y_hi
				e := cv.est[i]
				res.PointRangeError(name, "icpe20-simulator", dataset.Derived, float64(w), e.Throughput, e.Lo, e.Hi, r)
				if !e.Converged {
					res.Note("%s, W = %d: not converged (%s)", name, w, e.Stop)
				}
				if len(e.Modes) > 0 {
					parts := make([]string, len(e.Modes))
					for k, m := range e.Modes {
						parts[k] = fmt.Sprintf("%.4g [%.4g, %.4g] examples/s in %.0f%% [%.0f%%, %.0f%%]", m.Throughput, m.Lo, m.Hi,
							100*m.Frequency, 100*m.FrequencyLo, 100*m.FrequencyHi)
					}
					res.Note("%s, W = %d: %d replications settle in operating modes: %s", name, w, e.Replications, strings.Join(parts, "; "))
				}
			case ok:
				res.PointError(name, "icpe20-simulator", dataset.Derived, float64(w), cv.sim[i], r)
			default:
				res.Point(name, "icpe20-simulator", dataset.Derived, float64(w), cv.sim[i])
			}
		}
		k, sat := predict.Knee(ws, cv.sim, p.KneeEpsilon)
		res.Metric("knee."+id, float64(k))
		res.Metric("saturated."+id, b2f(sat))
		peak := slices.Max(cv.sim)
		res.Metric("peak."+id, peak)
		res.Metric("peak_over_bound."+id, peak/cv.bound)
		if cv.est != nil {
			// A converged peak at a saturated link lies within its interval
			// of the bound, on either side: the lower end of its 95%
			// interval is what the bound must not lie below.
			res.Metric("peak_lo_over_bound."+id, cv.est[slices.Index(cv.sim, peak)].Lo/cv.bound)
		}
		if ws[0] == 1 {
			res.Metric("x1_over_profile."+id, cv.sim[0]/(float64(c.Batch)/co.Step))
		}
		if cv.runs != nil {
			r := cv.runs[0]
			res.Metric("events_per_step."+id, float64(r.Events)/float64(r.Steps))
		}
		res.Note("%s: simulator knee W = %d (ε = %g, saturated within the sweep: %v), peak %.4g examples/s = %.3g of the link bound",
			c.Label, k, p.KneeEpsilon, sat, peak, peak/cv.bound)
	}
	if err := p.coarseCurves(env, cv, ws); err != nil {
		return err
	}
	// Coarse-model metrics are recorded for every case; only the series
	// named in the case's series are drawn.
	if y, ok := cv.coarseY["lin"]; ok {
		if slices.Contains(c.Series, "lin") {
			name := fmt.Sprintf("%s: Lin et al. MVA (%s)", c.Label, p.LinVariant)
			for i, w := range ws {
				res.Point(name, "mascots18-mva-"+p.LinVariant, dataset.Derived, float64(w), y[i])
			}
		}
		k, _ := predict.Knee(ws, y, p.KneeEpsilon)
		res.Metric("knee_lin."+id, float64(k))
		if cv.sim != nil {
			ks, _ := predict.Knee(ws, cv.sim, p.KneeEpsilon)
			res.Metric("knee_gap."+id, float64(ks-k))
			res.Metric("lin_over_sim_first."+id, y[0]/cv.sim[0])
			res.Metric("lin_over_sim_last."+id, y[last]/cv.sim[last])
		}
	}
	for _, s := range []string{"cynthia", "cynthia-halved"} {
		draw := slices.Contains(c.Series, s)
		key := strings.ReplaceAll(s, "-", "_")
		name := c.Label + ": Cynthia (icpe20 restatement)"
		if s == "cynthia-halved" {
			name = c.Label + ": Cynthia, T_C/2"
		}
		minRatio, overBound := math.Inf(1), 0.0
		for i, w := range ws {
			y := cv.coarseY[key][i]
			if draw {
				res.Point(name, s, dataset.Derived, float64(w), y)
			}
			overBound = math.Max(overBound, y/cv.bound)
			if cv.sim != nil {
				minRatio = math.Min(minRatio, cv.sim[i]/y)
			}
		}
		res.Metric(key+"_over_bound_max."+id, overBound)
		if cv.sim != nil {
			res.Metric("sim_over_"+key+"_min."+id, minRatio)
		}
	}
	return nil
}

// coarseCurves computes, in examples/s at each swept W, Lin et al.'s MVA
// (key lin, 1 PS only) and Cynthia's restatement and its T_C/2 variant
// (cynthia, cynthia_halved) from the case's trace, drawn or not: their
// errors against measurements are recorded either way.
func (p *tputParams) coarseCurves(env *experiment.Env, cv *tputCurve, ws []int) error {
	c, co := cv.c, cv.coarse
	cv.coarseY = map[string][]float64{}
	if c.Servers == 1 {
		x, err := mva.Curve(co.Phases, ws[len(ws)-1], 1, tputLinVariants[p.LinVariant])
		if err != nil {
			return fmt.Errorf("case %q: Lin et al.: %w", c.ID, err)
		}
		env.CountModelWork(10 * float64(len(x))) // the population levels, ten units each at most
		y := make([]float64, len(ws))
		for i, w := range ws {
			y[i] = float64(c.Batch) * x[w-1]
		}
		cv.coarseY["lin"] = y
	}
	m := co.Cynthia(c.Batch)
	for key, model := range map[string]cynthia.ICPE{"cynthia": m, "cynthia_halved": m.HalvedTC()} {
		y := make([]float64, len(ws))
		for i, w := range ws {
			var err error
			if y[i], err = model.Throughput(w); err != nil {
				return fmt.Errorf("case %q: %s: %w", c.ID, key, err)
			}
		}
		cv.coarseY[key] = y
		env.CountModelWork(float64(len(ws)))
	}
	return nil
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// compare records, for each requested pair of cases, the minimum and
// maximum ratio of their simulated throughputs over the sweep and the
// difference of their knees (ratio_min, ratio_max, knee_diff), and the
// same ratios of their measurements (measuredRatios), and the difference of the
// simulator's mean |error| against each case's measurements in percentage
// points (error_mean_diff, < 0 when the first case is predicted better).
func (p *tputParams) compare(env *experiment.Env, res *experiment.Result, curves []*tputCurve, ws []int) error {
	byID := map[string]*tputCurve{}
	for _, cv := range curves {
		byID[cv.c.ID] = cv
	}
	for _, cp := range p.Compare {
		a, b := byID[cp.Num], byID[cp.Den]
		if a == nil || b == nil {
			return env.Errorf("compare", "compare %q / %q: both must be cases", cp.Num, cp.Den)
		}
		key := cp.Num + "." + cp.Den
		done := false
		if a.sim != nil && b.sim != nil {
			lo, hi := math.Inf(1), math.Inf(-1)
			for i := range ws {
				r := a.sim[i] / b.sim[i]
				lo, hi = math.Min(lo, r), math.Max(hi, r)
			}
			res.Metric("ratio_min."+key, lo)
			res.Metric("ratio_max."+key, hi)
			ka, _ := predict.Knee(ws, a.sim, p.KneeEpsilon)
			kb, _ := predict.Knee(ws, b.sim, p.KneeEpsilon)
			res.Metric("knee_diff."+key, float64(ka-kb))
			res.Note("%s / %s: simulated throughput ratio %.3g to %.3g over W = %d..%d", a.c.Label, b.c.Label, lo, hi, ws[0], ws[len(ws)-1])
			done = true
		}
		if len(a.meas) > 0 && len(b.meas) > 0 {
			n := measuredRatios(res, key, a, b, ws)
			res.Metric("measured_ratio.points."+key, float64(n))
			if n > 0 {
				res.Note("%s / %s: measured throughput ratio %.3g to %.3g over the %d worker counts both judged", a.c.Label, b.c.Label,
					res.Metrics["measured_ratio_min."+key], res.Metrics["measured_ratio_max."+key], n)
			}
			done = true
		}
		if a.sim != nil && b.sim != nil {
			_, ea, na := a.errStats(ws, a.sim)
			_, eb, nb := b.errStats(ws, b.sim)
			if na > 0 && nb > 0 {
				res.Metric("error_mean_diff."+key, ea-eb)
			}
		}
		if !done {
			return env.Errorf("compare", "compare %q / %q: needs both simulated or both measured", cp.Num, cp.Den)
		}
	}
	return nil
}

// measuredRatios records measured_ratio_min.<key> and
// measured_ratio_max.<key>, the least and greatest ratio a/b of two cases'
// measurements over the W where both are measured and both judge a model
// (measPoint.judged), and returns how many W that is. Where the
// measurements have 95% intervals over repetitions (relative half-widths
// h_a, h_b) each ratio r has r(1 ± √(h_a² + h_b²)) to first order, and
// the extremes are recorded with the interval of the extreme: [min of
// the lower ends, min of the upper ends] for the least.
func measuredRatios(res *experiment.Result, key string, a, b *tputCurve, ws []int) int {
	n, withCI := 0, false
	least := [3]float64{math.Inf(1), math.Inf(1), math.Inf(1)}
	most := [3]float64{math.Inf(-1), math.Inf(-1), math.Inf(-1)}
	for _, w := range ws {
		ma, okA := a.meas[w]
		mb, okB := b.meas[w]
		if !okA || !okB || !ma.judged() || !mb.judged() {
			continue
		}
		r, h := ma.tput/mb.tput, math.Hypot(ma.ci(), mb.ci())
		withCI = withCI || h > 0
		for i, v := range [3]float64{r, r * (1 - h), r * (1 + h)} {
			least[i], most[i] = math.Min(least[i], v), math.Max(most[i], v)
		}
		n++
	}
	if n == 0 {
		return 0
	}
	if withCI {
		res.MetricInterval("measured_ratio_min."+key, least[0], least[1], least[2])
		res.MetricInterval("measured_ratio_max."+key, most[0], most[1], most[2])
	} else {
		res.Metric("measured_ratio_min."+key, least[0])
		res.Metric("measured_ratio_max."+key, most[0])
	}
	return n
}

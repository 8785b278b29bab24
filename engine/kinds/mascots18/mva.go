package mascots18

import (
	"context"
	"fmt"
	"math"
	"slices"

	"pslab/engine/dataset"
	"pslab/engine/experiment"
	"pslab/engine/mva"
)

// mvaVariant is one throughput model of the mascots18 Fig. 6 network.
type mvaVariant struct {
	key, label string
	v          mva.Variant
}

// mvaVariantKeys are the model names of the mva-throughput kind, in the
// order used when a spec lists none.
var mvaVariantKeys = []string{"exact", "approximate", "hybrid", "hybrid-fixed-point", "hybrid-per-class", "schweitzer"}

// mvaVariantOf returns the variant named key (one of mvaVariantKeys).
func mvaVariantOf(key string) mvaVariant {
	switch key {
	case "exact":
		return mvaVariant{key, "exact MVA (PS links)", mva.Exact}
	case "approximate":
		return mvaVariant{key, "approximate MVA (FCFS links)", mva.Approximate}
	case "hybrid":
		return mvaVariant{key, "hybrid MVA (g on total ρ at n−1)", mva.Hybrid}
	case "hybrid-fixed-point":
		return mvaVariant{key, "hybrid MVA (g on total ρ(n), fixed point)", mva.HybridFixedPoint}
	case "hybrid-per-class":
		return mvaVariant{key, "hybrid MVA (g on per-class ρ_k)", mva.HybridPerClass}
	case "schweitzer":
		return mvaVariant{key, "exact network, Bard–Schweitzer", mva.Schweitzer}
	}
	panic("kinds: unknown MVA variant " + key)
}

type throughputParams struct {
	// Servers are the numbers m of parameter servers (§VII, S^U, S^S and
	// S^D divided by m); default [1].
	Servers []int
	// Y is the plotted quantity: "steps" (mini-batches/s, default),
	// "examples" (examples/s) or "speedup" (X(K)/X(1) of the same curve).
	Y string
	// Linear adds the throughput of deterministic phases with perfectly
	// interleaved transmissions, min(K/cycle, 1/max(S^U, S^S, S^D)) (Fig. 9),
	// and linear-region metrics: the largest K up to which a curve stays
	// within LinearTol (relative, default 0.01) of K/cycle.
	Linear    bool
	LinearTol float64 `toml:"linear_tol"`
	// Bound adds the bottleneck bound 1/max(S^U, S^S, S^D).
	Bound           bool
	ReportedProfile *reportedProfileParams `toml:"reported_profile"`
	Table3          *table3Params
	Profiles        []profileParams
	// Plotted are the variants drawn in the figure (default: all the spec's
	// models); the others are computed and checked only.
	Plotted []string
	// Notes are lines recorded with the result (assumptions, decisions).
	Notes []string
}

// curveSet holds the throughput curves (steps/s, index K−1) of one profile
// with m servers, per variant key.
type curveSet struct {
	prof   phaseProfile
	m      int
	phases mva.Phases // with the shared demands divided by m
	x      map[string][]float64
}

// mvaThroughput computes mascots18 throughput curves X(K) of the Fig. 6
// network for phase profiles, MVA variants (the spec's models) and numbers
// of parameter servers, with the structural metrics of §III and §VII and,
// when a "measured" input (dataset.MeasurementSchema) is given, the
// per-variant relative errors of Table II.
func mvaThroughput(_ context.Context, env *experiment.Env) (*experiment.Result, error) {
	p := throughputParams{Servers: []int{1}, Y: "steps", LinearTol: 0.01}
	if err := env.Params(&p); err != nil {
		return nil, err
	}
	if !slices.Contains([]string{"steps", "examples", "speedup"}, p.Y) {
		return nil, env.Errorf("y", "y %q (want steps, examples or speedup)", p.Y)
	}
	if !(p.LinearTol >= 0 && p.LinearTol < 1) {
		return nil, env.Errorf("linear_tol", "linear_tol %v outside [0, 1)", p.LinearTol)
	}
	if len(p.Servers) == 0 {
		return nil, env.Errorf("servers", "no numbers of parameter servers")
	}
	for i, m := range p.Servers {
		if m < 1 || slices.Contains(p.Servers[:i], m) {
			return nil, env.Errorf("servers", "servers %v: each must be ≥ 1 and listed once", p.Servers)
		}
	}
	keys := env.Spec.Models
	if len(keys) == 0 {
		keys = mvaVariantKeys
	}
	for _, k := range keys {
		if !slices.Contains(mvaVariantKeys, k) {
			return nil, env.Spec.Errorf([]string{"models"}, "unknown MVA variant %q (want %v)", k, mvaVariantKeys)
		}
	}
	if len(p.Plotted) == 0 {
		p.Plotted = keys
	}
	for _, k := range p.Plotted {
		if !slices.Contains(keys, k) {
			return nil, env.Errorf("plotted", "plotted variant %q is not one of the models %v", k, keys)
		}
	}
	ks, err := workerPoints(env)
	if err != nil {
		return nil, err
	}
	profiles, err := loadProfiles(env, p)
	if err != nil {
		return nil, err
	}
	var meas *dataset.Table
	if env.HasInput("measured") {
		if meas, err = env.Input("measured", dataset.MeasurementSchema); err != nil {
			return nil, err
		}
	}
	maxK := ks[len(ks)-1]
	if err := checkMVAWork(env, len(profiles), len(p.Servers), len(keys), len(p.Plotted), len(ks), maxK, meas); err != nil {
		return nil, err
	}
	res := experiment.NewResult()
	for _, n := range p.Notes {
		res.Note("%s", n)
	}
	for _, prof := range profiles {
		res.Note("%s", prof.describe())
		sets := make([]curveSet, 0, len(p.Servers))
		for _, m := range p.Servers {
			q, err := prof.Phases.WithServers(m)
			if err != nil {
				return nil, env.Errorf("servers", "%v", err)
			}
			cs := curveSet{prof: prof, m: m, phases: q, x: map[string][]float64{}}
			for _, k := range keys {
				c, err := mva.Curve(prof.Phases, maxK, m, mvaVariantOf(k).v)
				if err != nil {
					return nil, fmt.Errorf("profile %q with %d PS, %s: %w", prof.ID, m, k, err)
				}
				env.CountModelWork(mvaLevelWork * float64(len(c)))
				cs.x[k] = c
			}
			var mp map[int]measuredPoint
			if meas != nil {
				if mp, err = measuredFor(meas, prof, m, maxK); err != nil {
					return nil, err
				}
				env.CountModelWork(float64(meas.Len()))
			}
			o := curveOut{res: res, p: p, keys: keys, ks: ks, multiProfile: len(profiles) > 1}
			o.plot(cs, mp)
			o.structure(cs)
			o.measuredErrors(cs, mp)
			sets = append(sets, cs)
		}
		serverGain(res, keys, ks, sets)
	}
	if meas != nil {
		res.Note("measured throughput from %s; errors are |predicted − measured| / measured", env.Spec.Inputs["measured"])
	} else {
		res.Note("no measured input: predictions only; per-variant errors (Table II) need a measured dataset")
	}
	return res, nil
}

// workerPoints returns the swept worker counts: integers ≥ 1, increasing.
func workerPoints(env *experiment.Env) ([]int, error) {
	pts := env.Spec.Sweep.Points()
	if len(pts) == 0 {
		return nil, env.Spec.Errorf([]string{"sweep"}, "no worker counts: set [sweep] var = \"workers\" with from/to or values")
	}
	ks := make([]int, len(pts))
	for i, x := range pts {
		k := int(math.Round(x))
		if x < 1 || math.Abs(x-float64(k)) > 1e-9 || (i > 0 && k <= ks[i-1]) {
			return nil, env.Spec.Errorf([]string{"sweep"}, "worker counts %v must be increasing integers ≥ 1", pts)
		}
		ks[i] = k
	}
	return ks, nil
}

// curveOut writes one curve set's rows and metrics.
type curveOut struct {
	res          *experiment.Result
	p            throughputParams
	keys         []string
	ks           []int
	multiProfile bool
}

// suffix is ".m<m>" for m ≠ 1, so that 1-server metric names stay short.
func suffix(m int) string {
	if m == 1 {
		return ""
	}
	return fmt.Sprintf(".m%d", m)
}

func (o curveOut) seriesName(cs curveSet, label string) string {
	if o.multiProfile {
		label = cs.prof.Label + ": " + label
	}
	if len(o.p.Servers) > 1 {
		label += fmt.Sprintf(", %d PS", cs.m)
	}
	return label
}

// y converts a throughput in steps/s at k workers to the plotted unit.
func (o curveOut) y(cs curveSet, curve []float64, k int) float64 {
	switch o.p.Y {
	case "examples":
		return curve[k-1] * float64(cs.prof.Batch)
	case "speedup":
		return curve[k-1] / curve[0]
	}
	return curve[k-1]
}

// sameCurve reports whether two curves agree to 1e-9 relative at every K.
func sameCurve(a, b []float64) bool {
	for i := range a {
		if math.Abs(a[i]-b[i]) > 1e-9*math.Max(math.Abs(a[i]), math.Abs(b[i])) {
			return false
		}
	}
	return true
}

// plot adds the curves; variants with identical curves share one legend
// entry, named after all of them.
func (o curveOut) plot(cs curveSet, mp map[int]measuredPoint) {
	labels := map[string]string{}
	var shown []string
	for _, k := range o.p.Plotted {
		dup := slices.IndexFunc(shown, func(s string) bool { return sameCurve(cs.x[s], cs.x[k]) })
		if dup >= 0 {
			labels[shown[dup]] += " = " + mvaVariantOf(k).label
			o.res.Note("%s, %d PS: %s gives the same curve as %s", cs.prof.Label, cs.m, k, shown[dup])
			continue
		}
		shown = append(shown, k)
		labels[k] = mvaVariantOf(k).label
	}
	for _, k := range shown {
		name := o.seriesName(cs, labels[k])
		for _, K := range o.ks {
			y := o.y(cs, cs.x[k], K)
			if pt, ok := mp[K]; ok {
				o.res.PointError(name, k, dataset.Derived, float64(K), y, (cs.x[k][K-1]-pt.steps)/pt.steps)
				continue
			}
			o.res.Point(name, k, dataset.Derived, float64(K), y)
		}
	}
	q, cycle := cs.phases, cs.phases.Cycle()
	bound := 1 / bottleneck(q)
	scale := map[string]float64{"steps": 1, "examples": float64(cs.prof.Batch), "speedup": cycle}[o.p.Y]
	if o.p.Linear {
		name := o.seriesName(cs, "deterministic, no overlap: min(K/cycle, bound) (Fig. 9)")
		for _, K := range o.ks {
			o.res.Point(name, "linear", dataset.Derived, float64(K), math.Min(float64(K)/cycle, bound)*scale)
		}
	}
	if o.p.Bound {
		label := "bottleneck bound 1/max(S^U, S^S, S^D)"
		if o.p.Y == "speedup" {
			label = "speedup limit cycle/max(S^U, S^S, S^D)"
		}
		name := o.seriesName(cs, label)
		for _, K := range o.ks {
			o.res.Point(name, "bound", dataset.Derived, float64(K), bound*scale)
		}
	}
	f := map[string]float64{"steps": 1, "examples": float64(cs.prof.Batch)}[o.p.Y]
	if one, ok := mp[1]; ok && o.p.Y == "speedup" {
		f = 1 / one.steps // measured speedup: over the measured 1-worker throughput
	}
	if f == 0 && len(mp) > 0 {
		o.res.Note("%s, %d PS: no measured 1-worker throughput, so no measured speedup is plotted", cs.prof.Label, cs.m)
		return
	}
	name := o.seriesName(cs, "measured")
	for _, K := range o.ks {
		if pt, ok := mp[K]; ok {
			o.res.PointRange(name, "measurement", dataset.Measured, float64(K), pt.steps*f, (pt.steps-pt.std)*f, (pt.steps+pt.std)*f)
		}
	}
}

// bottleneck is the largest demand at a shared station, seconds.
func bottleneck(q mva.Phases) float64 { return math.Max(math.Max(q.Uplink, q.Downlink), q.Server) }

// mvaLevelWork is the model work of one population level of an MVA curve
// (units of experiment.DefaultMaxModelWork): 10, what a level of the
// slowest variant costs (Bard–Schweitzer's fixed point, about 700 ns at
// 65,536 workers; the recursive variants 60–250 ns).
const mvaLevelWork = 10

// checkMVAWork bounds mva-throughput's work before any curve is solved:
// for each profile and number of servers, one curve of maxK population
// levels per variant and a pass over the measured rows (model work); per
// point its plotted curves, linear and bound lines and measurement, and
// up to three metrics per variant (x, speedup, efficiency); per curve set
// its structural metrics and notes (rows).
func checkMVAWork(env *experiment.Env, profiles, servers, variants, plotted, points, maxK int, meas *dataset.Table) error {
	sets := float64(profiles) * float64(servers)
	measRows := 0.0
	if meas != nil {
		measRows = float64(meas.Len())
	}
	units := sets * (float64(variants)*mvaLevelWork*float64(maxK) + measRows)
	rows := sets*(float64(points)*float64(plotted+3+3*variants)+12*float64(variants)+20) + float64(profiles) + 2
	return env.CheckRows([]string{"sweep"}, units, rows,
		fmt.Sprintf("mva-throughput: %d profiles × %d server counts × %d variants up to %d workers", profiles, servers, variants, maxK))
}

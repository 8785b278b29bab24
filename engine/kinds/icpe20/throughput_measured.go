package icpe20

import (
	"fmt"
	"maps"
	"math"
	"slices"

	"pslab/engine/dataset"
	"pslab/engine/experiment"
	"pslab/engine/measured"
	"pslab/engine/predict"
)

// errorBounds are the columns read from the reported icpe20 error-bound
// table (datasets/reported/icpe20/error_bounds.arrow).
var errorBounds = &dataset.Schema{Name: "icpe20-error-bounds", Columns: []dataset.Column{
	{Name: "figure", Type: dataset.Int64},
	{Name: "panel", Type: dataset.String},
	{Name: "workers", Type: dataset.Int64},
	{Name: "bound", Type: dataset.Float64, Rule: dataset.NonNegative, Unit: "%"},
	{Name: "relation", Type: dataset.String, Rule: dataset.Enum, Values: []string{"<=", "<", "="}},
	{Name: "kind", Type: dataset.String},
	{Name: "version", Type: dataset.String},
}}

// boundVersion is the text whose error claims are checked (CATALOGUE I-19).
const boundVersion = "000"

// errorBound is a claimed error bound in percent; strict for "less than".
type errorBound struct {
	pct    float64
	strict bool
}

func (b errorBound) holds(errPct float64) bool {
	if b.strict {
		return errPct < b.pct
	}
	return errPct <= b.pct
}

// boundFor returns the version-000 bound of figure fig for panel and W: an
// exception row for (panel, W) if there is one, else the figure's default.
func boundFor(t *dataset.Table, fig int, panel string, w int) (errorBound, bool) {
	figs, panels, wk := t.Ints("figure"), t.Strings("panel"), t.Ints("workers")
	bounds, rel, ver := t.Floats("bound"), t.Strings("relation"), t.Strings("version")
	def, found := errorBound{}, false
	for i := range figs {
		if int(figs[i]) != fig || ver[i] != boundVersion {
			continue
		}
		b := errorBound{pct: bounds[i], strict: rel[i] == "<"}
		if panel != "" && panels[i] == panel && int(wk[i]) == w {
			return b, true
		}
		if panels[i] == "" && wk[i] == 0 {
			def, found = b, true
		}
	}
	return def, found
}

// transportName and orderName map the simulator's names to the
// measurement schema's.
var (
	transportName = map[string]string{"multiplex": "multiplexed", "whole": "ordered"}
	orderName     = map[string]string{"fifo": "default", "tic": "tic", "reverse-tic": "reverse", "random": "random"}
)

// measPoint is a measured throughput and its standard deviation over
// repetitions, examples/s, and the testbed's judgement of it (a zero
// Verdict without a points input).
type measPoint struct {
	tput, std float64
	pt        measured.Point
	modes     []measured.Mode // its operating modes (a modes input), if any
}

// judged reports whether the point can judge a model: it holds its
// testbed judgement, or there is none to hold.
func (m measPoint) judged() bool { return m.pt.Verdict == "" || m.pt.Holds() }

// ci is the relative 95% half-width of the measurement, 0 when unknown.
func (m measPoint) ci() float64 {
	if m.pt.CI >= 0 {
		return m.pt.CI
	}
	return 0
}

// loadMeasured reads the measurements of a case: its input case.measured,
// or the experiment's input "measured" (dataset.MeasurementSchema), rows
// with the case's measured model, batch, PS count, asp, transport and
// order, by W. Tables are read once per run (cache). Nil without input.
func loadMeasured(env *experiment.Env, c *tputCase, cache map[string]*dataset.Table) (map[int]measPoint, error) {
	input := c.Measured
	if input == "" {
		if !env.HasInput("measured") {
			return nil, nil
		}
		input = "measured"
	}
	mt, ok := cache[input]
	if !ok {
		var err error
		if mt, err = env.Input(input, dataset.MeasurementSchema); err != nil {
			return nil, err
		}
		cache[input] = mt
	}
	model, batch, ps, sync := mt.Strings("model"), mt.Ints("batch"), mt.Ints("ps"), mt.Strings("sync")
	transport, order, workers := mt.Strings("transport"), mt.Strings("order"), mt.Ints("workers")
	tput, std := mt.Floats("throughput"), mt.Floats("throughput_std")
	out := map[int]measPoint{}
	for i := range model {
		if model[i] != c.MeasuredModel || int(batch[i]) != c.Batch || int(ps[i]) != c.Servers || sync[i] != "asp" ||
			transport[i] != transportName[c.Transport] || order[i] != orderName[c.Order] {
			continue
		}
		w := int(workers[i])
		if _, dup := out[w]; dup {
			return nil, fmt.Errorf("measured: two rows for %s, batch %d, %d PS, %d workers, %s/%s; keep one per configuration",
				c.MeasuredModel, c.Batch, c.Servers, w, transport[i], order[i])
		}
		if !(tput[i] > 0) {
			return nil, fmt.Errorf("measured: row %d (%s, %d workers): throughput %v examples/s; a relative error needs > 0", i, c.MeasuredModel, w, tput[i])
		}
		out[w] = measPoint{tput: tput[i], std: std[i]}
	}
	if c.Points == "" {
		return out, nil
	}
	pt, err := env.Input(c.Points, nil)
	if err != nil {
		return nil, err
	}
	points, err := measured.ReadPoints(pt)
	if err != nil {
		return nil, env.Spec.Errorf([]string{"inputs", c.Points}, "input %q: %v", c.Points, err)
	}
	for _, w := range slices.Sorted(maps.Keys(out)) { // the first missing W, always the same
		m := out[w]
		j, ok := points[w]
		if !ok {
			return nil, env.Spec.Errorf([]string{"inputs", c.Points}, "input %q has no point for W = %d of case %q", c.Points, w, c.ID)
		}
		m.pt = j
		out[w] = m
	}
	if c.Modes == "" {
		return out, nil
	}
	mdt, err := env.Input(c.Modes, nil)
	if err != nil {
		return nil, err
	}
	modes, err := measured.ReadModes(mdt)
	if err != nil {
		return nil, env.Spec.Errorf([]string{"inputs", c.Modes}, "input %q: %v", c.Modes, err)
	}
	for _, w := range slices.Sorted(maps.Keys(modes)) {
		ms := modes[w]
		m, ok := out[w]
		if !ok {
			return nil, env.Spec.Errorf([]string{"inputs", c.Modes}, "input %q has modes for W = %d, which case %q did not measure", c.Modes, w, c.ID)
		}
		m.modes = ms
		out[w] = m
	}
	return out, nil
}

// relErr is (pred − meas)/meas of the case at W, and whether W is measured.
func (cv *tputCurve) relErr(w int, pred float64) (float64, bool) {
	m, ok := cv.meas[w]
	if !ok {
		return 0, false
	}
	return (pred - m.tput) / m.tput, true
}

// errStats are the max and mean |relative error| in percent over the
// measured worker counts that can judge a model (measPoint.judged), and
// their number.
func (cv *tputCurve) errStats(ws []int, y []float64) (worst, mean float64, n int) {
	for i, w := range ws {
		if !cv.meas[w].judged() {
			continue
		}
		if r, ok := cv.relErr(w, y[i]); ok {
			e := 100 * math.Abs(r)
			worst, mean, n = math.Max(worst, e), mean+e, n+1
		}
	}
	if n > 0 {
		mean /= float64(n)
	}
	return worst, mean, n
}

// emitMeasured draws a case's measurements (error bars: ± one standard
// deviation over repetitions; with a points input the 95% interval over
// repetitions, the points that do not hold their testbed judgement as a
// series of their own, and each operating mode of a modes input) and
// records, in percent of |pred − meas|/meas over the measured W that can
// judge a model (measPoint.judged; with a points input also
// measured.judged.<id> and measured.unjudged.<id>, how many do and do
// not): error.max.<id>, error.mean.<id> and error.points.<id>
// for the simulator; error_<model>.max/mean.<id> for each coarse model,
// drawn or not (lin with 1 PS, cynthia, cynthia_halved); with input "error_bounds" and
// params.figure, error.excess.<id>, the largest simulator error minus the
// paper's version-000 bound for (panel, W) in percentage points (≤ 0 when
// every point meets it) with its 95% interval (errInterval), and
// error.violations.<id>, the points that miss it;
// sim_advantage_<model>.<id>, the coarse model's mean error minus the
// simulator's (percentage points, > 0 when the simulator is closer to the
// measurements); knee_measured.<id> when every W is measured; and
// cynthia_over_measured_max.<id>, the largest Cynthia/measured ratio
// (icpe20 §4.4 says Cynthia predicts below the measurement).
func (p *tputParams) emitMeasured(env *experiment.Env, res *experiment.Result, cv *tputCurve, ws []int, bt *dataset.Table) error {
	if len(cv.meas) == 0 {
		if cv.meas != nil {
			res.Note("%s: no measurement of %s, batch %d, %d PS, %s/%s", cv.c.Label, cv.c.MeasuredModel, cv.c.Batch, cv.c.Servers, transportName[cv.c.Transport], orderName[cv.c.Order])
		}
		return nil
	}
	c, id := cv.c, cv.c.ID
	var my []float64
	judged := 0.0
	for _, w := range ws {
		m, ok := cv.meas[w]
		if !ok {
			continue
		}
		switch {
		case m.pt.Verdict == "":
			res.PointRange(c.Label, "measurement", dataset.Measured, float64(w), m.tput, m.tput-m.std, m.tput+m.std)
		case m.pt.Holds():
			h := m.ci() * m.tput
			res.PointRange(c.Label, "measurement", dataset.Measured, float64(w), m.tput, m.tput-h, m.tput+h)
		default:
			h := m.ci() * m.tput
			res.PointRange(c.Label+": "+m.pt.Verdict, "measurement", dataset.Measured, float64(w), m.tput, m.tput-h, m.tput+h)
			res.Note("%s: measured W = %d: testbed verdict %q (points.arrow), drawn apart, judges no model", c.Label, w, m.pt.Verdict)
		}
		if m.pt.Modes > 1 {
			res.Note("%s: measured W = %d settles in %d operating modes over %d repetitions (modes.arrow); the models are judged against their mixture's mean", c.Label, w, m.pt.Modes, m.pt.Repetitions)
		}
		for k, md := range m.modes {
			h := 0.0
			if md.CI >= 0 {
				h = md.CI * md.Throughput
			}
			res.PointRange(c.Label+": operating modes", "measurement", dataset.Measured, float64(w), md.Throughput, md.Throughput-h, md.Throughput+h)
			res.Note("%s: measured W = %d mode %d: %.4g examples/s in %.0f%% of the runs, step-start synchrony %.2f", c.Label, w, k, md.Throughput, 100*md.Frequency, md.Synchrony)
		}
		my = append(my, m.tput)
		if m.pt.Verdict != "" {
			judged += b2f(m.judged())
		}
	}
	if c.Points != "" {
		// How many measured points hold their testbed judgement: the
		// claims below are judged on those only.
		res.Metric("measured.judged."+id, judged)
		res.Metric("measured.unjudged."+id, float64(len(my))-judged)
	}
	if len(my) == len(ws) {
		k, _ := predict.Knee(ws, my, p.KneeEpsilon)
		res.Metric("knee_measured."+id, float64(k))
	}
	for key, y := range cv.coarseY {
		worst, mean, n := cv.errStats(ws, y)
		if n > 0 {
			res.Metric("error_"+key+".max."+id, worst)
			res.Metric("error_"+key+".mean."+id, mean)
			if cv.sim != nil {
				_, simMean, _ := cv.errStats(ws, cv.sim)
				res.Metric("sim_advantage_"+key+"."+id, mean-simMean)
			}
		}
		if key == "cynthia" {
			hi := 0.0
			for i, w := range ws {
				if m, ok := cv.meas[w]; ok {
					hi = math.Max(hi, y[i]/m.tput)
				}
			}
			res.Metric("cynthia_over_measured_max."+id, hi)
		}
	}
	if cv.sim == nil {
		return nil
	}
	worst, mean, n := cv.errStats(ws, cv.sim)
	if n == 0 {
		return nil
	}
	res.Metric("error.max."+id, worst)
	res.Metric("error.mean."+id, mean)
	res.Metric("error.points."+id, float64(n))
	res.Note("%s: simulator error vs measurement: max %.1f%%, mean %.1f%% over %d worker counts", c.Label, worst, mean, n)
	if bt == nil {
		return nil
	}
	excess, lo, hi, violations := math.Inf(-1), math.Inf(-1), math.Inf(-1), 0
	for i, w := range ws {
		m, ok := cv.meas[w]
		if !ok || !m.judged() {
			continue
		}
		b, ok := boundFor(bt, p.Figure, c.Panel, w)
		if !ok {
			return env.Errorf("figure", "error_bounds has no version-%s bound for Fig. %d", boundVersion, p.Figure)
		}
		ie := cv.errInterval(i, w)
		e, eLo, eHi := ie.Abs()
		excess, lo, hi = math.Max(excess, 100*e-b.pct), math.Max(lo, 100*eLo-b.pct), math.Max(hi, 100*eHi-b.pct)
		if !b.holds(100 * e) {
			violations++
			ci := ""
			if eLo < e || eHi > e {
				ci = fmt.Sprintf(" [%.1f%%, %.1f%%]", 100*eLo, 100*eHi)
			}
			res.Note("%s: W = %d error %.1f%%%s misses the paper's bound %.3g%% (Fig. %d%s)", c.Label, w, 100*e, ci, b.pct, p.Figure, c.Panel)
		}
	}
	if cv.est != nil || c.Points != "" {
		res.MetricInterval("error.excess."+id, excess, lo, hi)
	} else {
		res.Metric("error.excess."+id, excess) // no interval to judge on
	}
	res.Metric("error.violations."+id, float64(violations))
	return nil
}

// errInterval is the simulator's relative error at sweep index i (W = w)
// with its 95% interval (measured.NewRelError): the converged estimate's
// half-width (0 for the paper procedure) against the measurement's over
// repetitions (0 when unknown).
func (cv *tputCurve) errInterval(i, w int) measured.RelError {
	hp := 0.0
	if cv.est != nil {
		hp = cv.est[i].HalfWidth
	}
	return measured.NewRelError(cv.sim[i], cv.meas[w].tput, hp, cv.meas[w].ci())
}

// errorBoundsTable reads input "error_bounds" (nil without it).
func (p *tputParams) errorBoundsTable(env *experiment.Env) (*dataset.Table, error) {
	if !env.HasInput("error_bounds") {
		return nil, nil
	}
	if p.Figure == 0 {
		return nil, env.Errorf("figure", "input error_bounds needs params.figure (the paper figure number)")
	}
	return env.Input("error_bounds", errorBounds)
}

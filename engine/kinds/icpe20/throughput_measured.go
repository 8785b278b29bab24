package icpe20

import (
	"fmt"
	"math"

	"pslab/engine/dataset"
	"pslab/engine/experiment"
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

// measPoint is a measured throughput and its standard deviation,
// examples/s.
type measPoint struct{ tput, std float64 }

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
		out[w] = measPoint{tput[i], std[i]}
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
// measured worker counts, and their number.
func (cv *tputCurve) errStats(ws []int, y []float64) (worst, mean float64, n int) {
	for i, w := range ws {
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
// deviation over repetitions) and records, in percent of |pred − meas|/meas
// over the measured W: error.max.<id>, error.mean.<id> and error.points.<id>
// for the simulator; error_<model>.max/mean.<id> for each coarse model,
// drawn or not (lin with 1 PS, cynthia, cynthia_halved); with input "error_bounds" and
// params.figure, error.excess.<id>, the largest simulator error minus the
// paper's version-000 bound for (panel, W) in percentage points (≤ 0 when
// every point meets it), and error.violations.<id>, the points that miss
// it; sim_advantage_<model>.<id>, the coarse model's mean error minus the
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
	for _, w := range ws {
		if m, ok := cv.meas[w]; ok {
			res.PointRange(c.Label, "measurement", dataset.Measured, float64(w), m.tput, m.tput-m.std, m.tput+m.std)
			my = append(my, m.tput)
		}
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
	excess, violations := math.Inf(-1), 0
	for i, w := range ws {
		r, ok := cv.relErr(w, cv.sim[i])
		if !ok {
			continue
		}
		b, ok := boundFor(bt, p.Figure, c.Panel, w)
		if !ok {
			return env.Errorf("figure", "error_bounds has no version-%s bound for Fig. %d", boundVersion, p.Figure)
		}
		e := 100 * math.Abs(r)
		excess = math.Max(excess, e-b.pct)
		if !b.holds(e) {
			violations++
			res.Note("%s: W = %d error %.1f%% misses the paper's bound %.3g%% (Fig. %d%s)", c.Label, w, e, b.pct, p.Figure, c.Panel)
		}
	}
	res.Metric("error.excess."+id, excess)
	res.Metric("error.violations."+id, float64(violations))
	return nil
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

package kinds

import (
	"fmt"
	"math"

	"pslab/engine/dataset"
	"pslab/engine/experiment"
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

// measured draws the measured throughput of each case (its input
// case.measured, or the experiment's input "measured"; a
// dataset.MeasurementSchema table whose rows with the case's measured
// model, batch, PS count, asp, transport and order are used), the
// simulator's signed relative error (pred − meas)/meas at each measured W,
// and the metrics error.max.<id>, error.mean.<id> (percent, |error|) and,
// with input "error_bounds" and params.figure, error.excess.<id>: the
// largest |error| − bound over the measured W in percentage points (≤ 0
// when every point meets the paper's claimed bound, version 000), and
// error.violations.<id>, the number of points that miss it.
func (p *tputParams) measured(env *experiment.Env, res *experiment.Result, curves []*tputCurve, ws []int) error {
	var bt *dataset.Table
	if env.HasInput("error_bounds") {
		if p.Figure == 0 {
			return env.Errorf("figure", "input error_bounds needs params.figure (the paper figure number)")
		}
		var err error
		if bt, err = env.Input("error_bounds", errorBounds); err != nil {
			return err
		}
	}
	tables := map[string]*dataset.Table{}
	for _, cv := range curves {
		c := cv.c
		input := c.Measured
		if input == "" {
			if !env.HasInput("measured") {
				continue
			}
			input = "measured"
		}
		mt, ok := tables[input]
		if !ok {
			var err error
			if mt, err = env.Input(input, dataset.MeasurementSchema); err != nil {
				return err
			}
			tables[input] = mt
		}
		model, batch, ps, sync := mt.Strings("model"), mt.Ints("batch"), mt.Ints("ps"), mt.Strings("sync")
		transport, order, workers := mt.Strings("transport"), mt.Strings("order"), mt.Ints("workers")
		tput, std := mt.Floats("throughput"), mt.Floats("throughput_std")
		idx := map[int]int{}
		for i := range model {
			if model[i] != c.MeasuredModel || int(batch[i]) != c.Batch || int(ps[i]) != c.Servers || sync[i] != "asp" ||
				transport[i] != transportName[c.Transport] || order[i] != orderName[c.Order] {
				continue
			}
			w := int(workers[i])
			if _, dup := idx[w]; dup {
				return fmt.Errorf("measured: two rows for %s, batch %d, %d PS, %d workers, %s/%s; keep one per configuration",
					c.MeasuredModel, c.Batch, c.Servers, w, transport[i], order[i])
			}
			if !(tput[i] > 0) {
				return fmt.Errorf("measured: row %d (%s, %d workers): throughput %v examples/s; a relative error needs > 0", i, c.MeasuredModel, w, tput[i])
			}
			idx[w] = i
		}
		if len(idx) == 0 {
			res.Note("%s: no measurement of %s, batch %d, %d PS, %s/%s", c.Label, c.MeasuredModel, c.Batch, c.Servers, transportName[c.Transport], orderName[c.Order])
			continue
		}
		var sum, worst, excess float64
		n, violations := 0, 0
		excess = math.Inf(-1)
		for k, w := range ws {
			i, ok := idx[w]
			if !ok {
				continue
			}
			res.PointRange(c.Label+": measured", "measurement", dataset.Measured, float64(w), tput[i], tput[i]-std[i], tput[i]+std[i])
			if cv.sim == nil {
				continue
			}
			rel := (cv.sim[k] - tput[i]) / tput[i]
			res.PointError(c.Label+": icpe20 simulator vs measured", "icpe20-simulator", dataset.Derived, float64(w), cv.sim[k], rel)
			e := 100 * math.Abs(rel)
			sum, worst, n = sum+e, math.Max(worst, e), n+1
			if bt != nil {
				b, ok := boundFor(bt, p.Figure, c.Panel, w)
				if !ok {
					return env.Errorf("figure", "error_bounds has no version-%s bound for Fig. %d", boundVersion, p.Figure)
				}
				excess = math.Max(excess, e-b.pct)
				if !b.holds(e) {
					violations++
					res.Note("%s: W = %d error %.1f%% misses the paper's bound %.3g%% (Fig. %d%s)", c.Label, w, e, b.pct, p.Figure, c.Panel)
				}
			}
		}
		if n == 0 {
			continue
		}
		res.Metric("error.max."+c.ID, worst)
		res.Metric("error.mean."+c.ID, sum/float64(n))
		res.Metric("error.points."+c.ID, float64(n))
		if bt != nil {
			res.Metric("error.excess."+c.ID, excess)
			res.Metric("error.violations."+c.ID, float64(violations))
		}
		res.Note("%s: simulator error vs measurement: max %.1f%%, mean %.1f%% over %d worker counts", c.Label, worst, sum/float64(n), n)
	}
	return nil
}

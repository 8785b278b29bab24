package icpe20

import (
	"fmt"
	"math"

	"pslab/engine/dataset"
	"pslab/engine/experiment"
)

// reportedClaims are the columns read from the reported icpe20 claims
// table (datasets/reported/icpe20/claims.arrow).
var reportedClaims = &dataset.Schema{Name: "icpe20-claims", Columns: []dataset.Column{
	{Name: "figure", Type: dataset.String},
	{Name: "metric", Type: dataset.String},
	{Name: "value", Type: dataset.Float64},
	{Name: "unit", Type: dataset.String},
}}

// emitEvents draws, for icpe20 Fig. 22, the number of events the simulator
// processed (bars, millions: all W together at the simulated N, and
// extrapolated to ExtrapolateSteps) and records:
//
//   - events.<id>.W<w>: events simulated with N steps per worker;
//   - events_per_step.<id> and events_per_step_spread.<id>: events per
//     simulated step, E = events/(W·N), and (max − min)/mean of E over
//     the sweep. Each step of a trace has the same ops and each stream is
//     cut into chunks by its size alone, so E is a constant of the trace
//     and the spread is 0;
//   - events_simulated.<id>: the events of all W at N steps;
//   - events_extrapolated.<id>: E · ExtrapolateSteps · ΣW, the events of
//     the paper's 1000 steps for every W (derived from E, not simulated:
//     the 1000-step run is BenchmarkFig22's).
func (p *tputParams) emitEvents(res *experiment.Result, cv *tputCurve, ws []int) {
	id := cv.c.ID
	lo, hi, sum, total, sumW := math.Inf(1), math.Inf(-1), 0.0, 0.0, 0
	for i, w := range ws {
		r := cv.runs[i]
		res.Metric(fmt.Sprintf("events.%s.W%d", id, w), float64(r.Events))
		e := float64(r.Events) / float64(r.Steps)
		lo, hi, sum, total, sumW = math.Min(lo, e), math.Max(hi, e), sum+e, total+float64(r.Events), sumW+w
	}
	mean := sum / float64(len(ws))
	ext := mean * float64(p.ExtrapolateSteps) * float64(sumW)
	res.Metric("events_per_step."+id, mean)
	res.Metric("events_per_step_spread."+id, (hi-lo)/mean)
	res.Metric("events_simulated."+id, total)
	res.Metric("events_extrapolated."+id, ext)
	name := fmt.Sprintf("pslab: simulator events, %s, W = %d..%d (millions)", cv.c.Label, ws[0], ws[len(ws)-1])
	res.Bar(name, fmt.Sprintf("sim N=%d", cv.c.Steps), "icpe20-simulator", dataset.Derived, total/1e6)
	res.Bar(name, fmt.Sprintf("sim N=%d (E·N·ΣW)", p.ExtrapolateSteps), "icpe20-simulator", dataset.Derived, ext/1e6)
	res.Note("%s: %.6g events per simulated step; %d steps for W = %d..%d are %.4g million events", cv.c.Label, mean, p.ExtrapolateSteps, ws[0], ws[len(ws)-1], ext/1e6)
}

// emitReported draws the reported numbers named in [[params.reported]]
// (from input "claims") as bars of their own series, one per unit.
func (p *tputParams) emitReported(env *experiment.Env, res *experiment.Result) error {
	if len(p.Reported) == 0 {
		return nil
	}
	t, err := env.Input("claims", reportedClaims)
	if err != nil {
		return err
	}
	fig, metric, val, unit := t.Strings("figure"), t.Strings("metric"), t.Floats("value"), t.Strings("unit")
	for _, r := range p.Reported {
		found := false
		for i := range fig {
			if fig[i] != r.Figure || metric[i] != r.Metric {
				continue
			}
			if found {
				return env.Errorf("reported", "two rows for %s %s in the claims table", r.Figure, r.Metric)
			}
			found = true
			label := r.Label
			if label == "" {
				label = r.Metric
			}
			res.Bar(fmt.Sprintf("icpe20 [000] %s, runtime (%s)", r.Figure, unit[i]), label, "paper", dataset.Reported, val[i])
			res.Metric("reported."+r.Metric, val[i])
		}
		if !found {
			return env.Errorf("reported", "no row %s %s in the claims table", r.Figure, r.Metric)
		}
	}
	return nil
}

// reportedPanels are the columns read from a reported panel table
// (datasets/reported/icpe20/fig25_panels.arrow).
var reportedPanels = &dataset.Schema{Name: "icpe20-panels", Columns: []dataset.Column{
	{Name: "panel", Type: dataset.String},
	{Name: "dnn", Type: dataset.String},
	{Name: "batch", Type: dataset.Int64, Rule: dataset.Positive, Unit: "examples"},
}}

// checkPanels requires, with input "panels", that every case naming a
// panel runs the batch size printed for it, and notes the printed DNN
// next to the profile standing in for it.
func (p *tputParams) checkPanels(env *experiment.Env, res *experiment.Result) error {
	if !env.HasInput("panels") {
		return nil
	}
	t, err := env.Input("panels", reportedPanels)
	if err != nil {
		return err
	}
	panels, dnns, batches := t.Strings("panel"), t.Strings("dnn"), t.Ints("batch")
	for _, c := range p.Cases {
		if c.Panel == "" {
			continue
		}
		i, err := t.RowOf("panel", c.Panel)
		if err != nil {
			return env.Errorf("case", "case %q: %v", c.ID, err)
		}
		if int(batches[i]) != c.Batch {
			return env.Errorf("case", "case %q: batch %d, but panel (%s) prints %s at batch %d", c.ID, c.Batch, panels[i], dnns[i], batches[i])
		}
		res.Note("%s: panel (%s) is %s at batch %d; profile %s", c.Label, panels[i], dnns[i], batches[i], c.Model)
	}
	return nil
}

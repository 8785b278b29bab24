package predict

import (
	"fmt"
	"strconv"

	"pslab/engine/dataset"
)

// TrustData is the evidence Report draws each model's trust band from.
type TrustData struct {
	// Points are the measured errors (TrustPoints of the accuracy tables);
	// Rule selects those that resemble a prediction.
	Points []TrustPoint
	Rule   TrustRule
	// Sources names the tables the points were read from; Missing says why
	// there are none (e.g. a clone without figures/), "" when loaded.
	Sources []string
	Missing string
}

// trust returns model m's band at row i of p, and whether trust data were
// loaded at all.
func (r *Report) trust(p *Prediction, m Model, i int) (Trust, bool) {
	if r.Trust == nil || r.Trust.Missing != "" {
		return Trust{}, false
	}
	return r.Trust.Rule.Band(r.Trust.Points, m, p.Sync, p.Workers[i], p.Ratio()), true
}

// trustNote is the line that says where the bands come from, or why there
// are none.
func (r *Report) trustNote() string {
	switch {
	case r.Trust == nil:
		return ""
	case r.Trust.Missing != "":
		return "trust: no trust band (" + r.Trust.Missing + ")"
	}
	ru := r.Trust.Rule
	return fmt.Sprintf("trust: each model's measured |error| on the in-budget points of %v with the same sync mode, W within ×%g and compute/communication ratio within ×%g of the query's (%d points held)",
		r.Trust.Sources, ru.WorkersFactor, ru.RatioFactor, len(r.Trust.Points))
}

// trustSuffix is what follows model m's number at row i in the text table:
// its band and, above the link bound, a marker.
func (r *Report) trustSuffix(p *Prediction, m Model, i int) string {
	s := ""
	if t, ok := r.trust(p, m, i); ok {
		s = " " + t.String()
	}
	if p.AboveLinkBound(m, i) {
		s += " !above link bound"
	}
	return s
}

// trustHeader are the CSV columns of trustCells.
var trustHeader = []string{"trust_mean_abs_err_pct", "trust_max_abs_err_pct", "trust_points", "above_link_bound"}

// trustCells are model m's trust columns at row i of p: mean and max
// |error| in percent (empty without comparable points), the number of
// points (empty without trust data) and whether the prediction is above
// the link bound.
func (r *Report) trustCells(p *Prediction, m Model, i int) []string {
	out := []string{"", "", "", strconv.FormatBool(p.AboveLinkBound(m, i))}
	if t, ok := r.trust(p, m, i); ok {
		out[2] = strconv.Itoa(t.N)
		if t.N > 0 {
			out[0], out[1] = strconv.FormatFloat(100*t.MeanAbs, 'g', -1, 64), strconv.FormatFloat(100*t.MaxAbs, 'g', -1, 64)
		}
	}
	return out
}

// Bands returns, per series of Result with comparable measurements, the
// mean |error| of its points' bands (a fraction), for a figure to shade
// ± that around the curve.
func (r *Report) Bands() map[string]float64 {
	out := map[string]float64{}
	for _, p := range r.Runs {
		for _, c := range p.Curves {
			var sum float64
			n := 0
			for i := range p.Workers {
				if t, ok := r.trust(p, c.Model, i); ok && t.N > 0 {
					sum, n = sum+t.MeanAbs, n+1
				}
			}
			if n > 0 {
				out[SeriesFor(p.Bandwidth, c.Model, p.Sync)] = sum / float64(n)
			}
		}
	}
	return out
}

// exportSchema is dataset.ResultSchema with the units and labels of
// predict's axes (x: workers, y and its interval: examples/s) and the
// trust columns.
var exportSchema = func() *dataset.Schema {
	s := *dataset.ResultSchema.WithColumn("x", "count", "workers W (nodes)").
		WithColumn("y", "examples/s", "throughput (examples/s)").
		WithColumn("y_lo", "examples/s", "").WithColumn("y_hi", "examples/s", "")
	s.Columns = append(append([]dataset.Column{}, s.Columns...),
		dataset.Column{Name: "trust_mean_abs_err_pct", Type: dataset.Float64, Unit: "%", Doc: "mean |error| of the model on comparable measured points (−1: none)"},
		dataset.Column{Name: "trust_max_abs_err_pct", Type: dataset.Float64, Unit: "%", Doc: "largest |error| of the model on comparable measured points (−1: none)"},
		dataset.Column{Name: "trust_points", Type: dataset.Int64, Doc: "comparable measured points (−1: no trust data)"},
		dataset.Column{Name: "above_link_bound", Type: dataset.Int64, Doc: "1 when the prediction exceeds the link bound"})
	return &s
}()

// Export returns Result's table with four more columns per row (the
// trust band and the link-bound flag of the row's model and W; −1 where
// there is no band, and on measured rows): the Arrow output of pslab
// predict.
func (r *Report) Export() (*dataset.Table, []string, error) {
	res := r.Result()
	t := dataset.NewTable(exportSchema, res.Table.Provenance)
	type key struct {
		series string
		w      int
	}
	extra := map[key][]any{}
	for _, p := range r.Runs {
		for _, c := range p.Curves {
			for i, w := range p.Workers {
				mean, hi, n, above := -1.0, -1.0, int64(-1), int64(0)
				if tr, ok := r.trust(p, c.Model, i); ok {
					n = int64(tr.N)
					if tr.N > 0 {
						mean, hi = 100*tr.MeanAbs, 100*tr.MaxAbs
					}
				}
				if p.AboveLinkBound(c.Model, i) {
					above = 1
				}
				extra[key{SeriesFor(p.Bandwidth, c.Model, p.Sync), w}] = []any{mean, hi, n, above}
			}
		}
	}
	rt := res.Table
	for i := range rt.Len() {
		row := make([]any, 0, len(exportSchema.Columns))
		for _, c := range dataset.ResultSchema.Columns {
			switch c.Type {
			case dataset.Float64:
				row = append(row, rt.Floats(c.Name)[i])
			default:
				row = append(row, rt.Strings(c.Name)[i])
			}
		}
		e, ok := extra[key{rt.Strings("series")[i], int(rt.Floats("x")[i])}]
		if !ok {
			e = []any{-1.0, -1.0, int64(-1), int64(0)}
		}
		if err := t.Append(append(row, e...)...); err != nil {
			return nil, nil, err
		}
	}
	return t, res.Notes, nil
}

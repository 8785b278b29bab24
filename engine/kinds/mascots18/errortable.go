package mascots18

import (
	"context"
	"fmt"
	"math"
	"slices"

	"pslab/engine/dataset"
	"pslab/engine/experiment"
)

// errorTable is a reported throughput-error summary such as mascots18
// Table II: per DNN row and model variant, the max, mean and min error (%).
var errorTable = &dataset.Schema{Name: "error table", Columns: []dataset.Column{
	{Name: "dnn", Type: dataset.String},
	{Name: "mva", Type: dataset.String},
	{Name: "max", Type: dataset.Float64, Rule: dataset.NonNegative, Unit: "%"},
	{Name: "mean", Type: dataset.Float64, Rule: dataset.NonNegative, Unit: "%"},
	{Name: "min", Type: dataset.Float64, Rule: dataset.NonNegative, Unit: "%"},
}}

type errorTableParams struct {
	// Compare is a pair of variants [a, b]: the metrics max_diff_<col>.a.b
	// are the largest (a − b) over the rows, per column.
	Compare []string
	// Labels shortens row names on the x axis (row name → label).
	Labels map[string]string
}

// errorTableBars renders an error table as bars of the mean error per row
// (category) and variant (series), and records per variant the largest
// value of each column over the rows (max_of_<col>.<variant>) and the
// largest difference between two variants (max_diff_<col>.<a>.<b>).
func errorTableBars(_ context.Context, env *experiment.Env) (*experiment.Result, error) {
	var p errorTableParams
	if err := env.Params(&p); err != nil {
		return nil, err
	}
	t, err := env.Input("errors", errorTable)
	if err != nil {
		return nil, err
	}
	dnn, variant := t.Strings("dnn"), t.Strings("mva")
	cols := []string{"max", "mean", "min"}
	// value[col][variant][dnn]
	value := map[string]map[string]map[string]float64{}
	var variants, rows []string
	for _, c := range cols {
		value[c] = map[string]map[string]float64{}
	}
	seenVariant, seenRow := map[string]bool{}, map[string]bool{}
	for i := range dnn {
		if !seenVariant[variant[i]] {
			seenVariant[variant[i]] = true
			variants = append(variants, variant[i])
		}
		if !seenRow[dnn[i]] {
			seenRow[dnn[i]] = true
			rows = append(rows, dnn[i])
		}
		for _, c := range cols {
			if value[c][variant[i]] == nil {
				value[c][variant[i]] = map[string]float64{}
			}
			if _, dup := value[c][variant[i]][dnn[i]]; dup {
				return nil, env.Spec.Errorf([]string{"inputs", "errors"}, "error table has two rows for %q, %q", dnn[i], variant[i])
			}
			value[c][variant[i]][dnn[i]] = t.Floats(c)[i]
		}
	}
	// One pass over the table (above), then a bar per (variant, row) pair
	// that has a value and the maxima and comparisons: bound the pairs
	// visited and the lines written before drawing.
	n, pairs := float64(len(dnn)), float64(len(variants))*float64(len(rows))
	if err := env.CheckRows([]string{"inputs", "errors"}, 7*n+pairs, n+3*float64(len(variants))+8,
		fmt.Sprintf("error-table: %d rows, %d variants × %d table rows", len(dnn), len(variants), len(rows))); err != nil {
		return nil, err
	}
	env.CountModelWork(4*n + pairs) // the pass, the pairs, the maxima (and the comparison below)
	for d := range p.Labels {
		if !seenRow[d] {
			return nil, env.Errorf("labels", "label for %q, which is not a row of the table %v", d, rows)
		}
	}
	res := experiment.NewResult()
	for _, v := range variants {
		for _, d := range rows {
			if y, ok := value["mean"][v][d]; ok {
				label := d
				if l, ok := p.Labels[d]; ok {
					label = l
				}
				res.Bar(v+" MVA, mean error", label, v, dataset.Reported, y)
			}
		}
		for _, c := range cols {
			m := math.Inf(-1)
			for _, y := range value[c][v] {
				m = math.Max(m, y)
			}
			res.Metric(fmt.Sprintf("max_of_%s.%s", c, v), m)
		}
	}
	if len(p.Compare) > 0 {
		if len(p.Compare) != 2 || !slices.Contains(variants, p.Compare[0]) || !slices.Contains(variants, p.Compare[1]) {
			return nil, env.Errorf("compare", "compare %v: want two of the table's variants %v", p.Compare, variants)
		}
		a, b := p.Compare[0], p.Compare[1]
		env.CountModelWork(3 * float64(len(rows)))
		for _, c := range cols {
			d, worst := math.Inf(-1), ""
			for _, row := range rows {
				ya, okA := value[c][a][row]
				yb, okB := value[c][b][row]
				if okA && okB && ya-yb > d {
					d, worst = ya-yb, row
				}
			}
			res.Metric(fmt.Sprintf("max_diff_%s.%s.%s", c, a, b), d)
			res.Note("largest %s(%s) − %s(%s) = %g points, row %q", c, a, c, b, d, worst)
		}
	}
	res.Note("reported values from %s, as printed", env.Spec.Inputs["errors"])
	return res, nil
}

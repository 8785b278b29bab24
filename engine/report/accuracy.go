package report

import (
	"sort"
	"strconv"
	"strings"
)

// Accuracy is the model-accuracy table: every model against every
// measured configuration, from the metrics error.mean.<config>.<model> and
// error.max.<config>.<model> (percent) of the accuracy experiment, each
// cell coloured by the paper checks on its metrics.
type Accuracy struct {
	Experiment *Experiment
	Models     []string
	Rows       []AccuracyRow
	// Bounds lists, per model, the paper claims its cells are judged by.
	Bounds []Claim
}

// AccuracyRow is one measured configuration.
type AccuracyRow struct {
	Config string
	Cells  []AccuracyCell
}

// AccuracyCell is one model on one configuration.
type AccuracyCell struct {
	Mean, Max string // percent, "" when the model does not apply
	// Class is "ok" (every paper bound on the cell holds), "miss" (one is
	// missed), "nobound" (no paper bound) or "na" (no value).
	Class string
	// Bound describes the paper bounds, e.g. "mean ≤ 10".
	Bound string
}

// newAccuracy builds the table from the accuracy experiment.
func newAccuracy(e *Experiment) *Accuracy {
	a := &Accuracy{Experiment: e}
	checks := map[string][]CheckRow{}
	for _, c := range e.Checks {
		if c.Class == "paper" {
			checks[c.Name] = append(checks[c.Name], c)
		}
	}
	configs, models := map[string]bool{}, map[string]bool{}
	for k := range e.Run.Metrics {
		rest, ok := strings.CutPrefix(k, "error.mean.")
		if !ok {
			continue
		}
		i := strings.LastIndex(rest, ".")
		if i <= 0 {
			continue
		}
		configs[rest[:i]], models[rest[i+1:]] = true, true
	}
	a.Models = sortedKeys(models)
	bounds := map[string]bool{}
	cfgs := sortedKeys(configs)
	// The aggregate row ("all"), if the experiment records one, goes last.
	sort.SliceStable(cfgs, func(i, j int) bool { return cfgs[i] != "all" && cfgs[j] == "all" })
	for _, cfg := range cfgs {
		row := AccuracyRow{Config: cfg}
		for _, m := range a.Models {
			cell := AccuracyCell{Class: "na"}
			key := cfg + "." + m
			mean, ok := e.Run.Metrics["error.mean."+key]
			if ok {
				cell.Mean, cell.Class = num1(float64(mean)), "nobound"
			}
			if mx, ok := e.Run.Metrics["error.max."+key]; ok {
				cell.Max = num1(float64(mx))
			}
			var bs []string
			for _, stat := range []string{"mean", "max"} {
				for _, c := range checks["error."+stat+"."+key] {
					bs = append(bs, stat+" "+opSign(c.Op)+" "+c.Expected)
					bounds[m+"\x00"+c.Source] = true
					if cell.Class == "nobound" || cell.Class == "ok" {
						cell.Class = "ok"
					}
					if c.Result != "pass" {
						cell.Class = "miss"
					}
				}
			}
			cell.Bound = strings.Join(bs, ", ")
			row.Cells = append(row.Cells, cell)
		}
		a.Rows = append(a.Rows, row)
	}
	for _, k := range sortedKeys(bounds) {
		m, src, _ := strings.Cut(k, "\x00")
		a.Bounds = append(a.Bounds, Claim{Text: m + ": " + src})
	}
	return a
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// num1 formats a percentage with one decimal.
func num1(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }

// opSign is the comparison an op stands for.
func opSign(op string) string {
	switch op {
	case "le":
		return "≤"
	case "ge":
		return "≥"
	case "lt":
		return "<"
	case "gt":
		return ">"
	}
	return "≈"
}

package report

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"pslab/engine/experiment"
	"pslab/engine/golden"
)

// Accuracy is the model-accuracy table: every model against every
// measured configuration, from the metrics error.mean.<config>.<model> and
// error.max.<config>.<model> (percent) of the accuracy experiment, each
// cell shaded by the paper bounds on its model.
type Accuracy struct {
	Experiment *Experiment
	Models     []string
	// Rows are the measured configurations, by name.
	Rows []AccuracyRow
	// Summaries are the experiment's aggregate rows (error.mean.all.*,
	// error.mean.host_limited.*, ...: means over groups of
	// configurations), the table's footer.
	Summaries []AccuracyRow
	// Bounds lists, per model, the paper bounds its cells are shaded by.
	Bounds []BoundItem
}

// AccuracyRow is one measured configuration, or one summary over several.
type AccuracyRow struct {
	Config string
	// Label says what a summary row averages ("" on a configuration).
	Label string
	// HostLimited is "yes" or "no", the testbed's configuration-wide
	// verdict (metric host_limited.<config>), "" when unrecorded; Cause is
	// its testbed.acct.host_limited_cause.
	HostLimited, Cause string
	// Judged is, for a configuration judged point by point (metrics
	// measured.judged.<config> and measured.unjudged.<config>), how many of
	// its measured points hold their testbed judgement, e.g. "6 of 7"; ""
	// otherwise. Only those points judge a model.
	Judged string
	// Page is the configuration's throughput dataset page ("" if none).
	Page  string
	Cells []AccuracyCell
}

// AccuracyCell is one model on one configuration.
type AccuracyCell struct {
	Mean, Max string // percent, "" when the model does not apply
	// Class is "ok" (every paper bound on the cell holds), "miss" (one is
	// missed), "nobound" (no paper bound on the model) or "na" (no value).
	Class string
	// Bound describes the bounds, e.g. "max ≤ 10"; Title adds their
	// sources.
	Bound, Title string
}

// BoundItem is one paper bound on one model.
type BoundItem struct {
	Model, Bound string
	// Scope says where the bound applies: the configurations whose cells
	// carry it as a check, or every cell (a bound on an average).
	Scope  string
	Source string
}

// modelBound is a paper bound the paper states for a model as a whole
// (on an average over its experiments): the accuracy page applies it to
// every cell of the model that has no bound of its own, marked †.
type modelBound struct {
	stat  string // "mean" or "max": the cell value it applies to
	check *golden.Check
}

// summaryOrder places the known summary rows; others follow by name.
var summaryOrder = map[string]int{"all": 0, "host_limited": 1, "in_budget": 2}

// newAccuracy builds the table from the accuracy experiment.
func newAccuracy(e *Experiment) *Accuracy {
	a := &Accuracy{Experiment: e}
	m := e.Run.Metrics
	rows, models := map[string]bool{}, map[string]bool{}
	for k := range m {
		rest, ok := strings.CutPrefix(k, "error.mean.")
		if i := strings.LastIndex(rest, "."); ok && i > 0 && !strings.HasPrefix(rest[i+1:], "ci95_") {
			rows[rest[:i]], models[rest[i+1:]] = true, true
		}
		if r, ok := strings.CutPrefix(k, "measured.judged."); ok { // a row even if no point judges
			rows[r] = true
		}
	}
	a.Models = sortedKeys(models)
	isConfig := func(r string) bool {
		_, in := e.Spec.Inputs[r]
		_, hl := m["host_limited."+r]
		_, judged := m["measured.judged."+r]
		_, summary := summaryOrder[r]
		return (in || hl || judged) && !summary
	}
	// Paper checks: on a cell (error.<stat>.<row>.<model>), and on a
	// model as a whole (an average, or another metric of the model).
	cellChecks, byModel := map[string][]CheckRow{}, map[string][]modelBound{}
	for _, c := range e.Checks {
		parts := strings.Split(c.Name, ".")
		model := parts[len(parts)-1]
		if c.Class != "paper" || c.check == nil || !models[model] {
			continue
		}
		stat := "mean"
		if strings.Contains(c.Name, ".max.") || strings.HasPrefix(c.Name, "max.") {
			stat = "max"
		}
		if parts[0] == "error" && len(parts) >= 4 {
			row := strings.Join(parts[2:len(parts)-1], ".")
			cellChecks[c.Name] = append(cellChecks[c.Name], c)
			if isConfig(row) {
				continue
			}
		}
		byModel[model] = append(byModel[model], modelBound{stat, c.check})
	}
	uses := map[BoundItem]*boundUse{}
	for _, r := range sortedKeys(rows) {
		row := a.row(r, isConfig(r), cellChecks, byModel, uses)
		if isConfig(r) {
			row.HostLimited, row.Cause, row.Page = hostLimited(e, r)
			if j, ok := m["measured.judged."+r]; ok {
				row.Judged = fmt.Sprintf("%g of %g", float64(j), float64(j+m["measured.unjudged."+r]))
			}
			a.Rows = append(a.Rows, row)
		} else {
			row.Label = summaryLabel(r, m)
			a.Summaries = append(a.Summaries, row)
		}
	}
	sort.SliceStable(a.Summaries, func(i, j int) bool { return rank(a.Summaries[i].Config) < rank(a.Summaries[j].Config) })
	for it, u := range uses {
		var scope []string
		if u.configs > 0 {
			scope = append(scope, fmt.Sprintf("checked on %d configuration%s", u.configs, plural(u.configs)))
		}
		for _, r := range u.summaries {
			scope = append(scope, "checked on the mean over "+summaryLabel(r, m))
		}
		if u.applied {
			scope = append(scope, "† shown against every cell of the model without a check of its own: the paper states it for an average over its experiments"+u.note)
		}
		it.Scope = strings.Join(scope, "; ")
		a.Bounds = append(a.Bounds, it)
	}
	sort.Slice(a.Bounds, func(i, j int) bool {
		x, y := a.Bounds[i], a.Bounds[j]
		return x.Model < y.Model || x.Model == y.Model && (x.Source < y.Source || x.Source == y.Source && x.Bound < y.Bound)
	})
	return a
}

// boundUse records where a bound shades cells: the configurations and the
// summary rows whose cells it is checked on, and whether it is applied to
// the model's other cells (note: the metric pslab checks it on, if not an
// error.* one).
type boundUse struct {
	configs   int
	summaries []string
	applied   bool
	note      string
}

// row builds the cells of row r (a configuration if config), recording in
// uses where each bound applies.
func (a *Accuracy) row(r string, config bool, cellChecks map[string][]CheckRow, byModel map[string][]modelBound, uses map[BoundItem]*boundUse) AccuracyRow {
	m := a.Experiment.Run.Metrics
	use := func(it BoundItem) *boundUse {
		if uses[it] == nil {
			uses[it] = &boundUse{}
		}
		return uses[it]
	}
	row := AccuracyRow{Config: r}
	for _, model := range a.Models {
		cell := AccuracyCell{Class: "na"}
		key := r + "." + model
		vals := map[string]float64{}
		if v, ok := m["error.mean."+key]; ok {
			vals["mean"], cell.Mean, cell.Class = float64(v), num1(float64(v)), "nobound"
		}
		if v, ok := m["error.max."+key]; ok {
			vals["max"], cell.Max = float64(v), num1(float64(v))
		}
		var bs, titles []string
		judge := func(holds bool) {
			if cell.Class == "nobound" {
				cell.Class = "ok"
			}
			if !holds {
				cell.Class = "miss"
			}
		}
		own := false
		for _, stat := range []string{"mean", "max"} {
			for _, c := range cellChecks["error."+stat+"."+key] {
				own = true
				b := stat + " " + opSign(c.Op) + " " + c.Expected
				bs, titles = append(bs, b), append(titles, b+": "+c.Source)
				judge(c.Result == "pass")
				u := use(BoundItem{Model: model, Bound: b, Source: c.Source})
				if config {
					u.configs++
				} else {
					u.summaries = append(u.summaries, r)
				}
			}
		}
		for _, mb := range byModel[model] {
			v, ok := vals[mb.stat]
			if own || !ok {
				continue
			}
			c := mb.check
			b := mb.stat + " " + opSign(c.Op) + " " + num(c.Expected)
			u := use(BoundItem{Model: model, Bound: b, Source: c.Source})
			u.applied = true
			if !strings.HasPrefix(c.Metric, "error.") {
				u.note = " (pslab checks it on " + c.Metric + ")"
			}
			bs, titles = append(bs, b+" †"), append(titles, b+" † (the paper's bound on an average, applied to this row): "+c.Source)
			judge(c.Holds(v))
		}
		cell.Bound, cell.Title = strings.Join(bs, ", "), strings.Join(titles, "\n")
		row.Cells = append(row.Cells, cell)
	}
	return row
}

// hostLimited returns the testbed's verdict on configuration r, its cause
// and the page of its throughput dataset.
func hostLimited(e *Experiment, r string) (verdict, cause, page string) {
	switch v, ok := e.Run.Metrics["host_limited."+r]; {
	case !ok:
	case v != 0:
		verdict = "yes"
	default:
		verdict = "no"
	}
	for _, in := range e.Inputs {
		if in.Name != r {
			continue
		}
		for _, d := range in.Datasets {
			if strings.HasSuffix(d.Rel, "/throughput.arrow") {
				cause, page = d.meta["testbed.acct.host_limited_cause"], d.Page()
			}
		}
	}
	return verdict, cause, page
}

// summaryLabel says what summary row r averages.
func summaryLabel(r string, m map[string]experiment.Float) string {
	n := func(k string) string {
		if v, ok := m["datasets."+k]; ok {
			return strconv.FormatFloat(float64(v), 'g', -1, 64) + " "
		}
		return ""
	}
	switch r {
	case "all":
		return "all configurations"
	case "host_limited":
		return "the " + n(r) + "host-limited configurations"
	case "in_budget":
		return "the " + n(r) + "configurations within the host budget"
	}
	return "configurations " + r
}

func rank(r string) int {
	if i, ok := summaryOrder[r]; ok {
		return i
	}
	return len(summaryOrder)
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
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

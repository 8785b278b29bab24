package main

import (
	"fmt"
	"io"
	"strconv"

	"pslab/engine/cynthia"
)

// provisionOutput is the -format json document of `pslab provision`.
type provisionOutput struct {
	Workload string           `json:"workload"`
	Sync     string           `json:"sync"`
	Model    string           `json:"model"`
	Loss     float64          `json:"loss_goal"`
	TimeMin  float64          `json:"time_goal_min"`
	Beta0    float64          `json:"beta0"`
	Beta1    float64          `json:"beta1"`
	Plan     *provisionPlan   `json:"plan"` // null when no plan is feasible
	Search   []provisionTypes `json:"search"`
}

// provisionPlan is the chosen plan; times in minutes and seconds as named.
type provisionPlan struct {
	Instance        string  `json:"instance"`
	PricePerHour    float64 `json:"price_usd_per_h"`
	Workers         int     `json:"workers"`
	PS              int     `json:"ps"`
	Iterations      int     `json:"iterations"`
	TotalIterations int     `json:"total_iterations"`
	IterTimeS       float64 `json:"iteration_time_s"`
	TimeMin         float64 `json:"training_time_min"`
	CostUSD         float64 `json:"cost_usd"`
	Bottleneck      string  `json:"bottleneck"`
}

// provisionTypes is one row of Algorithm 1's search. The bounds are
// numbers, or null where the search stopped before computing them: NLower
// is null when n_wk^lower exceeds -max_workers (LowerAboveCap; the outcome
// gives its value), NUpper and NPS when the search stopped before Eq.
// (18)–(19) (the outcome says why). UpperCapped: n_wk^upper was reduced to
// -max_workers.
type provisionTypes struct {
	Type          string  `json:"type"`
	R             float64 `json:"r"`
	NLower        *int    `json:"n_lower"`
	LowerAboveCap bool    `json:"lower_above_cap"`
	NUpper        *int    `json:"n_upper"`
	UpperCapped   bool    `json:"upper_capped"`
	NPS           *int    `json:"n_ps"`
	Evaluated     int     `json:"evaluated"`
	Outcome       string  `json:"outcome"`
}

// searchRow is the row of one instance type's bounds b under the cap maxW.
func searchRow(t cynthia.TypeSearch, maxW int) provisionTypes {
	b := t.Bounds
	r := provisionTypes{Type: t.Instance, R: b.R, Evaluated: t.Evaluations, Outcome: t.Reason,
		LowerAboveCap: b.Lower > maxW, UpperCapped: b.Capped}
	if b.Lower >= 1 && b.Lower <= maxW {
		r.NLower = ptr(b.Lower)
	}
	if b.PS > 0 { // Eq. (18) and (19) were computed
		r.NUpper, r.NPS = ptr(b.Upper), ptr(b.PS)
	}
	return r
}

// ptr returns a pointer to a copy of v.
func ptr[T any](v T) *T { return &v }

// provisionHeader is the header of `pslab provision -format csv`: one row
// per instance type, the plan's columns filled on the chosen one; a null
// bound is an empty cell.
var provisionHeader = []string{"type", "r", "n_lower", "lower_above_cap", "n_upper", "upper_capped", "n_ps", "evaluated", "outcome",
	"chosen", "workers", "ps", "iterations", "training_time_min", "cost_usd"}

// writeStructured writes the plan (nil when infeasible) and the search as
// CSV (one row per instance type, plan columns filled on the chosen type)
// or JSON.
func (f *provisionFlags) writeStructured(w io.Writer, wl cynthia.Workload, plan *cynthia.Plan, s cynthia.Search, maxW int) error {
	out := provisionOutput{Workload: wl.Name, Sync: fmt.Sprint(wl.Sync), Model: f.model, Loss: f.loss, TimeMin: f.timeMin,
		Beta0: f.beta0, Beta1: f.beta1}
	if plan != nil {
		out.Plan = &provisionPlan{Instance: plan.Instance.Name, PricePerHour: plan.Instance.Price, Workers: plan.Workers,
			PS: plan.PS, Iterations: plan.Iterations, TotalIterations: plan.TotalIterations, IterTimeS: plan.IterTime,
			TimeMin: plan.Time / 60, CostUSD: plan.Cost, Bottleneck: fmt.Sprint(plan.Breakdown.Bottleneck)}
	}
	out.Search = []provisionTypes{}
	for _, t := range s.Types {
		out.Search = append(out.Search, searchRow(t, maxW))
	}
	if f.format == "json" {
		return writeJSON(w, out)
	}
	g := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	var rows [][]string
	for _, r := range out.Search {
		row := []string{r.Type, g(r.R), intCell(r.NLower), strconv.FormatBool(r.LowerAboveCap), intCell(r.NUpper),
			strconv.FormatBool(r.UpperCapped), intCell(r.NPS), strconv.Itoa(r.Evaluated), r.Outcome, "false", "", "", "", "", ""}
		if p := out.Plan; p != nil && p.Instance == r.Type {
			row = append(row[:9], "true", strconv.Itoa(p.Workers), strconv.Itoa(p.PS), strconv.Itoa(p.Iterations), g(p.TimeMin), g(p.CostUSD))
		}
		rows = append(rows, row)
	}
	return writeCSV(w, provisionHeader, rows)
}

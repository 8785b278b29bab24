package main

import (
	"encoding/csv"
	"encoding/json"
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

// provisionTypes is one row of Algorithm 1's search; NLower is a string
// because a bound above the cap reads ">cap".
type provisionTypes struct {
	Type      string  `json:"type"`
	R         float64 `json:"r"`
	NLower    string  `json:"n_lower"`
	NUpper    int     `json:"n_upper"`
	NPS       int     `json:"n_ps"`
	Evaluated int     `json:"evaluated"`
	Outcome   string  `json:"outcome"`
}

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
	for _, t := range s.Types {
		b := t.Bounds
		out.Search = append(out.Search, provisionTypes{Type: t.Instance, R: b.R, NLower: lowerText(b.Lower, maxW),
			NUpper: b.Upper, NPS: b.PS, Evaluated: t.Evaluations, Outcome: t.Reason})
	}
	if f.format == "json" {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	}
	cw := csv.NewWriter(w)
	cw.Write([]string{"type", "r", "n_lower", "n_upper", "n_ps", "evaluated", "outcome",
		"chosen", "workers", "ps", "iterations", "training_time_min", "cost_usd"})
	g := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	for _, r := range out.Search {
		row := []string{r.Type, g(r.R), r.NLower, strconv.Itoa(r.NUpper), strconv.Itoa(r.NPS), strconv.Itoa(r.Evaluated), r.Outcome,
			"false", "", "", "", "", ""}
		if p := out.Plan; p != nil && p.Instance == r.Type {
			row = append(row[:7], "true", strconv.Itoa(p.Workers), strconv.Itoa(p.PS), strconv.Itoa(p.Iterations), g(p.TimeMin), g(p.CostUSD))
		}
		cw.Write(row)
	}
	cw.Flush()
	return cw.Error()
}

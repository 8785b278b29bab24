package cynthia

import (
	"context"
	"fmt"
	"sort"
	"strings"

	cynthiamodel "pslab/engine/cynthia"
	"pslab/engine/dataset"
	"pslab/engine/experiment"
)

// cynthiaClaims are the columns read from the reported claims table.
var cynthiaClaims = &dataset.Schema{Name: "cynthia-claims", Columns: []dataset.Column{
	{Name: "metric", Type: dataset.String},
	{Name: "condition", Type: dataset.String},
	{Name: "value", Type: dataset.Float64},
	{Name: "unit", Type: dataset.String},
}}

// cynthiaPlanSearch runs Algorithm 1 (Cynthia's model) for each goal and
// records the work it does: inner-loop evaluations against the search space
// Σ_t (n_upper − max(n_lower, n_ps) + 1) over the instance types, the
// O(m·p) bound of §4. Wall time is deliberately not measured here (see
// BenchmarkPlan in engine/cynthia); with the optional input claims, the
// paper's planning times are shown next to the counts and the metric
// order_agrees says whether the search spaces rank the workloads as the
// paper's times do ("largely in proportion to the space between the lower
// and upper bounds", §5.3).
func cynthiaPlanSearch(_ context.Context, env *experiment.Env) (*experiment.Result, error) {
	p := cynthiaProvisionParams{Base: "m4.xlarge"}
	if err := env.Params(&p); err != nil {
		return nil, err
	}
	if len(p.PSScan) > 0 {
		return nil, env.Errorf("ps_scan", "ps_scan is not used by this kind")
	}
	in, err := readCynthiaInputs(env)
	if err != nil {
		return nil, err
	}
	base, err := instanceByName(in.catalogue, p.Base)
	if err != nil {
		return nil, env.Errorf("base", "%v", err)
	}
	cases, err := p.cases(env, in)
	if err != nil {
		return nil, err
	}
	units := provisionWork(&p, 1, cases, in.catalogue, base.CPU)
	what := fmt.Sprintf("cynthia-plan-search: %d goals (search spaces of Algorithm 1)", len(cases))
	if err := env.CheckModelWork([]string{"params", "goals"}, units, what); err != nil {
		return nil, err
	}
	// Its output: per goal three bars, six metrics and a note; two more.
	if err := env.CheckRows([]string{"params", "goals"}, units, 10*float64(len(cases))+2, what); err != nil {
		return nil, err
	}
	var claims *dataset.Table
	if env.HasInput("claims") {
		if claims, err = env.Input("claims", cynthiaClaims); err != nil {
			return nil, err
		}
	}
	res := experiment.NewResult()
	var spaces, paperMS []float64
	for _, c := range cases {
		plan, err := cynthiamodel.Planner{MaxWorkers: p.MaxWorkers}.Plan(c.w, c.loss, c.goal, in.catalogue, base.CPU)
		countPlan(env, plan, err)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", c.key, err)
		}
		space := 0
		for _, t := range plan.Search.Types {
			if t.Bounds.Empty == "" {
				space += t.Bounds.Upper - max(t.Bounds.Lower, t.Bounds.PS) + 1
			}
		}
		res.Bar("inner-loop evaluations", c.category, "cynthia", dataset.Derived, float64(plan.Search.Evaluations))
		res.Bar("search space Σ (n_upper − n_lower + 1)", c.category, "cynthia", dataset.Derived, float64(space))
		for k, v := range map[string]float64{
			"evaluations": float64(plan.Search.Evaluations), "space": float64(space), "types": float64(len(plan.Search.Types)),
			"within_bound": oneIf(plan.Search.Evaluations <= space), "workers": float64(plan.Workers), "ps": float64(plan.PS),
		} {
			res.Metric(c.key+"."+k, v)
		}
		res.Note("%s: %d evaluations in a search space of %d over %d types; plan %d × %s + %d PS, $%.3f",
			c.category, plan.Search.Evaluations, space, len(plan.Search.Types), plan.Workers, plan.Instance.Name, plan.PS, plan.Cost)
		if claims == nil {
			continue
		}
		ms, err := planningTime(claims, c.w.Name)
		if err != nil {
			return nil, env.Spec.Errorf([]string{"inputs", "claims"}, "%v", err)
		}
		res.Bar("paper planning time (ms)", c.category, "paper", dataset.Reported, ms)
		spaces, paperMS = append(spaces, float64(space)), append(paperMS, ms)
	}
	if claims != nil {
		res.Metric("order_agrees", oneIf(sameOrder(spaces, paperMS)))
	}
	res.Note("c_base = %s CPU = %.4g FLOP/s; %s", base.Name, base.CPU, in.assumedNote())
	return res, nil
}

// planningTime finds the paper's planning time in ms for a workload in the
// claims table (metric planning_time, condition "workload=<name>...").
func planningTime(claims *dataset.Table, workload string) (float64, error) {
	for i, m := range claims.Strings("metric") {
		if m == "planning_time" && strings.Contains(claims.Strings("condition")[i], "workload="+workload) {
			if u := claims.Strings("unit")[i]; u != "ms" {
				return 0, fmt.Errorf("planning time of %s is in %q, want ms", workload, u)
			}
			return claims.Floats("value")[i], nil
		}
	}
	return 0, fmt.Errorf("no planning_time claim for workload %q", workload)
}

// sameOrder reports whether a and b sort their indices the same way
// (strictly; ties in either break agreement).
func sameOrder(a, b []float64) bool {
	idx := func(v []float64) []int {
		out := make([]int, len(v))
		for i := range out {
			out[i] = i
		}
		sort.SliceStable(out, func(i, j int) bool { return v[out[i]] < v[out[j]] })
		return out
	}
	ia, ib := idx(a), idx(b)
	for i := range ia {
		if ia[i] != ib[i] || (i > 0 && (a[ia[i]] == a[ia[i-1]] || b[ib[i]] == b[ib[i-1]])) {
			return false
		}
	}
	return true
}

package cynthia

import (
	"errors"
	"fmt"
	"math"

	cynthiamodel "pslab/engine/cynthia"
	"pslab/engine/experiment"
)

// Bounded work (see the package doc): node counts are checked against the
// node limit, [limits] workers (PS nodes count as nodes), and model work
// (experiment.DefaultMaxModelWork) is estimated from the bounds before
// anything is evaluated.

// sweepCounts returns the swept node counts of var (workers or PS nodes)
// as ints, whole numbers from 1 to the node limit; the error names the
// sweep key and its line.
func sweepCounts(env *experiment.Env) ([]int, error) {
	sw := env.Spec.Sweep
	limit := env.WorkerLimit()
	bad := func(key string, v float64, format string, args ...any) error {
		return env.Spec.Errorf([]string{"sweep", key}, "sweep.%s = %v: %s", key, v, fmt.Sprintf(format, args...))
	}
	whole := func(x float64) bool { return x >= 1 && x == math.Trunc(x) }
	if len(sw.Values) == 0 {
		// The bounds first: nothing below is computed for a range that
		// starts below 1 or ends above the limit.
		if !whole(sw.From) {
			return nil, bad("from", sw.From, "%s must be whole numbers >= 1", sw.Var)
		}
		if sw.To > float64(limit) {
			return nil, bad("to", sw.To, "%s exceeds the limit of %d nodes; raise it with [limits] workers = %.0f if you mean it", sw.Var, limit, sw.To)
		}
	}
	xs := sw.Points() // at most experiment.MaxSweepPoints (Parse)
	out := make([]int, len(xs))
	for i, x := range xs {
		switch {
		case len(sw.Values) > 0 && !whole(x):
			return nil, bad("values", x, "%s must be whole numbers >= 1", sw.Var)
		case len(sw.Values) > 0 && x > float64(limit):
			return nil, bad("values", x, "%s exceeds the limit of %d nodes; raise it with [limits] workers = %.0f if you mean it", sw.Var, limit, x)
		case !whole(x):
			return nil, bad("step", sw.Step, "%s must be whole numbers >= 1, got %v", sw.Var, x)
		}
		out[i] = int(x)
	}
	return out, nil
}

// checkNodes checks a node count read from [params] (what: "ps" or
// "workers"), 1 to the node limit.
func checkNodes(env *experiment.Env, what string, n int) error {
	if n < 1 {
		return fmt.Errorf("%s = %d: want a number of %s >= 1", what, n, nodeNoun(what))
	}
	if limit := env.WorkerLimit(); int64(n) > limit {
		return fmt.Errorf("%s = %d exceeds the limit of %d nodes; raise it with [limits] workers = %d if you mean it", what, n, limit, n)
	}
	return nil
}

func nodeNoun(what string) string {
	if what == "ps" {
		return "PS nodes"
	}
	return what
}

// checkSeriesNodes validates the node counts of every cynthia-predict
// series (workers when PS nodes are swept, else ps, 0 meaning 1) before
// any is used; the error names the series and the key's line.
func checkSeriesNodes(env *experiment.Env, series []cynthiaSeries, byPS bool) error {
	for i := range series {
		s := &series[i]
		key, n := "ps", s.PS
		switch {
		case byPS:
			key, n = "workers", s.Workers
		case s.PS == 0:
			n = 1
		}
		if err := checkNodes(env, key, n); err != nil {
			return env.Spec.Errorf([]string{"params", "series", key}, "series %d (%q): %v", i, s.Key, err)
		}
	}
	return nil
}

// predictWork is cynthia-predict's model work: every point of every series
// builds and walks an explicit cluster, 1 + workers + PS units.
func predictWork(series []cynthiaSeries, xs []int, byPS bool) float64 {
	units := 0.0
	for _, s := range series {
		for _, x := range xs {
			n, ps := x, max(s.PS, 1)
			if byPS {
				n, ps = s.Workers, x
			}
			units += 1 + float64(n) + float64(ps)
		}
	}
	return units
}

// timeVsWorkersWork is cynthia-time-vs-workers' estimate: one closed-form
// evaluation per point, workload and model and a crossover per workload
// (units of model work); a row per evaluation, two metrics per point and
// workload, four metrics and notes per workload and a note (rows).
func timeVsWorkersWork(points, workloads, models int) (units, rows float64) {
	evals := float64(points) * float64(workloads) * float64(models)
	return evals + float64(workloads), evals + 2*float64(points)*float64(workloads) + 4*float64(workloads) + 1
}

// predictRows is the output of cynthia-predict: a row and two metrics per
// point and series, the shape metrics, crossover point, metric and note of
// a series (11), four lines per comparison, two per change and a note.
func predictRows(points, series, compares, changes int) float64 {
	return 3*float64(points)*float64(series) + 11*float64(series) + 4*float64(compares) + 2*float64(changes) + 1
}

// planWork is an upper bound of Algorithm 1's inner-loop evaluations for
// one plan: the size of the Theorem 4.1 search space over the catalogue
// (Planner.Bounds, computed without the loop).
func planWork(pl cynthiamodel.Planner, c cynthiaCase, cat []cynthiamodel.Instance, cBase float64) float64 {
	units := 1.0
	for _, inst := range cat {
		bd, err := pl.Bounds(c.w, c.loss, c.goal, inst, cBase)
		if err == nil && bd.Empty == "" {
			units += float64(bd.Upper - max(bd.Lower, bd.PS) + 1)
		}
	}
	return units
}

// provisionWork bounds the model work of planning every case with models
// planners (each plan at most its search space, planWork) and of the
// ps_scan grids (each grid point one plan of at most catalogue × max
// workers evaluations; scanPS validates the grids).
func provisionWork(p *cynthiaProvisionParams, models int, cases []cynthiaCase, cat []cynthiamodel.Instance, cBase float64) float64 {
	pl := cynthiamodel.Planner{MaxWorkers: p.MaxWorkers}
	units := 0.0
	for _, c := range cases {
		units += float64(models) * planWork(pl, c, cat, cBase)
	}
	maxW := p.MaxWorkers
	if maxW <= 0 {
		maxW = cynthiamodel.DefaultMaxWorkers
	}
	for _, s := range p.PSScan {
		if len(s.Beta0) != 3 || !(s.Beta0[2] > 0) {
			continue
		}
		if points := math.Floor((s.Beta0[1]-s.Beta0[0])/s.Beta0[2]+1e-9) + 1; points >= 1 && points <= 1e4+1 {
			units += points * float64(len(cat)*maxW+1)
		}
	}
	return units
}

// countPlan counts the inner-loop evaluations of one run of Algorithm 1
// (Search.Evaluations of the plan, or of the search that found none) as
// model work.
func countPlan(env *experiment.Env, plan cynthiamodel.Plan, err error) {
	n := plan.Search.Evaluations
	var inf *cynthiamodel.InfeasibleError
	if errors.As(err, &inf) {
		n = inf.Search.Evaluations
	}
	env.CountModelWork(float64(n))
}

package cynthia

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"

	cynthiamodel "pslab/engine/cynthia"
	"pslab/engine/dataset"
	"pslab/engine/experiment"
)

// cynthiaGoalSet is one workload with its assumed loss model and the goals
// it is planned for: every (time, loss) pair of TimeMin × Loss.
type cynthiaGoalSet struct {
	Workload string // Table 4 name
	Sync     string // replaces Table 1's label when set (C-5)
	Label    string // category and metric prefix; default Workload
	// Beta0 (loss × iterations) and Beta1 (iterations) of Eq. (1). The
	// paper gives no fitted values (C-10): always assumed.
	Beta0, Beta1 float64
	TimeMin      []float64 `toml:"time_min"` // goals T_g in minutes
	Loss         []float64 // goals l_g
}

// cynthiaPSScan asks for which β0 Cynthia's plan for one goal uses PS
// nodes, over a grid of β0 values (Beta0 = [from, to, step]).
type cynthiaPSScan struct {
	Label   string  // a goal set's label
	TimeMin float64 `toml:"time_min"`
	Loss    float64
	PS      int
	Beta0   []float64
}

type cynthiaProvisionParams struct {
	Base       string // catalogue type whose CPU is c_base
	MaxWorkers int    `toml:"max_workers"` // 0: cynthiamodel.DefaultMaxWorkers
	Goals      []cynthiaGoalSet
	PSScan     []cynthiaPSScan `toml:"ps_scan"`
}

// cynthiaCase is one planning problem.
type cynthiaCase struct {
	key, category string
	w             cynthiamodel.Workload
	loss          cynthiamodel.Loss
	goal          cynthiamodel.Goal
}

// cases expands the goal sets into planning problems in file order.
func (p *cynthiaProvisionParams) cases(env *experiment.Env, in *cynthiaInputs) ([]cynthiaCase, error) {
	if len(p.Goals) == 0 {
		return nil, env.Errorf("goals", "no goals")
	}
	// The goals are the product of each set's lists: bound their number
	// (each at least one evaluation and ten result lines) before any is
	// built.
	n := 0.0
	for _, g := range p.Goals {
		n += float64(len(g.TimeMin)) * float64(len(g.Loss))
	}
	if err := env.CheckRows([]string{"params", "goals"}, n, 10*n, fmt.Sprintf("%s: %.0f goals (time_min × loss)", env.Spec.Kind, n)); err != nil {
		return nil, err
	}
	var out []cynthiaCase
	for i := range p.Goals {
		g := &p.Goals[i]
		if g.Label == "" {
			g.Label = g.Workload
		}
		w, err := in.workload(g.Workload, g.Sync)
		if err != nil {
			return nil, env.Errorf("goals", "goals %d: %v", i, err)
		}
		l := cynthiamodel.Loss{Beta0: g.Beta0, Beta1: g.Beta1}
		if err := l.Validate(); err != nil {
			return nil, env.Errorf("goals", "goals %d (%s): %v", i, g.Label, err)
		}
		if len(g.TimeMin) == 0 || len(g.Loss) == 0 {
			return nil, env.Errorf("goals", "goals %d (%s): time_min and loss need at least one value each", i, g.Label)
		}
		for _, t := range g.TimeMin {
			for _, lg := range g.Loss {
				goal := cynthiamodel.Goal{Time: t * 60, Loss: lg}
				if !(t > 0) || !(lg > 0) || math.IsInf(t, 0) || math.IsInf(lg, 0) {
					return nil, env.Errorf("goals", "goals %d (%s): time_min %v and loss %v must be finite and > 0", i, g.Label, t, lg)
				}
				c := cynthiaCase{key: caseKey(g.Label, t, lg), w: w, loss: l, goal: goal}
				switch {
				case len(g.Loss) == 1:
					c.category = fmt.Sprintf("%s\n%g min", g.Label, t)
				case len(g.TimeMin) == 1:
					c.category = fmt.Sprintf("%s\nloss %g", g.Label, lg)
				default:
					c.category = fmt.Sprintf("%s\n%g min, loss %g", g.Label, t, lg)
				}
				out = append(out, c)
			}
		}
	}
	return out, nil
}

func caseKey(label string, timeMin, loss float64) string {
	return label + ".T" + strconv.FormatFloat(timeMin, 'g', -1, 64) + ".l" + strconv.FormatFloat(loss, 'g', -1, 64)
}

// planOutcome is a plan judged by Cynthia's model: Time in seconds and
// Cost in dollars with Cynthia's t_iter, whatever model made the plan.
type planOutcome struct {
	plan       cynthiamodel.Plan
	time, cost float64
}

// planAndJudge runs Algorithm 1 with model m and evaluates the plan with
// Cynthia's model (the ground truth of these experiments). When no plan
// meets the goal the error wraps cynthiamodel.ErrInfeasible.
func planAndJudge(env *experiment.Env, m cynthiamodel.Model, maxW int, c cynthiaCase, cat []cynthiamodel.Instance, cBase float64) (*planOutcome, error) {
	plan, err := cynthiamodel.Planner{Model: m, MaxWorkers: maxW}.Plan(c.w, c.loss, c.goal, cat, cBase)
	countPlan(env, plan, err)
	if err != nil {
		return nil, err
	}
	b, err := cynthiamodel.ModelCynthia.PredictHomogeneous(c.w, cynthiamodel.Homogeneous{Instance: plan.Instance, Workers: plan.Workers, PS: plan.PS, CBase: cBase})
	if err != nil {
		return nil, err
	}
	env.CountModelWork(1)
	return &planOutcome{plan: plan, time: b.Iter * float64(plan.Iterations),
		cost: cynthiamodel.Cost(plan.Instance, plan.Workers, plan.PS, b.Iter, plan.Iterations)}, nil
}

// planOrInfeasible is planAndJudge that returns an infeasibility as why
// instead of as an error.
func planOrInfeasible(env *experiment.Env, m cynthiamodel.Model, maxW int, c cynthiaCase, cat []cynthiamodel.Instance, cBase float64) (o *planOutcome, why, err error) {
	o, err = planAndJudge(env, m, maxW, c, cat, cBase)
	if errors.Is(err, cynthiamodel.ErrInfeasible) {
		return nil, err, nil
	}
	return o, nil, err
}

// cynthiaProvision plans every goal with Algorithm 1 under Cynthia's model
// and under the Optimus model (§5.2, footnote 4), judges both plans with
// Cynthia's model and compares time and cost.
func cynthiaProvision(_ context.Context, env *experiment.Env) (*experiment.Result, error) {
	p := cynthiaProvisionParams{Base: "m4.xlarge"}
	if err := env.Params(&p); err != nil {
		return nil, err
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
	units := provisionWork(&p, 2, cases, in.catalogue, base.CPU)
	what := fmt.Sprintf("cynthia-provision: %d goals × 2 planners and %d ps_scan grids (search spaces of Algorithm 1)", len(cases), len(p.PSScan))
	if err := env.CheckModelWork([]string{"params", "goals"}, units, what); err != nil {
		return nil, err
	}
	// Its output: per goal a bar and, per planner, two bars, nine
	// metrics and a note, and the saving; per ps_scan grid three metrics
	// and a note; five more.
	if err := env.CheckRows([]string{"params", "goals"}, units, 26*float64(len(cases))+4*float64(len(p.PSScan))+5, what); err != nil {
		return nil, err
	}
	res := experiment.NewResult()
	lo, hi, compared := math.Inf(1), math.Inf(-1), 0
	for _, c := range cases {
		cyn, why, err := planOrInfeasible(env, cynthiamodel.ModelCynthia, p.MaxWorkers, c, in.catalogue, base.CPU)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", c.key, err)
		}
		opt, whyOpt, err := planOrInfeasible(env, cynthiamodel.ModelOptimus, p.MaxWorkers, c, in.catalogue, base.CPU)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", c.key, err)
		}
		res.Bar("goal: time (min)", c.category, "goal", dataset.Derived, c.goal.Time/60)
		recordPlan(res, c, "cynthia", "Cynthia", cyn, why)
		recordPlan(res, c, "optimus", "Optimus-based", opt, whyOpt)
		if cyn != nil && opt != nil {
			s := (opt.cost - cyn.cost) / opt.cost * 100
			res.Metric(c.key+".saving_pct", s)
			lo, hi, compared = math.Min(lo, s), math.Max(hi, s), compared+1
		}
	}
	res.Metric("compared", float64(compared))
	if compared > 0 {
		res.Metric("saving_pct.min", lo)
		res.Metric("saving_pct.max", hi)
	}
	for i, s := range p.PSScan {
		if err := scanPS(env, in, &p, base, s, res); err != nil {
			return nil, env.Errorf("ps_scan", "ps_scan %d: %v", i, err)
		}
	}
	res.Note("plans judged by Cynthia's model: time = t_iter(Cynthia)*s, cost = Eq. (8) with that t_iter; Optimus-based = Algorithm 1 with the Optimus time model (footnote 4)")
	res.Note("c_base = %s CPU = %.4g FLOP/s; %s", base.Name, base.CPU, in.assumedNote())
	return res, nil
}

// recordPlan adds the bars, metrics and note of one plan (nil: none).
func recordPlan(res *experiment.Result, c cynthiaCase, model, name string, o *planOutcome, why error) {
	prefix := c.key + "." + model + "."
	if o == nil {
		res.Metric(prefix+"feasible", 0)
		res.Note("%s: %s provisioning finds no plan: %v", c.category, name, why)
		return
	}
	judged := ""
	if model != "cynthia" {
		judged = ", Cynthia's model"
	}
	res.Bar(name+": time (min"+judged+")", c.category, model, dataset.Derived, o.time/60)
	res.Bar(name+": cost (US cents"+judged+")", c.category, model, dataset.Derived, o.cost*100)
	pl := o.plan
	for k, v := range map[string]float64{
		"feasible": 1, "workers": float64(pl.Workers), "ps": float64(pl.PS), "iterations": float64(pl.Iterations),
		"time_min": o.time / 60, "own_time_min": pl.Time / 60, "cost": o.cost, "meets": oneIf(o.time <= c.goal.Time),
		"evaluations": float64(pl.Search.Evaluations),
	} {
		res.Metric(prefix+k, v)
	}
	res.Note("%s: %s → %d × %s workers + %d PS, s = %d, %.1f min (own model %.1f min), $%.3f",
		c.category, name, pl.Workers, pl.Instance.Name, pl.PS, pl.Iterations, o.time/60, pl.Time/60, o.cost)
}

// scanPS records the β0 values of the grid for which Cynthia's plan uses
// s.PS PS nodes: metrics ps_scan.<key>.lo, .hi (β0; 0 when none) and
// .count (grid points).
func scanPS(env *experiment.Env, in *cynthiaInputs, p *cynthiaProvisionParams, base cynthiamodel.Instance, s cynthiaPSScan, res *experiment.Result) error {
	var set *cynthiaGoalSet
	for i := range p.Goals {
		if p.Goals[i].Label == s.Label {
			set = &p.Goals[i]
		}
	}
	if set == nil {
		return fmt.Errorf("no goal set labelled %q", s.Label)
	}
	if len(s.Beta0) != 3 || !(s.Beta0[0] > 0) || !(s.Beta0[2] > 0) || s.Beta0[1] < s.Beta0[0] || (s.Beta0[1]-s.Beta0[0])/s.Beta0[2] > 1e4 {
		return fmt.Errorf("beta0 = %v: want [from, to, step] with 0 < from <= to and at most 10^4 steps", s.Beta0)
	}
	w, err := in.workload(set.Workload, set.Sync)
	if err != nil {
		return err
	}
	key := "ps_scan." + caseKey(s.Label, s.TimeMin, s.Loss)
	lo, hi, count := 0.0, 0.0, 0
	for k := 0; ; k++ {
		b0 := s.Beta0[0] + float64(k)*s.Beta0[2]
		if b0 > s.Beta0[1]+1e-9*s.Beta0[2] {
			break
		}
		c := cynthiaCase{w: w, loss: cynthiamodel.Loss{Beta0: b0, Beta1: set.Beta1}, goal: cynthiamodel.Goal{Time: s.TimeMin * 60, Loss: s.Loss}}
		o, _, err := planOrInfeasible(env, cynthiamodel.ModelCynthia, p.MaxWorkers, c, in.catalogue, base.CPU)
		if err != nil {
			return err
		}
		if o == nil || o.plan.PS != s.PS {
			continue
		}
		if count == 0 {
			lo = b0
		}
		hi, count = b0, count+1
	}
	res.Metric(key+".lo", lo)
	res.Metric(key+".hi", hi)
	res.Metric(key+".count", float64(count))
	if count == 0 {
		res.Note("%s: no β0 in [%g, %g] gives a plan with %d PS nodes", key, s.Beta0[0], s.Beta0[1], s.PS)
	} else {
		res.Note("%s: plans with %d PS nodes for %d β0 values in [%g, %g] (grid step %g, β1 = %g)", key, s.PS, count, lo, hi, s.Beta0[2], set.Beta1)
	}
	return nil
}

package cynthia

import (
	"errors"
	"fmt"
	"math"
	"strings"
)

// DefaultMaxWorkers caps n_wk (and n_ps) when Planner.MaxWorkers is 0, so
// that an unbounded Eq. (14) (a workload that never loads the PS) still
// gives a finite search.
const DefaultMaxWorkers = 4096

// ErrInfeasible is wrapped by every error Plan returns when no instance
// type has a plan meeting the goals (test with errors.Is).
var ErrInfeasible = errors.New("cynthia: no provisioning plan meets the goals")

// InfeasibleError explains, per instance type, why Plan found no plan.
// It unwraps to ErrInfeasible.
type InfeasibleError struct {
	// Goal is the goal that could not be met.
	Goal Goal
	// Search records the bounds and evaluations of every instance type.
	Search Search
}

// Error lists the reason of each instance type.
func (e *InfeasibleError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%v (T_g %g s, l_g %g):", ErrInfeasible, e.Goal.Time, e.Goal.Loss)
	for _, t := range e.Search.Types {
		fmt.Fprintf(&b, " [%s: %s]", t.Instance, t.Reason)
	}
	return b.String()
}

// Unwrap returns ErrInfeasible.
func (e *InfeasibleError) Unwrap() error { return ErrInfeasible }

// Planner runs Algorithm 1. The zero value plans with the Cynthia model and
// DefaultMaxWorkers.
type Planner struct {
	// Model predicts t_iter in line 8 of Algorithm 1. ModelOptimus gives
	// the "Optimus-based provisioning" of §5.2 (footnote 4): the same
	// bounds and search with the Optimus time model substituted.
	Model Model
	// MaxWorkers caps n_wk^upper and n_ps; 0 means DefaultMaxWorkers.
	MaxWorkers int
	// CeilUpper rounds n_wk^upper up, as Eq. (14), (19) and (23) print it.
	// The default rounds down, the integer bound that Constraint (11)
	// (n_wk/n_ps <= r) and t_comm <= t_comp actually imply; see the
	// package doc.
	CeilUpper bool
}

func (p Planner) maxWorkers() int {
	if p.MaxWorkers > 0 {
		return p.MaxWorkers
	}
	return DefaultMaxWorkers
}

// Plan is a provisioning plan: Workers workers and PS PS nodes of type
// Instance.
type Plan struct {
	// Instance is the chosen type t_min.
	Instance Instance
	// Workers is n_wk and PS is n_ps.
	Workers, PS int
	// Iterations is s as used in Eq. (8)–(9): global iterations for BSP
	// (Eq. 15), iterations per worker for ASP (Eq. 20 at n_wk = Workers).
	Iterations int
	// TotalIterations is Iterations for BSP and Workers·Iterations for ASP.
	TotalIterations int
	// IterTime is t_iter in seconds under the planner's model.
	IterTime float64
	// Time is the predicted training time t_iter·s in seconds (<= T_g).
	Time float64
	// Cost is C of Eq. (8) in dollars.
	Cost float64
	// Breakdown is the planner model's prediction at the chosen point.
	Breakdown Breakdown
	// Search records the bounds and evaluations of every instance type.
	Search Search
}

// Search records Algorithm 1's work, for the O(m·p) complexity check.
type Search struct {
	// Types has one entry per catalogue instance type, in order.
	Types []TypeSearch
	// Evaluations counts inner-loop iterations (line 8) over all types.
	Evaluations int
}

// TypeSearch is Algorithm 1's work on one instance type.
type TypeSearch struct {
	// Instance is the instance type's name.
	Instance string
	// Bounds is the Theorem 4.1 search space.
	Bounds Bounds
	// Evaluations counts the worker counts evaluated for this type.
	Evaluations int
	// Chosen reports whether this type holds the returned plan.
	Chosen bool
	// Reason explains the outcome for this type.
	Reason string
}

// Cost is Eq. (8): (p·n_wk + p·n_ps)·t_iter·s with the hourly price p of
// inst ($/h), t_iter in seconds and s iterations; the result is in dollars
// (billing per second, no hourly rounding).
func Cost(inst Instance, workers, ps int, iterTime float64, iterations int) float64 {
	return inst.Price * float64(workers+ps) * iterTime * float64(iterations) / SecondsPerHour
}

// Plan runs Algorithm 1 for workload w (profiled on a baseline worker of
// capability cBase FLOP/s), loss model l and goal g over the instance
// catalogue, each type used for both workers and PS nodes. It returns the
// cheapest plan found, or an error wrapping ErrInfeasible (an
// *InfeasibleError) when no type meets the goals. Decisions: the time
// check is t_iter·s <= T_g (Constraint 9, C-7), ASP recomputes s per
// n_wk with Eq. (20) (C-7), n_ps >= 1 (C-8), n_wk starts at
// max(n_lower, n_ps) (Eq. 11), and the loop over n_wk stops at the first
// point that meets the goal and is cheaper than the best so far (line 11).
func (p Planner) Plan(w Workload, l Loss, g Goal, catalogue []Instance, cBase float64) (Plan, error) {
	if err := p.checkInputs(w, l, g, cBase); err != nil {
		return Plan{}, prefixed(err)
	}
	if len(catalogue) == 0 {
		return Plan{}, fmt.Errorf("cynthia: plan: catalogue is empty")
	}
	for i, in := range catalogue {
		if err := in.check(); err != nil {
			return Plan{}, fmt.Errorf("cynthia: plan: catalogue[%d]: %w", i, err)
		}
	}

	search := Search{Types: make([]TypeSearch, len(catalogue))}
	best := Plan{Cost: math.Inf(1)}
	bestType := -1
	for t, inst := range catalogue {
		ts := &search.Types[t]
		ts.Instance = inst.Name
		ts.Bounds = p.bounds(w, l, g, inst, cBase)
		if ts.Bounds.Empty != "" {
			ts.Reason = ts.Bounds.Empty
			continue
		}
		met, cheaper := p.scan(w, l, g, inst, cBase, ts, &best)
		search.Evaluations += ts.Evaluations
		switch {
		case cheaper:
			bestType = t
			ts.Reason = fmt.Sprintf("cheaper than earlier types: %d workers, %d PS, $%.4g", best.Workers, best.PS, best.Cost)
		case met:
			ts.Reason = "meets the goal but not cheaper than an earlier type"
		default:
			ts.Reason = fmt.Sprintf("t_iter·s > T_g for every n_wk in [%d, %d]", max(ts.Bounds.Lower, ts.Bounds.PS), ts.Bounds.Upper)
		}
	}
	if bestType < 0 {
		return Plan{}, &InfeasibleError{Goal: g, Search: search}
	}
	search.Types[bestType].Chosen = true
	best.Instance = catalogue[bestType]
	best.Search = search
	return best, nil
}

// scan is the inner loop (lines 7–13) for one type. It reports whether any
// point met the time goal and whether best was replaced.
func (p Planner) scan(w Workload, l Loss, g Goal, inst Instance, cBase float64, ts *TypeSearch, best *Plan) (met, cheaper bool) {
	bd := ts.Bounds
	h := Homogeneous{Instance: inst, PS: bd.PS, CBase: cBase}
	for n := max(bd.Lower, bd.PS); n <= bd.Upper; n++ {
		ts.Evaluations++
		s := bd.Iterations
		if w.Sync == ASP {
			var err error
			if s, err = l.Iterations(ASP, g.Loss, n); err != nil {
				continue // s(n) above maxIterations: no plan at this n
			}
		}
		h.Workers = n
		b := p.Model.predict(w, homogeneousAggregate(h), nil)
		time := b.Iter * float64(s)
		if time > g.Time {
			continue
		}
		met = true
		cost := Cost(inst, n, bd.PS, b.Iter, s)
		if cost < best.Cost {
			total := s
			if w.Sync == ASP {
				total = n * s
			}
			*best = Plan{
				Workers: n, PS: bd.PS, Iterations: s, TotalIterations: total,
				IterTime: b.Iter, Time: time, Cost: cost, Breakdown: b,
			}
			return true, true
		}
	}
	return met, false
}

func (p Planner) checkInputs(w Workload, l Loss, g Goal, cBase float64) error {
	if err := p.Model.check(); err != nil {
		return err
	}
	if p.MaxWorkers < 0 {
		return fmt.Errorf("planner: MaxWorkers must be >= 0, got %d", p.MaxWorkers)
	}
	if err := w.check(); err != nil {
		return err
	}
	if err := l.check(); err != nil {
		return err
	}
	if err := g.check(); err != nil {
		return err
	}
	return checkPositive("plan", "", "cBase", cBase)
}

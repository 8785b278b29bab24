package cynthia

import (
	"errors"
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

// bruteCandidate is the best point of an exhaustive search.
type bruteCandidate struct {
	typ, workers, ps int
	cost             float64
}

// bruteForce searches every (type, n_wk <= maxN, 1 <= n_ps <= n_wk) under
// Constraints (9) (t_iter·s <= T_g), (10) (s from the loss model, per n_wk
// for ASP) and (11) (n_wk <= r·n_ps), minimizing Eq. (8). Ties keep the
// first point in (type, n_wk, n_ps) order, like Algorithm 1.
func bruteForce(t *testing.T, m Model, w Workload, l Loss, g Goal, cat []Instance, cBase float64, maxN int) (bruteCandidate, bool) {
	t.Helper()
	best := bruteCandidate{cost: math.Inf(1)}
	for ti, in := range cat {
		r, err := ProvisioningRatio(w, in, cBase)
		require.NoError(t, err)
		for n := 1; n <= maxN; n++ {
			s, err := l.Iterations(w.Sync, g.Loss, n)
			require.NoError(t, err)
			for k := 1; k <= n; k++ {
				if float64(n) > r*float64(k)*(1+1e-9) {
					continue
				}
				b, err := m.PredictHomogeneous(w, homog(in, n, k, cBase))
				require.NoError(t, err)
				if b.Iter*float64(s) > g.Time {
					continue
				}
				if c := Cost(in, n, k, b.Iter, s); c < best.cost {
					best = bruteCandidate{ti, n, k, c}
				}
			}
		}
	}
	return best, !math.IsInf(best.cost, 1)
}

// TestPlanVGG19ASPHandComputed: with s recomputed per n_wk (Eq. 20) the
// first n_wk in [11, 16] (2 PS) meeting 30 min is 15 (s = 96).
func TestPlanVGG19ASPHandComputed(t *testing.T) {
	t.Parallel()
	pc := planCases()["vgg19-ASP"]
	plan, err := Planner{}.Plan(pc.w, pc.loss, pc.goal, []Instance{m4()}, cM4)
	require.NoError(t, err)
	require.Equal(t, "m4.xlarge", plan.Instance.Name)
	require.Equal(t, 15, plan.Workers)
	require.Equal(t, 2, plan.PS)
	require.Equal(t, 96, plan.Iterations)
	require.Equal(t, 15*96, plan.TotalIterations)
	// t_iter = 58.81e9/3.47e9 + 2·135.84e6/220e6 (no bottleneck: 15 < 16.3).
	iter := 58.81e9/3.47e9 + 2*135.84e6/220e6
	require.InDelta(t, iter, plan.IterTime, 1e-12)
	require.InDelta(t, 96*iter, plan.Time, 1e-9)
	require.LessOrEqual(t, plan.Time, pc.goal.Time)
	require.InDelta(t, 0.10*17*iter*96/3600, plan.Cost, 1e-12)
	require.Equal(t, plan.Cost, Cost(plan.Instance, 15, 2, plan.IterTime, 96))
	require.Equal(t, 5, plan.Search.Evaluations) // n = 11..15
	require.True(t, plan.Search.Types[0].Chosen)

	// Recomputing s matters: with s fixed at s(n_lower) = 112 no n_wk in
	// the range meets the goal.
	for n := 11; n <= 16; n++ {
		b, err := ModelCynthia.PredictHomogeneous(pc.w, homog(m4(), n, 2, cM4))
		require.NoError(t, err)
		require.Greater(t, b.Iter*112, pc.goal.Time, "n=%d", n)
	}
}

// TestPlanTimeGoalInclusive (C-7): a plan with t_iter·s exactly T_g is
// accepted (Constraint 9 uses <=, Algorithm 1 line 9 prints <).
func TestPlanTimeGoalInclusive(t *testing.T) {
	t.Parallel()
	// s = 10 / 1 = 10; n = 2: t_comp = 4e9/(2·1e9) = 2 s, t_comm = 4 µs;
	// t_iter·s = 20 s = T_g exactly. n_lower = ⌈4e9·10/(20·1e9)⌉ = 2.
	w := Workload{Name: "edge", WIter: 4e9, GParam: 1e3, Sync: BSP}
	in := Instance{Name: "x", CPU: 1e9, Bandwidth: 1e9, Price: 3.6}
	plan, err := Planner{}.Plan(w, Loss{Beta0: 10}, Goal{Time: 20, Loss: 1}, []Instance{in}, 1e9)
	require.NoError(t, err)
	require.Equal(t, 2, plan.Workers)
	require.Equal(t, 1, plan.PS)
	require.Equal(t, 20.0, plan.Time)
	require.InDelta(t, 3.6*3*20/3600, plan.Cost, 1e-15)
}

func TestPlanInfeasible(t *testing.T) {
	t.Parallel()
	pc := planCases()["vgg19-ASP"]
	g := pc.goal
	g.Time = 60 // one minute for VGG-19
	_, err := Planner{MaxWorkers: 64}.Plan(pc.w, pc.loss, g, catalogue4(), cM4)
	require.Error(t, err)
	require.True(t, errors.Is(err, ErrInfeasible))
	var ie *InfeasibleError
	require.True(t, errors.As(err, &ie))
	require.Len(t, ie.Search.Types, 4)
	for _, ts := range ie.Search.Types {
		require.NotEmpty(t, ts.Reason)
		require.Contains(t, err.Error(), ts.Instance)
	}

	// The baseline planner can fail where Cynthia succeeds (§5.2): with
	// these assumed inputs, Optimus' summed BSP time misses 120 min.
	pc = planCases()["cifar10-BSP"]
	_, err = Planner{}.Plan(pc.w, pc.loss, pc.goal, catalogue4(), cM4)
	require.NoError(t, err)
	_, err = Planner{Model: ModelOptimus}.Plan(pc.w, pc.loss, pc.goal, catalogue4(), cM4)
	require.ErrorIs(t, err, ErrInfeasible)
}

// TestPlanSearchCount: the inner loop runs at most
// Σ_types (n_upper − n_lower + 1) times (O(m·p), §4 remark).
func TestPlanSearchCount(t *testing.T) {
	t.Parallel()
	for name, pc := range planCases() {
		plan, err := Planner{}.Plan(pc.w, pc.loss, pc.goal, catalogue4(), cM4)
		require.NoError(t, err, name)
		bound, sum := 0, 0
		for _, ts := range plan.Search.Types {
			if ts.Bounds.Empty == "" {
				bound += ts.Bounds.Upper - ts.Bounds.Lower + 1
			}
			sum += ts.Evaluations
		}
		require.Equal(t, sum, plan.Search.Evaluations, name)
		require.LessOrEqual(t, plan.Search.Evaluations, bound, name)
		require.Positive(t, plan.Search.Evaluations, name)
		require.LessOrEqual(t, plan.Time, pc.goal.Time, name)
	}
}

// TestPlanOptimusOverProvisions (Fig. 11 mechanism, assumed inputs): the
// Optimus-based planner adds computation and communication for BSP, so it
// over-estimates t_iter and provisions more workers than Cynthia. Judged
// by Cynthia's own model, that larger plan is NOT costlier here (cost
// falls with n_wk in the compute-bound BSP region, see
// TestPlanBSPFirstFeasibleNotOptimal), so the paper's "0.9%-9.9% cheaper
// than Optimus" is not reproduced with these inputs; the doc says so.
func TestPlanOptimusOverProvisions(t *testing.T) {
	t.Parallel()
	pc := planCases()["resnet32-BSP"]
	cyn, err := Planner{}.Plan(pc.w, pc.loss, pc.goal, catalogue4(), cM4)
	require.NoError(t, err)
	opt, err := Planner{Model: ModelOptimus}.Plan(pc.w, pc.loss, pc.goal, catalogue4(), cM4)
	require.NoError(t, err)
	require.Equal(t, ModelOptimus, opt.Breakdown.Model)
	require.Greater(t, opt.Workers, cyn.Workers, "Optimus over-provisions")
	b, err := ModelCynthia.PredictHomogeneous(pc.w, homog(opt.Instance, opt.Workers, opt.PS, cM4))
	require.NoError(t, err)
	require.Greater(t, opt.IterTime, b.Iter, "Optimus over-estimates t_iter")
	optCost := Cost(opt.Instance, opt.Workers, opt.PS, b.Iter, opt.Iterations)
	t.Logf("cynthia plan %d×%s $%.4f; optimus plan %d×%s $%.4f (cynthia-evaluated), $%.4f (own model)",
		cyn.Workers, cyn.Instance.Name, cyn.Cost, opt.Workers, opt.Instance.Name, optCost, opt.Cost)
}

// TestPlanBSPFirstFeasibleNotOptimal documents C-7: for BSP in the
// compute-bound region the cost (n+n_ps)·w_iter/(n·c) falls with n, so
// Algorithm 1's break at the first feasible n_wk misses cheaper plans
// that an exhaustive search under Constraints (9)–(11) finds.
func TestPlanBSPFirstFeasibleNotOptimal(t *testing.T) {
	t.Parallel()
	pc := planCases()["cifar10-BSP"]
	plan, err := Planner{}.Plan(pc.w, pc.loss, pc.goal, []Instance{m4()}, cM4)
	require.NoError(t, err)
	require.Equal(t, 11, plan.Workers)
	best, ok := bruteForce(t, ModelCynthia, pc.w, pc.loss, pc.goal, []Instance{m4()}, cM4, 40)
	require.True(t, ok)
	require.Greater(t, best.workers, plan.Workers)
	require.Less(t, best.cost, plan.Cost)
}

func TestPlanInvalid(t *testing.T) {
	t.Parallel()
	pc := planCases()["cifar10-BSP"]
	_, err := Planner{}.Plan(pc.w, pc.loss, pc.goal, nil, cM4)
	require.ErrorContains(t, err, "catalogue is empty")
	_, err = Planner{}.Plan(pc.w, pc.loss, pc.goal, []Instance{m4(), {Name: "bad", CPU: 1, Bandwidth: 1, Price: -1}}, cM4)
	require.ErrorContains(t, err, `catalogue[1]: instance "bad": Price`)
	_, err = Planner{Model: Model(-1)}.Plan(pc.w, pc.loss, pc.goal, catalogue4(), cM4)
	require.ErrorContains(t, err, "model")
	w := pc.w
	w.Sync = 0
	_, err = Planner{}.Plan(w, pc.loss, pc.goal, catalogue4(), cM4)
	require.ErrorContains(t, err, "Sync")
	_, err = Planner{}.Plan(pc.w, pc.loss, pc.goal, catalogue4(), -1)
	require.ErrorContains(t, err, "cBase")
}

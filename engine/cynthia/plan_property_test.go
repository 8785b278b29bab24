package cynthia

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

const propMaxN = 48

// randomCatalogue draws 2–3 instance types.
func randomCatalogue(rng *rand.Rand) []Instance {
	cat := make([]Instance, 2+rng.IntN(2))
	for i := range cat {
		cat[i] = Instance{
			Name:      string(rune('a' + i)),
			CPU:       1e9 + 3e9*rng.Float64(),
			Bandwidth: 50e6 + 150e6*rng.Float64(),
			Price:     0.05 + 0.45*rng.Float64(),
		}
	}
	return cat
}

// monotoneASPScenario draws an ASP scenario whose Eq. (8) cost is
// non-decreasing in n_wk and in n_ps over the feasible region:
//   - r >= 3 for every type (c_prof, b_prof small), so n_ps <= n_wk/3;
//   - 2·g/b <= (w_iter/c)/(10·propMaxN), so an extra PS never pays for
//     itself ((n+k)(A+B/k) grows in k when A >= n·B);
//   - s per worker >= ~700, so the ceiling of Eq. (20) cannot undo the
//     growth of (n+k)·s(n) ∝ (n+k)/√n (relative margin >= 1/(4n)).
func monotoneASPScenario(rng *rand.Rand) (Workload, Loss, Goal, []Instance, float64) {
	cat := randomCatalogue(rng)
	cBase := 1e9 + 3e9*rng.Float64()
	minA, minBC := 1e300, 1e300
	wIter := 1e9 + 2e10*rng.Float64()
	for _, in := range cat {
		minA = min(minA, wIter/in.CPU*in.Bandwidth) // (w/c)·b
		minBC = min(minBC, in.Bandwidth*cBase/in.CPU)
	}
	w := Workload{
		Name:   "prop",
		WIter:  wIter,
		GParam: minA / (2 * 10 * propMaxN) * rng.Float64(),
		CProf:  cBase / (3 + 9*rng.Float64()),
		BProf:  minBC / (3 + 9*rng.Float64()),
		Sync:   ASP,
	}
	l := Loss{Beta0: 5e3 + 4.5e4*rng.Float64()}
	l.Beta1 = 0.01 * l.Beta0 * rng.Float64()
	goal := Goal{Loss: 0.3 + 0.7*rng.Float64()}
	// Aim the time goal at 1..30 workers of a random type.
	ref := cat[rng.IntN(len(cat))]
	nTarget := 1 + 29*rng.Float64()
	goal.Time = wIter / ref.CPU * l.Beta0 / (goal.Loss * math.Sqrt(nTarget))
	return w, l, goal, cat, cBase
}

// TestPlanEqualsBruteForceASP: on monotone-cost ASP scenarios Algorithm 1
// returns exactly the exhaustive optimum whenever that optimum lies in its
// Theorem 4.1 range (which is what the theorem claims), and is never
// cheaper than the exhaustive optimum.
func TestPlanEqualsBruteForceASP(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(7, 11))
	p := Planner{MaxWorkers: propMaxN}
	checked, outside := 0, 0
	for i := range 300 {
		w, l, g, cat, cBase := monotoneASPScenario(rng)
		best, ok := bruteForce(t, ModelCynthia, w, l, g, cat, cBase, propMaxN)
		plan, err := p.Plan(w, l, g, cat, cBase)
		if !ok {
			require.ErrorIs(t, err, ErrInfeasible, "scenario %d", i)
			continue
		}
		bd := plan.Search.Types
		if err != nil {
			require.ErrorIs(t, err, ErrInfeasible, "scenario %d", i)
			var ie *InfeasibleError
			require.ErrorAs(t, err, &ie)
			bd = ie.Search.Types
		}
		b := bd[best.typ].Bounds
		inRange := b.Empty == "" && best.ps == b.PS && best.workers >= max(b.Lower, b.PS) && best.workers <= b.Upper
		if !inRange {
			outside++
			if err == nil {
				require.GreaterOrEqual(t, plan.Cost, best.cost*(1-1e-12), "scenario %d", i)
			}
			continue
		}
		checked++
		require.NoError(t, err, "scenario %d", i)
		require.Equal(t, cat[best.typ].Name, plan.Instance.Name, "scenario %d", i)
		require.Equal(t, best.workers, plan.Workers, "scenario %d", i)
		require.Equal(t, best.ps, plan.PS, "scenario %d", i)
		require.InEpsilon(t, best.cost, plan.Cost, 1e-12, "scenario %d", i)
	}
	t.Logf("checked %d scenarios with the optimum in range, %d outside", checked, outside)
	require.GreaterOrEqual(t, checked, 150)
}

// TestPlanNeverBeatsBruteForce: for any random BSP or ASP scenario, a plan
// from Algorithm 1 satisfies Constraints (9) and (11) and costs at least
// the exhaustive optimum (its points are a subset of the feasible set).
func TestPlanNeverBeatsBruteForce(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(3, 5))
	p := Planner{MaxWorkers: 32}
	plans := 0
	for i := range 150 {
		cat := randomCatalogue(rng)
		cBase := 1e9 + 3e9*rng.Float64()
		w := Workload{
			WIter:  1e9 + 3e10*rng.Float64(),
			GParam: 1e5 + 1e8*rng.Float64(),
			CProf:  1e9 * rng.Float64(),
			BProf:  3e7 * rng.Float64(),
			Sync:   BSP,
		}
		if rng.IntN(2) == 0 {
			w.Sync = ASP
		}
		l := Loss{Beta0: 100 + 1e4*rng.Float64(), Beta1: 50 * rng.Float64()}
		g := Goal{Time: 600 + 2e4*rng.Float64(), Loss: 0.3 + 0.7*rng.Float64()}
		for _, m := range []Model{ModelCynthia, ModelOptimus} {
			q := p
			q.Model = m
			plan, err := q.Plan(w, l, g, cat, cBase)
			if err != nil {
				require.ErrorIs(t, err, ErrInfeasible, "scenario %d", i)
				continue
			}
			plans++
			require.LessOrEqual(t, plan.Time, g.Time)
			r, _ := ProvisioningRatio(w, plan.Instance, cBase)
			require.LessOrEqual(t, float64(plan.Workers), r*float64(plan.PS)*(1+1e-9), "Eq. 11")
			require.GreaterOrEqual(t, plan.Workers, plan.PS, "Eq. 11")
			best, ok := bruteForce(t, m, w, l, g, cat, cBase, 32)
			require.True(t, ok)
			require.GreaterOrEqual(t, plan.Cost, best.cost*(1-1e-12), "scenario %d", i)
		}
	}
	t.Logf("%d plans compared", plans)
	require.Positive(t, plans)
}

package sched

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// Hand computation on curveA/curveB (W = 8), HELL metric g(w) = w·X(1)/X(w)²:
//
//	A: g = 1, 2, .75, .444, .408, .463, .540, .617 → argmin 5 (g = .408)
//	B: g = .5, 1, .667, .781, .918, 1.10, ...      → argmin 1 (g = .5)
func TestCurveHELLTable(t *testing.T) {
	t.Parallel()
	a := newCurve(curveA)
	require.Equal(t, []int{0, 1, 1, 3, 4, 5, 5, 5, 5}, a.hellW)
	require.InDelta(t, 5/12.25, a.hellH[8], 1e-12)
	require.InDelta(t, 0.75, a.hellH[3], 1e-12)
	b := newCurve(curveB)
	require.Equal(t, []int{0, 1, 1, 1, 1, 1, 1, 1, 1}, b.hellW)
	require.InDelta(t, 0.5, b.hellH[8], 1e-12)
}

// Knee candidates of A are 1, 3, 4, 5, 6 (2, 7, 8 are no faster than fewer
// nodes) with δ⁺ = .5, .333, .143, .0278 between consecutive candidates.
func TestCurveKneeTable(t *testing.T) {
	t.Parallel()
	a := newCurve(curveA)
	for _, c := range []struct {
		alpha float64
		knee  int
	}{{0.01, 6}, {0.05, 5}, {0.2, 4}, {0.4, 3}, {0.6, 1}} {
		require.Equal(t, c.knee, a.kneeTable(c.alpha)[8], "alpha %v", c.alpha)
	}
	// Budgets (M-2: a candidate beyond the budget counts as δ < α).
	require.Equal(t, []int{0, 1, 1, 3, 4, 5, 6, 6, 6}, a.kneeTable(0.01))
	// B: candidates 1, 3, 4, 5, δ⁺ = .333, .0625, .0303.
	b := newCurve(curveB)
	require.Equal(t, []int{0, 1, 1, 3, 4, 5, 5, 5, 5}, b.kneeTable(0.01))
	require.Equal(t, []int{0, 1, 1, 3, 4, 4, 4, 4, 4}, b.kneeTable(0.05))
	require.Equal(t, []int{0, 1, 1, 3, 3, 3, 3, 3, 3}, b.kneeTable(0.1))
	// Strictly convex-then-flat curve without the M-4 plateau: knee is at
	// the last strictly improving count.
	c := newCurve([]float64{0, 1, 2, 3, 3, 3})
	require.Equal(t, 3, c.kneeTable(0.01)[5])
}

func TestHELLAllocation(t *testing.T) {
	t.Parallel()
	env := handEnv()
	jobs := []JobState{job(0, 0, 10), job(1, 1, 4)}
	// Round 1: A 10·.408 = 4.08 (w 5), B 4·.5 = 2 (w 1) → B gets 1.
	// Round 2: budget 7, A → 5; 2 nodes left idle without filling.
	require.Equal(t, []int{5, 1}, allocate(t, HELL{NoFill: true}, env, jobs))
	// Filling: Smin = S_B(1) = 2; A needs X(5+w) > 5: never; B needs
	// X(1+w) > 2: w = 2 → B holds 3 nodes, none left.
	require.Equal(t, []int{5, 3}, allocate(t, HELL{}, env, jobs))
}

func TestHELLFillingSingleJob(t *testing.T) {
	t.Parallel()
	// B alone: HELL gives 1 node; filling: X>2 → +2 (3), X>3 → +1 (4),
	// X>3.2 → +1 (5), X>3.3 impossible → stop with 3 nodes idle.
	require.Equal(t, []int{5}, allocate(t, HELL{}, handEnv(), []JobState{job(0, 1, 4)}))
	// A alone: HELL 5, then X(6) = 3.6 > 3.5 → 6; X(7) = X(6) → stop.
	require.Equal(t, []int{6}, allocate(t, HELL{}, handEnv(), []JobState{job(0, 0, 7)}))
}

// M-9: a job without nodes does not constrain the minimum and can be filled.
func TestFillZeroNodeJob(t *testing.T) {
	t.Parallel()
	env := handEnv()
	g := newGreedy(newCurves(env), env.Nodes, 0)
	jobs := []JobState{job(0, 0, 10), job(1, 1, 4)}
	g.scale(jobs)
	alloc := []int{5, 0}
	// Smin = 10/3.5 = 2.857 (B has S = ∞). A: X(6) = 3.6 > 3.5 → w̄ = 1,
	// S = 2.78; B: X(1) = 2 > 1.4 → w̄ = 1, S = 2 → tie on w̄, B shorter.
	// Then Smin = 2: B needs X > 2 → +2 (X(3) = 3), A needs X > 5: no.
	free := g.fill(jobs, alloc, 3)
	require.Equal(t, []int{5, 3}, alloc)
	require.Zero(t, free)
}

func TestFillTieGoesToEarlierArrival(t *testing.T) {
	t.Parallel()
	env := handEnv()
	g := newGreedy(newCurves(env), env.Nodes, 0)
	jobs := []JobState{job(0, 0, 10), job(1, 0, 10)}
	g.scale(jobs)
	alloc := []int{3, 3}
	// Both S = 5; each reaches S = 10/3 with one more node: same w̄, same S.
	g.fill(jobs, alloc, 1)
	require.Equal(t, []int{4, 3}, alloc)
}

func TestKNEEAllocation(t *testing.T) {
	t.Parallel()
	env := handEnv()
	jobs := []JobState{job(0, 0, 10), job(1, 1, 4)}
	// α = .01: knee A(8) = 6, S = 10/3.6 = 2.78; knee B(8) = 5, S = 1.21
	// → B gets 5; budget 3: knee A(3) = 3. No node left to fill.
	require.Equal(t, []int{3, 5}, allocate(t, KNEE{}, env, jobs))
	// α = .2: knee A = 4 (S 3.33), knee B = 3 (S 1.33) → B 3, A 4, 1 idle;
	// filling: Smin = 1.33, B needs X(3+1) = 3.2 > 3 → B 4.
	require.Equal(t, []int{4, 3}, allocate(t, KNEE{Alpha: 0.2, NoFill: true}, env, jobs))
	require.Equal(t, []int{4, 4}, allocate(t, KNEE{Alpha: 0.2}, env, jobs))
}

func TestSRPTAllocation(t *testing.T) {
	t.Parallel()
	// S(8): A 10/3.6 = 2.78, B 4/3.3 = 1.21 → all 8 nodes to B.
	require.Equal(t, []int{0, 8}, allocate(t, SRPT{}, handEnv(), []JobState{job(0, 0, 10), job(1, 1, 4)}))
}

func TestWaterfillAllocation(t *testing.T) {
	t.Parallel()
	env := handEnv()
	// 1 each; A (fewest, earlier) needs +2 to beat X(1) → 3; B +2 → 3;
	// A +1 → 4; B +1 → 4.
	require.Equal(t, []int{4, 4}, allocate(t, Waterfill{}, env, []JobState{job(0, 0, 10), job(1, 1, 4)}))
	// More jobs than nodes: the first 8 in arrival order get one node.
	jobs := make([]JobState, 10)
	for i := range jobs {
		jobs[i] = job(i, 0, float64(10-i))
	}
	require.Equal(t, []int{1, 1, 1, 1, 1, 1, 1, 1, 0, 0}, allocate(t, Waterfill{}, env, jobs))
	// Eq. (5) variant: B (S 2) is the shortest and takes the 6 idle nodes
	// while it gains: +2 → 3 (X 3), +1 → 4, +1 → 5; A then needs X > 7.5.
	require.Equal(t, []int{1, 5}, allocate(t, Waterfill{FillEq5: true}, env, []JobState{job(0, 0, 10), job(1, 1, 4)}))
}

func TestJSQChunkAllocation(t *testing.T) {
	t.Parallel()
	env := handEnv()
	a, err := JSQChunk{Chunk: 4}.New(env)
	require.NoError(t, err)
	alloc := func(jobs ...JobState) []int {
		out := make([]int, len(jobs))
		a.Allocate(0, jobs, out)
		return out
	}
	require.Equal(t, []int{4}, alloc(job(0, 0, 10)))                                   // → chunk 0
	require.Equal(t, []int{4, 4}, alloc(job(0, 0, 10), job(1, 1, 4)))                  // → chunk 1
	require.Equal(t, []int{4, 4, 0}, alloc(job(0, 0, 10), job(1, 1, 4), job(2, 1, 1))) // tie → chunk 0, waits
	require.Equal(t, []int{4, 4}, alloc(job(1, 1, 4), job(2, 1, 1)))                   // job 0 left: 2 runs
	// 8 nodes in chunks of 3: two chunks, two nodes idle.
	b, err := JSQChunk{Chunk: 3}.New(env)
	require.NoError(t, err)
	out := make([]int, 3)
	b.Allocate(0, []JobState{job(0, 0, 1), job(1, 0, 1), job(2, 0, 1)}, out)
	require.Equal(t, []int{3, 3, 0}, out)
}

func TestMoldableHELLAllocation(t *testing.T) {
	t.Parallel()
	// want A = 5 (rank .408), B = 1 (rank .5). Keys: A 10·.408 = 4.08,
	// B 2, A' 1·.408 = .408 → A' 5, B 1, A needs 5 of 2 → waits.
	jobs := []JobState{job(0, 0, 10), job(1, 1, 4), job(2, 0, 1)}
	require.Equal(t, []int{0, 1, 5}, allocate(t, MoldableHELL{}, handEnv(), jobs))
	// Backfilling: a lower-ranked job that fits still runs.
	jobs = []JobState{job(0, 0, 1), job(1, 0, 2), job(2, 1, 40)}
	require.Equal(t, []int{5, 0, 1}, allocate(t, MoldableHELL{}, handEnv(), jobs))
}

func TestMoldableKNEEAllocation(t *testing.T) {
	t.Parallel()
	p := MoldableKNEE{AlphaL: 0.01, AlphaH: 0.41}
	require.InDelta(t, 0.21, p.Alpha(0.5), 1e-12)
	// α = .21: knee A = 4 (δ(5) = .143 < .21), knee B = 3 (δ(4) = .0625).
	// Rank by S(knee): A 10/3 = 3.33, B 4/3 = 1.33 → B 3, A 4, 1 idle.
	jobs := []JobState{job(0, 0, 10), job(1, 1, 4)}
	require.Equal(t, []int{4, 3}, allocate(t, p, handEnv(), jobs))
	// At load 0 α = α_L = .01: knees 6 and 5 → B 5, A cannot fit.
	env := handEnv()
	env.Load = 0
	require.Equal(t, []int{0, 5}, allocate(t, p, env, jobs))
}

// §VI-A: with γ = 1 a job ranks by its original size, so a new job beats an
// almost finished one; with γ = 0 the almost finished one wins.
func TestHELLEarlyTermination(t *testing.T) {
	t.Parallel()
	env := handEnv()
	env.Nodes = 5
	old := JobState{ID: 0, Type: 0, Size: 100, Remaining: 10}
	young := JobState{ID: 1, Type: 0, Size: 20, Remaining: 20}
	jobs := []JobState{old, young}
	require.Equal(t, []int{5, 0}, allocate(t, HELL{}, env, jobs))
	require.Equal(t, []int{0, 5}, allocate(t, HELL{Gamma: 1}, env, jobs))
	// γ = .5: c_old = 10·√10 = 31.6 > c_young = 20 → young first.
	require.Equal(t, []int{0, 5}, allocate(t, HELL{Gamma: 0.5}, env, jobs))
	// γ = .2: c_old = 10·10^.2 = 15.8 < 20 → old first.
	require.Equal(t, []int{5, 0}, allocate(t, HELL{Gamma: 0.2}, env, jobs))
}

func TestPolicyParameterErrors(t *testing.T) {
	t.Parallel()
	env := handEnv()
	for _, c := range []struct {
		p   Policy
		msg string
	}{
		{KNEE{Alpha: -0.01}, "KNEE Alpha: -0.01"},
		{HELL{Gamma: -1}, "HELL Gamma -1"},
		{JSQChunk{}, "Chunk 0"},
		{JSQChunk{Chunk: 9}, "Chunk 9"},
		{MoldableKNEE{AlphaL: -0.5, AlphaH: 0.1}, "moldable KNEE α(load 0.5)"},
	} {
		_, err := c.p.New(env)
		require.ErrorContains(t, err, c.msg)
	}
}

func TestPolicyNames(t *testing.T) {
	t.Parallel()
	require.Equal(t, "HELL", HELL{}.Name())
	require.Equal(t, "HELL γ=1.05", HELL{Gamma: 1.05}.Name())
	require.Equal(t, "KNEE", KNEE{Alpha: 0.01}.Name())
	require.Equal(t, "KNEE α=0.2 nofill", KNEE{Alpha: 0.2, NoFill: true}.Name())
	require.Equal(t, "JSQ-Chunk k=7", JSQChunk{Chunk: 7}.Name())
	require.Equal(t, "moldable KNEE", MoldableKNEE{}.Name())
}

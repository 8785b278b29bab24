package sched

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

func handWorkload() Workload {
	env := handEnv()
	return Workload{Types: env.Types}
}

func traceRun(t *testing.T, p Policy, arrivals []Arrival) Result {
	t.Helper()
	r, err := Run(Config{Nodes: 8, Workload: handWorkload(), Policy: p, Arrivals: arrivals,
		Progress: []float64{0.4, 1}, History: true}, nil)
	require.NoError(t, err)
	return r
}

// One B job of 33 examples: HELL + filling holds 5 nodes (X = 3.3), so it
// ends at 10 s and reaches 40% at 4 s.
func TestRunSingleJobExact(t *testing.T) {
	t.Parallel()
	r := traceRun(t, HELL{}, []Arrival{{Time: 2, Type: 1, Examples: 33}})
	require.Len(t, r.Jobs, 1)
	j := r.Jobs[0]
	require.True(t, j.Done)
	require.InDelta(t, 2, j.Start, 1e-12)
	require.InDelta(t, 12, j.End, 1e-12)
	require.InDeltaSlice(t, []float64{6, 12}, j.Progress, 1e-12)
	require.Equal(t, []Change{{2, 5}, {12, 0}}, j.Nodes)
	require.Equal(t, []float64{10}, r.ResponseTimes)
	require.InDeltaSlice(t, []float64{4, 10}, r.MeanProgressTime, 1e-12)
	require.Equal(t, "all arrivals completed", r.Reason)
}

// A (10 examples) and B (4) arrive together: HELL gives A 5 (X 3.5) and B 3
// (X 3), B ends at 4/3 s with A at 10 − 3.5·4/3 = 5.333; alone, A fills to 6
// nodes (X 3.6) and ends at 4/3 + 5.333/3.6 = 2.81481 s.
func TestRunTwoJobsExact(t *testing.T) {
	t.Parallel()
	r := traceRun(t, HELL{}, []Arrival{{0, 0, 10}, {0, 1, 4}})
	a, b := r.Jobs[0], r.Jobs[1]
	require.InDelta(t, 4.0/3, b.End, 1e-12)
	endA := 4.0/3 + (10-3.5*4.0/3)/3.6
	require.InDelta(t, endA, a.End, 1e-12)
	requireChanges(t, []Change{{0, 5}, {4.0 / 3, 6}, {endA, 0}}, a.Nodes)
	requireChanges(t, []Change{{0, 3}, {4.0 / 3, 0}}, b.Nodes)
	// A reaches 40% (4 examples) at 4/3.5 s, during the shared phase.
	require.InDelta(t, 4/3.5, a.Progress[0], 1e-12)
	require.InDelta(t, (endA+4.0/3)/2, r.MeanResponse, 1e-12)
}

func requireChanges(t *testing.T, want, got []Change) {
	t.Helper()
	require.Len(t, got, len(want))
	for k := range want {
		require.Equal(t, want[k].Nodes, got[k].Nodes, "change %d", k)
		require.InDelta(t, want[k].Time, got[k].Time, 1e-12, "change %d", k)
	}
}

// Work is conserved: for every job, ∫ X(nodes(t)) dt over its allocation
// history equals its size, whatever the policy.
func TestRunWorkConservation(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(9, 10))
	var arr []Arrival
	now := 0.0
	for i := 0; i < 60; i++ {
		now += rng.ExpFloat64() * 2
		arr = append(arr, Arrival{Time: now, Type: rng.IntN(2), Examples: 1 + 20*rng.Float64()})
	}
	x := [][]float64{curveA, curveB}
	for _, p := range []Policy{HELL{}, HELL{Gamma: 1.05}, KNEE{}, SRPT{}, Waterfill{}, JSQChunk{Chunk: 3}, MoldableHELL{}, MoldableKNEE{}} {
		r := traceRun(t, p, arr)
		require.Equal(t, 60, r.Completed, p.Name())
		for _, j := range r.Jobs {
			work := 0.0
			for k := 0; k+1 < len(j.Nodes); k++ {
				work += x[j.Type][j.Nodes[k].Nodes] * (j.Nodes[k+1].Time - j.Nodes[k].Time)
			}
			require.InDelta(t, j.Size, work, 1e-9*j.Size, p.Name())
			require.GreaterOrEqual(t, j.Start, j.Arrival)
			require.GreaterOrEqual(t, j.Progress[0], j.Start)
			require.LessOrEqual(t, j.Progress[0], j.End)
		}
	}
}

func smallPoisson(p Policy, load float64) Config {
	wl := handWorkload()
	wl.Types[0].EpochsVariance = 2
	wl.Types[1].EpochsVariance = 2
	return Config{Nodes: 8, Workload: wl, Policy: p, Load: load, MinJobs: 2000, MaxJobs: 20000,
		Progress: []float64{0.4}, History: true}
}

func TestRunDeterministic(t *testing.T) {
	t.Parallel()
	cfg := smallPoisson(HELL{}, 0.5)
	cfg.MaxJobs, cfg.MinJobs = 3000, 3000
	r1, err := Run(cfg, rand.New(rand.NewPCG(1, 2)))
	require.NoError(t, err)
	r2, err := Run(cfg, rand.New(rand.NewPCG(1, 2)))
	require.NoError(t, err)
	require.Equal(t, r1, r2)
	r3, err := Run(cfg, rand.New(rand.NewPCG(1, 3)))
	require.NoError(t, err)
	require.NotEqual(t, r1.MeanResponse, r3.MeanResponse)
}

// On the hand curves SRPT serves one job at a time at a speedup of at most
// 3.6 (A) or 1.65 (B) on 8 nodes, so it saturates far below load 0.9, while
// HELL stays stable at 0.5.
func TestRunSRPTUnstable(t *testing.T) {
	t.Parallel()
	r, err := Run(smallPoisson(SRPT{}, 0.9), rand.New(rand.NewPCG(1, 2)))
	require.NoError(t, err)
	require.True(t, r.Unstable)
	require.Contains(t, r.Reason, "> MaxInSystem 200")
	require.Zero(t, r.MeanResponse)

	h, err := Run(smallPoisson(HELL{}, 0.5), rand.New(rand.NewPCG(1, 2)))
	require.NoError(t, err)
	require.False(t, h.Unstable)
	require.True(t, h.Converged, h.Reason)
	require.LessOrEqual(t, h.HalfWidth, 0.05*h.MeanResponse)
	require.Less(t, h.MeanInSystem, 20.0)
}

// Without the backlog bound, an overloaded run that hits the job cap is
// recognised by the upward trend of the number in system.
func TestRunUnstableByTrend(t *testing.T) {
	t.Parallel()
	cfg := smallPoisson(SRPT{}, 0.9)
	cfg.MaxInSystem, cfg.MaxJobs = 1_000_000, 4000
	r, err := Run(cfg, rand.New(rand.NewPCG(1, 2)))
	require.NoError(t, err)
	require.True(t, r.Unstable)
	require.Contains(t, r.Reason, "trending up")
}

func TestTrendingUp(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(11, 12))
	grow, flat := make([]float64, 30), make([]float64, 30)
	for b := range grow {
		grow[b] = 5 + 2*float64(b) + rng.NormFloat64()
		flat[b] = 5 + rng.NormFloat64()
	}
	require.True(t, trendingUp(grow))
	require.False(t, trendingUp(flat))
	// A single late spike is not a trend (fails the slope t-test).
	spike := make([]float64, 30)
	for b := range spike {
		spike[b] = 5
	}
	spike[29] = 400
	require.False(t, trendingUp(spike))
}

func TestBatchMeansCI(t *testing.T) {
	t.Parallel()
	bm := batchMeans([]float64{9, 1, 2, 3, 4, 5, 6}, 3) // drops the oldest sample
	require.Equal(t, []float64{1.5, 3.5, 5.5}, bm)
	// sd = 2, t(0.975, 2) = 4.302653 → 4.302653·2/√3 = 4.968275.
	require.InDelta(t, 4.968275, ciHalfWidth(bm), 1e-6)
	require.Nil(t, batchMeans([]float64{1, 2}, 3))
}

func TestRunLambdaMatchesLoad(t *testing.T) {
	t.Parallel()
	cfg := smallPoisson(HELL{}, 0.5)
	r, err := Run(cfg, rand.New(rand.NewPCG(5, 5)))
	require.NoError(t, err)
	s1, err := cfg.Workload.MeanS1()
	require.NoError(t, err)
	require.InDelta(t, 0.5*8/s1, r.Lambda, 1e-12)
	// Empirical arrival rate within 5% of λ.
	require.InDelta(t, r.Lambda, float64(r.Arrived-1)/r.Jobs[r.Arrived-1].Arrival, 0.05*r.Lambda)
}

// JSQ-Chunk search: the best size is the argmin over the stable trials,
// and with common random numbers the search is reproducible.
func TestBestChunk(t *testing.T) {
	t.Parallel()
	cfg := smallPoisson(nil, 0.3)
	cfg.History, cfg.MaxJobs, cfg.MinJobs = false, 3000, 3000
	seed := func() *rand.Rand { return rand.New(rand.NewPCG(2, 2)) }
	s, err := BestChunk(cfg, 1, 20, seed)
	require.NoError(t, err)
	require.Len(t, s.Trials, 8)
	best := -1.0
	for _, tr := range s.Trials {
		if !tr.Unstable && (best < 0 || tr.MeanResponse < best) {
			best = tr.MeanResponse
		}
	}
	require.Equal(t, best, s.Result.MeanResponse)
	require.Equal(t, JSQChunk{Chunk: s.Best}.Name(), s.Result.Policy)
	s2, err := BestChunk(cfg, 1, 20, seed)
	require.NoError(t, err)
	require.Equal(t, s.Trials, s2.Trials)
	_, err = BestChunk(cfg, 9, 20, seed)
	require.ErrorContains(t, err, "empty chunk range [9, 8]")
}

// Explicit arrivals: load = Σ J/X(1) / (W·span) = (10+10)/1 / (8·10) = 0.25,
// λ = 1 arrival per 10 s; the policy sees that load.
func TestRunTraceLoad(t *testing.T) {
	t.Parallel()
	arr := []Arrival{{0, 0, 10}, {10, 0, 10}}
	r := traceRun(t, HELL{}, arr)
	require.InDelta(t, 0.25, r.Load, 1e-12)
	require.InDelta(t, 0.1, r.Lambda, 1e-12)
	require.False(t, r.Converged)
	cfg := Config{Nodes: 8, Workload: handWorkload(), Policy: MoldableKNEE{}, Arrivals: arr, Load: 0.7}
	r, err := Run(cfg, nil)
	require.NoError(t, err)
	require.Equal(t, 0.7, r.Load)
}

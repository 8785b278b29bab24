package mva

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

// With one customer per class Schweitzer's estimate N_k(n−e_k) = 0 is exact.
func TestSchweitzerOneCustomerIsExact(t *testing.T) {
	t.Parallel()
	x, err := Curve(fig7, 1, 1, Schweitzer)
	require.NoError(t, err)
	require.InDelta(t, 1/0.191, x[0], 1e-10)
}

// Moderately large heterogeneous case: 3 classes of populations 10, 20 and
// 30 (7,161 population vectors for the recursion). Bard–Schweitzer is
// within 5% of exact MVA per class (it is typically a few percent off).
func TestSchweitzerCloseToExact(t *testing.T) {
	t.Parallel()
	m := Model{
		Stations: []Station{{Name: "Z", Kind: Delay}, {Name: "CPU", Kind: PS}, {Name: "Disk", Kind: FCFS}, {Name: "Net", Kind: PS}},
		Classes: []Class{
			{Name: "a", Population: 10, Demands: []float64{2, 0.05, 0.08, 0.02}},
			{Name: "b", Population: 20, Demands: []float64{4, 0.03, 0.04, 0.10}},
			{Name: "c", Population: 30, Demands: []float64{8, 0.10, 0.02, 0.05}},
		},
	}
	exact, err := Solve(m, Options{})
	require.NoError(t, err)
	approx, err := Solve(m, Options{Method: BardSchweitzer})
	require.NoError(t, err)
	require.Positive(t, approx.Iterations)
	for k := range m.Classes {
		require.InEpsilon(t, exact.Throughput[k], approx.Throughput[k], 0.05, "class %d", k)
	}
	require.InEpsilon(t, exact.System, approx.System, 0.02)
	// Conservation also holds at the Schweitzer fixed point.
	for k, c := range m.Classes {
		n := 0.0
		for l := range m.Stations {
			n += approx.QueueLength[l][k]
		}
		require.InDelta(t, float64(c.Population), n, 1e-8)
	}
}

// Schweitzer handles populations far beyond the recursion's reach.
func TestSchweitzerLargePopulation(t *testing.T) {
	t.Parallel()
	m := Model{
		Stations: []Station{{Kind: Delay}, {Kind: PS}, {Kind: FCFS}},
		Classes: []Class{
			{Population: 5000, Demands: []float64{1, 0.0001, 0.0002}},
			{Population: 7000, Demands: []float64{2, 0.0003, 0.0001}},
			{Population: 9000, Demands: []float64{3, 0.0001, 0.0001}},
		},
	}
	_, err := Solve(m, Options{})
	require.ErrorContains(t, err, "BardSchweitzer")
	r, err := Solve(m, Options{Method: BardSchweitzer})
	require.NoError(t, err)
	for l := 1; l < 3; l++ {
		require.LessOrEqual(t, r.StationUtilization(l), 1+1e-9)
	}
	require.False(t, math.IsNaN(r.System))
}

// Schweitzer on the Fig. 6 network: the Curve variant equals Solve on the
// K-class model, and the Exact curve is its reference within 5%.
func TestSchweitzerCurve(t *testing.T) {
	t.Parallel()
	x, err := Curve(fig7, 10, 1, Schweitzer)
	require.NoError(t, err)
	exact, err := Curve(fig7, 10, 1, Exact)
	require.NoError(t, err)
	workers := make([]Phases, 10)
	for k := range workers {
		workers[k] = fig7
	}
	m, opt, err := Network(workers, 1, Schweitzer)
	require.NoError(t, err)
	r, err := Solve(m, opt)
	require.NoError(t, err)
	require.InDelta(t, r.System, x[9], 1e-9)
	for k := range x {
		require.InEpsilon(t, exact[k], x[k], 0.05, "K=%d", k+1)
	}
}

func TestSchweitzerNotConverged(t *testing.T) {
	t.Parallel()
	_, err := Curve(fig7, 10, 1, Schweitzer)
	require.NoError(t, err)
	_, err = CurveWith(fig7, 10, 1, Schweitzer, Options{MaxIterations: 3})
	require.ErrorContains(t, err, "no convergence after 3 iterations")
	_, err = CurveWith(fig7, 10, 1, HybridFixedPoint, Options{MaxIterations: 2})
	require.ErrorContains(t, err, "hybrid fixed point")
}

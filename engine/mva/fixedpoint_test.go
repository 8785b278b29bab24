package mva

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// The accelerated hybrid fixed point needs few evaluations of G per
// population vector (the damped iteration it replaced needed ~40 at
// β = 0.5). Counts, not times: the bounds hold on any machine, with slack
// for fused multiply-add on other architectures.
func TestFixedPointEvaluationsPerVector(t *testing.T) {
	t.Parallel()
	o, err := Options{Argument: TotalFixedPoint}.resolve()
	require.NoError(t, err)
	q := fig7
	nw := &network{kinds: []Kind{Delay, HybridLink, FCFS, HybridLink}, stations: 4,
		demand: []float64{q.Worker, q.Uplink, q.Server, q.Downlink},
		count:  []int{1000}, unit: []bool{true}, anyHybrid: true}
	s := newSolver(nw, o)
	require.NoError(t, s.recursive(make([]float64, 1000)))
	require.LessOrEqual(t, float64(s.evals)/1000, 4.0, "Curve K = 1..1000")

	m, opt := sixteenWorkers(HybridFixedPoint)
	s = newSolver(buildNetwork(m, false), o)
	require.NoError(t, s.recursive(nil))
	require.LessOrEqual(t, float64(s.evals)/(1<<16), 6.5, "16 distinct classes")

	m, opt = sixteenWorkers(HybridPerClass)
	o, err = opt.resolve()
	require.NoError(t, err)
	s = newSolver(buildNetwork(m, true), o)
	require.NoError(t, s.recursive(nil))
	// 16 types, each present in half of the vectors: 8 blocks per vector.
	require.LessOrEqual(t, float64(s.evals)/(1<<16), 8*3.5, "16 classes, per-class g")
}

// 16 distinct classes with the hybrid fixed points agree with the
// reference (plain damped iteration from zero at every vector) on a
// subset small enough for the memoised reference: 8 classes.
func TestFixedPointEightClassesMatchesReference(t *testing.T) {
	t.Parallel()
	for _, v := range []Variant{HybridFixedPoint, HybridPerClass} {
		m, opt := sixteenWorkers(v)
		m.Classes = m.Classes[:8]
		got, err := Solve(m, opt)
		require.NoError(t, err)
		want := newReference(m, opt).solve()
		require.InDeltaSlice(t, want.x, got.Throughput, 1e-9, "%v", v)
	}
}

// Steep ramps g make G nearly discontinuous. Moderately steep ones still
// match the reference; a 1e-6-wide ramp has no fixed point the iteration
// can reach, and the safeguards (restarts, then the damped iteration) end
// in the MaxIterations error, as the plain damped iteration did.
func TestFixedPointSteepRamps(t *testing.T) {
	t.Parallel()
	model := func() Model {
		m := Model{Stations: stationsFor(HybridLink)}
		for k := 0; k < 6; k++ {
			f := float64(k)
			m.Classes = append(m.Classes, Class{Population: 1, Demands: []float64{
				fig7.Worker * (1 + 0.1*f), fig7.Uplink, fig7.Server, fig7.Downlink * (1 - 0.05*f)}})
		}
		return m
	}
	for _, w := range []float64{0.1, 0.01} {
		for _, arg := range []Argument{TotalFixedPoint, ClassFixedPoint} {
			opt := Options{G: Ramp(0.6, 0.6+w), Argument: arg}
			got, err := Solve(model(), opt)
			require.NoError(t, err)
			want := newReference(model(), opt).solve()
			require.InDeltaSlice(t, want.x, got.Throughput, 1e-9, "width %v %v", w, arg)
		}
	}
	_, err := Solve(model(), Options{G: Ramp(0.6, 0.6+1e-6), Argument: TotalFixedPoint, MaxIterations: 5000})
	require.ErrorContains(t, err, "hybrid fixed point at population")
	require.ErrorContains(t, err, "no convergence after 5000 iterations")
}

package mva

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// randomModel draws a small network: 2–4 stations (one Delay, the rest of
// the given queue kinds), 1–4 class types with populations 0–3 and demands
// in (0, 1] s (some zero), with every type repeated 1–2 times so that the
// grouped recursion merges identical classes.
func randomModel(rng *rand.Rand, kinds []Kind) Model {
	L := 2 + rng.IntN(3)
	m := Model{Stations: []Station{{Name: "Z", Kind: Delay}}}
	for l := 1; l < L; l++ {
		m.Stations = append(m.Stations, Station{Name: fmt.Sprintf("Q%d", l), Kind: kinds[rng.IntN(len(kinds))]})
	}
	types := 1 + rng.IntN(4)
	for t := 0; t < types; t++ {
		d := make([]float64, L)
		d[0] = 0.1 + rng.Float64()
		for l := 1; l < L; l++ {
			if rng.IntN(6) > 0 {
				d[l] = 0.05 + rng.Float64()
			}
		}
		pop := rng.IntN(4)
		if rng.IntN(2) == 0 {
			pop = 1
		}
		for rep := 1 + rng.IntN(2); rep > 0; rep-- {
			m.Classes = append(m.Classes, Class{Name: fmt.Sprintf("t%d.%d", t, rep), Population: pop, Demands: d})
		}
	}
	m.Classes[0].Population = max(m.Classes[0].Population, 1)
	return m
}

var allKinds = []Kind{PS, FCFS, DeterministicFCFS, HybridLink}

// A steep g so that the hybrid actually switches in small networks.
func steepG(rho float64) float64 { return (rho - 0.3) / 0.4 }

// The grouped, level-by-level recursion equals the ungrouped brute-force
// reference on random networks, for every kind and every g argument: 150
// networks, the first 40 under -short.
func TestSolveMatchesUngroupedReference(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	n := 150
	if testing.Short() {
		n = 40
	}
	for i := 0; i < n; i++ {
		m := randomModel(rng, allKinds)
		opt := Options{G: steepG, Argument: Argument(i % 4)}
		got, err := Solve(m, opt)
		require.NoError(t, err)
		want := newReference(m, opt).solve()
		require.InDeltaSlice(t, want.x, got.Throughput, 1e-9, "case %d %v", i, opt.Argument)
		for l := range m.Stations {
			require.InDeltaSlice(t, want.t[l], got.ResponseTime[l], 1e-9, "case %d station %d", i, l)
		}
	}
}

// Heterogeneous classes (no merging) exercise the lattice ranking with
// several distinct types and populations above 1.
func TestSolveDistinctClassesMatchesReference(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 40; i++ {
		m := Model{Stations: []Station{{Kind: Delay}, {Kind: PS}, {Kind: FCFS}, {Kind: DeterministicFCFS}, {Kind: HybridLink}}}
		for k := 0; k < 2+rng.IntN(3); k++ {
			d := []float64{rng.Float64(), rng.Float64(), rng.Float64(), rng.Float64(), rng.Float64()}
			m.Classes = append(m.Classes, Class{Population: 1 + rng.IntN(3), Demands: d})
		}
		opt := Options{G: steepG, Argument: Argument(i % 4)}
		got, err := Solve(m, opt)
		require.NoError(t, err)
		want := newReference(m, opt).solve()
		require.InDeltaSlice(t, want.x, got.Throughput, 1e-9, "case %d", i)
	}
}

// Curve for K identical workers equals the reference with K separate
// classes of population 1 (the mascots18 formulation), for every variant.
func TestCurveMatchesMultiClassReference(t *testing.T) {
	t.Parallel()
	p := Phases{Worker: 0.02, Uplink: 0.03, Server: 0.01, Downlink: 0.025}
	for _, v := range []Variant{Exact, Approximate, Hybrid, HybridPerClass, HybridFixedPoint} {
		curve, err := Curve(p, 7, 1, v)
		require.NoError(t, err)
		for K := 1; K <= 7; K++ {
			workers := make([]Phases, K)
			for k := range workers {
				workers[k] = p
			}
			m, opt, err := Network(workers, 1, v)
			require.NoError(t, err)
			want := newReference(m, opt).solve()
			sum := 0.0
			for _, x := range want.x {
				sum += x
			}
			require.InDelta(t, sum, curve[K-1], 1e-9, "%v K=%d", v, K)
		}
	}
}

// Little's law, population conservation Σ_l N_k^l = n_k and ρ = X·S at every
// station; total utilization ≤ 1 at queueing stations of exact (Eq. 1)
// networks.
func TestLittleConservationUtilization(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(5, 6))
	for i := 0; i < 200; i++ {
		exact := i%2 == 0
		kinds := allKinds
		if exact {
			kinds = []Kind{PS, FCFS}
		}
		m := randomModel(rng, kinds)
		r, err := Solve(m, Options{Argument: Argument(i % 4)})
		require.NoError(t, err)
		for k, c := range m.Classes {
			total := 0.0
			for l := range m.Stations {
				require.InDelta(t, r.Throughput[k]*r.ResponseTime[l][k], r.QueueLength[l][k], 1e-12)
				require.InDelta(t, r.Throughput[k]*c.Demands[l], r.Utilization[l][k], 1e-12)
				total += r.QueueLength[l][k]
			}
			require.InDelta(t, float64(c.Population), total, 1e-9, "case %d class %d", i, k)
		}
		for l, st := range m.Stations {
			if exact && st.Kind != Delay { // Eq. 2 may exceed 1: TestEq2CanExceedCapacity
				require.LessOrEqual(t, r.StationUtilization(l), 1+1e-12, "case %d station %d", i, l)
			}
		}
	}
}

// Exact MVA throughput is non-decreasing in population: system throughput
// for single-class networks, and X_k in its own population n_k for
// multi-class networks.
func TestExactThroughputMonotone(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(7, 8))
	for i := 0; i < 100; i++ {
		m := randomModel(rng, []Kind{PS, FCFS})
		k := rng.IntN(len(m.Classes))
		var last float64
		for n := 1; n <= 5; n++ {
			m.Classes[k].Population = n
			r, err := Solve(m, Options{})
			require.NoError(t, err)
			require.GreaterOrEqual(t, r.Throughput[k], last-1e-12, "case %d n=%d", i, n)
			last = r.Throughput[k]
		}
	}
	for i := 0; i < 50; i++ {
		p := Phases{rng.Float64(), rng.Float64(), rng.Float64(), rng.Float64()}
		x, err := Curve(p, 50, 1, Exact)
		require.NoError(t, err)
		for K := 1; K < len(x); K++ {
			require.GreaterOrEqual(t, x[K], x[K-1]*(1-1e-14), "case %d K=%d", i, K+1)
		}
	}
}

// Heterogeneous workers in the Fig. 6 network (the paper notes the model
// applies to them) equal the reference.
func TestNetworkHeterogeneousWorkers(t *testing.T) {
	t.Parallel()
	workers := []Phases{fig7, fig7, {0.05, 0.04, 0.018, 0.04}}
	for _, v := range []Variant{Exact, Approximate, Hybrid, HybridFixedPoint, HybridPerClass} {
		m, opt, err := Network(workers, 2, v)
		require.NoError(t, err)
		require.Equal(t, 0.036, m.Classes[0].Demands[UplinkStation])
		r, err := Solve(m, opt)
		require.NoError(t, err)
		want := newReference(m, opt).solve()
		require.InDeltaSlice(t, want.x, r.Throughput, 1e-9, "%v", v)
		require.InDelta(t, r.Throughput[0], r.Throughput[1], 1e-15)
	}
}

package mva

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

// oneQueue is a think time Z = 1 s (Delay) and one queue with S = 1 s.
func oneQueue(kind Kind, population int) Model {
	return Model{
		Stations: []Station{{Name: "Z", Kind: Delay}, {Name: "Q", Kind: kind}},
		Classes:  []Class{{Name: "c", Population: population, Demands: []float64{1, 1}}},
	}
}

// Hand computation, Eq. 1: n=1: T=1, X=1/2, N=1/2.
// n=2: T = 1·(1+1/2) = 3/2, X = 2/(1+3/2) = 4/5, N_Q = 6/5, N_Z = 4/5.
func TestEq1SingleClassByHand(t *testing.T) {
	t.Parallel()
	for _, kind := range []Kind{PS, FCFS} {
		r, err := Solve(oneQueue(kind, 2), Options{})
		require.NoError(t, err)
		require.InDelta(t, 0.8, r.System, 1e-15)
		require.InDelta(t, 1.5, r.ResponseTime[1][0], 1e-15)
		require.InDelta(t, 1.0, r.ResponseTime[0][0], 1e-15)
		require.InDelta(t, 1.2, r.QueueLength[1][0], 1e-15)
		require.InDelta(t, 0.8, r.QueueLength[0][0], 1e-15)
		require.InDelta(t, 0.8, r.Utilization[1][0], 1e-15)
	}
}

// Hand computation, Eq. 2: n=1: T=1, X=1/2, N=ρ=1/2.
// n=2: T = 1 + 1·(1/2 − ½·1/2) = 5/4, X = 2/(1+5/4) = 8/9.
func TestEq2SingleClassByHand(t *testing.T) {
	t.Parallel()
	r, err := Solve(oneQueue(DeterministicFCFS, 2), Options{})
	require.NoError(t, err)
	require.InDelta(t, 1.25, r.ResponseTime[1][0], 1e-15)
	require.InDelta(t, 8.0/9, r.System, 1e-15)
}

// Eq. 2 is an approximation that can exceed the station's capacity. One
// deterministic station, no think time, S = 1 s: n=1: T=1, X=1, N=ρ=1;
// n=2: T = 1 + (1 − ½) = 3/2, X = 4/3 > 1/S. Solve reports it unclamped.
// In the Fig. 6 network, phases 10/100/90/10 ms overshoot the uplink bound.
func TestEq2CanExceedCapacity(t *testing.T) {
	t.Parallel()
	m := Model{Stations: []Station{{Name: "L", Kind: DeterministicFCFS}},
		Classes: []Class{{Population: 2, Demands: []float64{1}}}}
	r, err := Solve(m, Options{})
	require.NoError(t, err)
	require.InDelta(t, 4.0/3, r.System, 1e-15)
	x, err := Curve(Phases{Worker: 0.01, Uplink: 0.1, Server: 0.09, Downlink: 0.01}, 20, 1, Approximate)
	require.NoError(t, err)
	require.Greater(t, slices.Max(x), 10.0)
}

// Eq. 3 with constant γ mixes Eq. 1 (3/2) and Eq. 2 (5/4) at n=2.
func TestEq3ConstantGamma(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ gamma, wantT float64 }{{0, 1.25}, {1, 1.5}, {0.5, 1.375}, {7, 1.5}, {-3, 1.25}} {
		g := func(float64) float64 { return tc.gamma } // out of [0,1] is clamped
		for _, arg := range []Argument{TotalAtArrival, TotalFixedPoint, ClassFixedPoint, ClassAtArrival} {
			r, err := Solve(oneQueue(HybridLink, 2), Options{G: g, Argument: arg})
			require.NoError(t, err)
			require.InDelta(t, tc.wantT, r.ResponseTime[1][0], 1e-12, "γ=%v %v", tc.gamma, arg)
			require.InDelta(t, 2/(1+tc.wantT), r.System, 1e-12)
		}
	}
}

// Eq. 3 with g = Eq4 on the total utilization at arrival: at n=3 the
// arrival state n=2 of the Eq. 3 network has ρ = X(2)·1.
func TestEq3ThresholdByHand(t *testing.T) {
	t.Parallel()
	// n=1: T=1, X=1/2, N=ρ=1/2 (γ=g(0)=0).
	// n=2: γ=g(1/2)=0, T=5/4, X=8/9, N=10/9, ρ=8/9.
	// n=3: γ=g(8/9)=(8/9−0.8)/0.2=4/9; T_PS=1+10/9=19/9;
	//      T_FCFS=1+10/9−4/9=5/3; T=4/9·19/9+5/9·5/3=76/81+75/81=151/81.
	r, err := Solve(oneQueue(HybridLink, 3), Options{})
	require.NoError(t, err)
	require.InDelta(t, 151.0/81, r.ResponseTime[1][0], 1e-14)
	require.InDelta(t, 3/(1+151.0/81), r.System, 1e-14)
}

// Two classes of population 1 at one PS queue, each with its own think
// time 1 s; S_1 = 1 s, S_2 = 2 s. Hand computation of Eq. 1:
// (1,0): X1=1/2, N1=1/2. (0,1): X2=1/3, N2=2/3.
// (1,1): T1 = 1·(1+2/3) = 5/3, X1 = 3/8; T2 = 2·(1+1/2) = 3, X2 = 1/4.
func TestEq1TwoClassByHand(t *testing.T) {
	t.Parallel()
	m := Model{
		Stations: []Station{{Name: "Z", Kind: Delay}, {Name: "Q", Kind: PS}},
		Classes: []Class{
			{Name: "a", Population: 1, Demands: []float64{1, 1}},
			{Name: "b", Population: 1, Demands: []float64{1, 2}},
		},
	}
	r, err := Solve(m, Options{})
	require.NoError(t, err)
	require.InDeltaSlice(t, []float64{3.0 / 8, 1.0 / 4}, r.Throughput, 1e-15)
	require.InDeltaSlice(t, []float64{5.0 / 3, 3}, r.ResponseTime[1], 1e-15)
	require.InDelta(t, 5.0/8, r.System, 1e-15)
	require.InDelta(t, 3.0/8+2.0/4, r.StationUtilization(1), 1e-15)
	require.InDelta(t, 3.0/8*5/3+3.0/4, r.StationQueueLength(1), 1e-15)
}

// A class that does not visit a station (zero demand) has zero response
// time there, also under Eq. 2, and population-0 classes report zeros.
func TestZeroDemandAndZeroPopulation(t *testing.T) {
	t.Parallel()
	m := Model{
		Stations: []Station{{Name: "Z", Kind: Delay}, {Name: "L", Kind: DeterministicFCFS}},
		Classes: []Class{
			{Name: "visits", Population: 2, Demands: []float64{1, 1}},
			{Name: "skips", Population: 2, Demands: []float64{1, 0}},
			{Name: "absent", Population: 0, Demands: []float64{5, 5}},
		},
	}
	r, err := Solve(m, Options{})
	require.NoError(t, err)
	require.Zero(t, r.ResponseTime[1][1])
	require.InDelta(t, 2.0, r.Throughput[1], 1e-15) // pure delay: 2 jobs / 1 s
	require.InDelta(t, 8.0/9, r.Throughput[0], 1e-15)
	require.Zero(t, r.Throughput[2])
	require.Zero(t, r.ResponseTime[0][2])
}

func TestEq4AndRamp(t *testing.T) {
	t.Parallel()
	for rho, want := range map[float64]float64{0: 0, 0.5: 0, 0.8: 0, 0.9: 0.5, 1: 1, 1.2: 1, -1: 0} {
		require.InDelta(t, want, Eq4(rho), 1e-12, "ρ=%v", rho)
		require.InDelta(t, want, Ramp(0.8, 1)(rho), 1e-12, "ρ=%v", rho)
	}
	require.InDelta(t, 0.25, Ramp(0.5, 0.9)(0.6), 1e-12)
	require.Panics(t, func() { Ramp(1, 1) })
}

func TestMultiplePS(t *testing.T) {
	t.Parallel()
	p2, err := fig7.WithServers(2)
	require.NoError(t, err)
	require.Equal(t, Phases{Worker: 0.029, Uplink: 0.036, Server: 0.009, Downlink: 0.036}, p2)
	_, err = fig7.WithServers(0)
	require.ErrorContains(t, err, "servers")
	// CATALOGUE mascots18-fig15 check: X_m(K) ≥ X_1(K).
	for _, v := range []Variant{Exact, Approximate, Hybrid} {
		one, err := Curve(fig7, 10, 1, v)
		require.NoError(t, err)
		for _, m := range []int{2, 3} {
			many, err := Curve(fig7, 10, m, v)
			require.NoError(t, err)
			direct, err := Curve(Phases{0.029, 0.072 / float64(m), 0.018 / float64(m), 0.072 / float64(m)}, 10, 1, v)
			require.NoError(t, err)
			require.Equal(t, direct, many)
			for k := range one {
				require.GreaterOrEqual(t, many[k], one[k], "%v m=%d K=%d", v, m, k+1)
			}
		}
	}
}

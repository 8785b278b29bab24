package mva

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// fig7 is the mascots18 Fig. 7 profile (8 MB model, CPU cluster), given in
// §III-B: S^W = 29 ms, S^S = 18 ms, S^U = S^D = 72 ms.
var fig7 = Phases{Worker: 0.029, Uplink: 0.072, Server: 0.018, Downlink: 0.072}

// fig7Rows are the DERIVED reference values of CATALOGUE §A.4 (not in the
// paper), mini-batches/s for K = 1..10, printed to 3 decimals.
var fig7Rows = map[Variant][]float64{
	Exact:            {5.236, 8.098, 9.694, 10.643, 11.253, 11.672, 11.977, 12.208, 12.390, 12.536},
	Approximate:      {5.236, 9.098, 11.576, 12.922, 13.536, 13.774, 13.855, 13.879, 13.886, 13.888},
	Hybrid:           {5.236, 9.098, 11.576, 12.516, 12.326, 12.659, 12.688, 12.818, 12.885, 12.959},
	HybridFixedPoint: {5.236, 9.098, 11.377, 12.066, 12.355, 12.534, 12.667, 12.773, 12.861, 12.936},
}

func TestFig7DerivedTable(t *testing.T) {
	t.Parallel()
	for v, want := range fig7Rows {
		got, err := Curve(fig7, 10, 1, v)
		require.NoError(t, err, v)
		require.InDeltaSlice(t, want, got, 1e-3, v)
	}
}

// CATALOGUE §A.4: with g on the per-class utilization the hybrid equals the
// approximate row for the Fig. 7 parameters (ρ_k ≤ 0.38 < 0.8 for every K).
func TestFig7PerClassHybridEqualsApproximate(t *testing.T) {
	t.Parallel()
	got, err := Curve(fig7, 10, 1, HybridPerClass)
	require.NoError(t, err)
	require.InDeltaSlice(t, fig7Rows[Approximate], got, 1e-3)
}

func TestFig7OneWorkerAndBound(t *testing.T) {
	t.Parallel()
	exact, err := Curve(fig7, 40, 1, Exact)
	require.NoError(t, err)
	approx, err := Curve(fig7, 40, 1, Approximate)
	require.NoError(t, err)
	// One worker: no contention, X(1) = 1/cycle = 1/0.191 for every variant.
	require.InDelta(t, 1/0.191, exact[0], 1e-12)
	require.InDelta(t, 1/0.191, approx[0], 1e-12)
	bound := 1 / 0.072 // bottleneck link
	for k := range exact {
		require.LessOrEqual(t, exact[k], approx[k]+1e-12, "K=%d", k+1)
		require.LessOrEqual(t, approx[k], bound*(1+1e-12), "K=%d", k+1)
		if k < 10 {
			require.Less(t, approx[k], 13.889, "K=%d", k+1) // CATALOGUE check
		}
	}
	require.InDelta(t, 13.888, approx[9], 1e-3)
	for k := 1; k < len(exact); k++ {
		require.Greater(t, exact[k], exact[k-1], "exact MVA is increasing in K")
	}
}

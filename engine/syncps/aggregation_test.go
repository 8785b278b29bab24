package syncps

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestGranularityEq13AndRounds(t *testing.T) {
	t.Parallel()
	require.Equal(t, int64(4), Granularity(10, 3, 0)) // ⌈10/3⌉
	require.Equal(t, int64(1), Rounds(10, 4, 3))
	// Definition 8 cap (Z-8): G = 2 packets, so each PS aggregates ⌈10/6⌉ = 2 rounds.
	require.Equal(t, int64(2), Granularity(10, 3, 2))
	require.Equal(t, int64(2), Rounds(10, 2, 3))
	require.Equal(t, int64(0), Granularity(0, 3, 0))
	require.Equal(t, int64(0), Rounds(0, 0, 3))
	require.Panics(t, func() { Granularity(10, 0, 0) })
}

// Z-8: with Eq. 13 as printed, the factor ⌈PN/(G·K)⌉ of Eq. 18 is always 1.
func TestRoundsIsOneWithoutCap(t *testing.T) {
	t.Parallel()
	for pn := int64(1); pn <= 200; pn++ {
		for k := 1; k <= 9; k++ {
			require.Equal(t, int64(1), Rounds(pn, Granularity(pn, k, 0), k), "PN=%d K=%d", pn, k)
		}
	}
}

func TestAggregationTimeEq14(t *testing.T) {
	t.Parallel()
	require.InDelta(t, 0.1+0.01*10, AggregationTime(0.1, 0.01, 10), 1e-15)
}

// Eq. 16's algebra: G + (N−1)(G−1) = NG − N + 1, and Eq. 15 ≤ Eq. 16 with
// equality for one worker or G = 1.
func TestAggDelayEq15Eq16(t *testing.T) {
	t.Parallel()
	const pks, bw = 100.0, 1e4
	for g := int64(1); g <= 40; g++ {
		for n := 1; n <= 12; n++ {
			lhs := float64(g + int64(n-1)*(g-1))
			require.Equal(t, lhs, float64(int64(n)*g-int64(n)+1))
			require.InDelta(t, lhs*pks/bw, AggDelayMax(g, n, pks, bw), 1e-12)
			lo, hi := AggDelayMin(g, pks, bw), AggDelayMax(g, n, pks, bw)
			require.LessOrEqual(t, lo, hi)
			if n == 1 || g == 1 {
				require.InDelta(t, lo, hi, 1e-15)
			}
		}
	}
	// G = 10 packets of 100 B at 1e4 B/s: min 0.1 s; N = 3: (30−3+1)·0.01 = 0.28 s.
	require.InDelta(t, 0.1, AggDelayMin(10, pks, bw), 1e-15)
	require.InDelta(t, 0.28, AggDelayMax(10, 3, pks, bw), 1e-15)
	require.InDelta(t, 0.1, AggDelay(10, 3, pks, bw, 0), 1e-15)
	require.InDelta(t, 0.28, AggDelay(10, 3, pks, bw, 1), 1e-15)
	require.InDelta(t, 0.19, AggDelay(10, 3, pks, bw, 0.5), 1e-15)
	require.Equal(t, 0.0, AggDelayMax(0, 3, pks, bw))
}

func TestMaxAggregationTimeEq18(t *testing.T) {
	t.Parallel()
	// 0.5 + 3 workers · 2 rounds · (0.1 + 0.01·10) = 1.7 s.
	require.InDelta(t, 1.7, MaxAggregationTime(0.5, 3, 2, 0.1, 0.01, 10), 1e-12)
}

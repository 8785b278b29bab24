package sim

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestWilson: the 95% Wilson score interval of a proportion (Brown, Cai,
// DasGupta 2001, Table 1's n = 10 rows by hand).
func TestWilson(t *testing.T) {
	t.Parallel()
	lo, hi := Wilson(5, 10)
	require.InDelta(t, 0.2366, lo, 1e-4)
	require.InDelta(t, 0.7634, hi, 1e-4)
	lo, hi = Wilson(0, 10)
	require.Zero(t, lo)
	require.InDelta(t, 0.2775, hi, 1e-4)
	lo, hi = Wilson(10, 10)
	require.InDelta(t, 0.7225, lo, 1e-4)
	require.Equal(t, 1.0, hi)
}

// TestEstimateModeIntervals: the modes of TestEstimateModes's AlexNet
// trace at W = 3 account for every replication, each with the interval of
// its mean (Student's t over its replications) and of its frequency
// (Wilson) around its values.
func TestEstimateModeIntervals(t *testing.T) {
	t.Parallel()
	pr, err := Compile(zooTrace(t, "alexnet", 1, 0, 0, 1))
	require.NoError(t, err)
	e, err := pr.Estimate(Config{Workers: 3, Link: Link{Mode: WholeStream}, Seed: 1, Steps: 400}, Precision{Target: 0.05})
	require.NoError(t, err)
	require.Len(t, e.Modes, 2, "samples %v", e.Samples)
	total := 0
	for _, m := range e.Modes {
		total += m.Replications
		require.InDelta(t, float64(m.Replications)/float64(e.Replications), m.Frequency, 1e-12)
		require.Less(t, m.FrequencyLo, m.Frequency)
		require.Greater(t, m.FrequencyHi, m.Frequency)
		if m.Replications > 1 {
			require.LessOrEqual(t, m.Lo, m.Throughput)
			require.GreaterOrEqual(t, m.Hi, m.Throughput)
		} else {
			require.True(t, math.IsInf(m.Lo, -1) && math.IsInf(m.Hi, 1))
		}
	}
	require.Equal(t, e.Replications, total)
	one := operatingMode([]float64{100}, 50)
	require.True(t, math.IsInf(one.Lo, -1))
	require.Equal(t, 0.02, one.Frequency)
}

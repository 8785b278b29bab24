package analysis

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestStepCIAndStepsForCI(t *testing.T) {
	t.Parallel()
	// steps alternately 90 and 110 ms: CV = 10/100·√(n/(n−1))
	st := StepTimes{}
	var now int64
	for s := range 100 {
		d := int64(90e6)
		if s%2 == 1 {
			d = 110e6
		}
		st.Start, st.End = append(st.Start, now), append(st.End, now+d)
		now += d
	}
	ci, cv := StepCI([][]StepTimes{{st}}, 100)
	require.InDelta(t, 0.1*math.Sqrt(100.0/99), cv, 1e-9)
	require.InDelta(t, z95*cv/10, ci, 1e-9)
	require.Equal(t, 43, StepsForCI(0.1, 0.03), "⌈(1.96·0.1/0.03)²⌉ = ⌈42.7⌉")
	require.InDelta(t, 0.1, MedianStep(st, 0), 1e-9)
}

// Batch means: two repetitions of one worker at 100 and 110 ms per step
// give five batches each of exactly 10 and 1/0.11 steps/s.
func TestBatchCI(t *testing.T) {
	t.Parallel()
	steady := func(d int64) []StepTimes {
		var st StepTimes
		for s := range int64(30) {
			st.Start, st.End = append(st.Start, s*d), append(st.End, (s+1)*d)
		}
		return []StepTimes{st}
	}
	ci, err := BatchCI([][]StepTimes{steady(100e6), steady(100e6)}, 1, 30, 5)
	require.NoError(t, err)
	require.InDelta(t, 0, ci, 1e-12, "equal batches: no spread")
	ci, err = BatchCI([][]StepTimes{steady(100e6), steady(110e6)}, 1, 30, 5)
	require.NoError(t, err)
	x := []float64{10, 10, 10, 10, 10, 1 / 0.11, 1 / 0.11, 1 / 0.11, 1 / 0.11, 1 / 0.11}
	mean, sd := MeanStd(x)
	require.InDelta(t, 2.262157*sd/(mean*math.Sqrt(10)), ci, 1e-6, "t(0.975, 9) = 2.262157")
	ci, err = BatchCI([][]StepTimes{steady(100e6)}, 1, 3, 5)
	require.NoError(t, err)
	require.InDelta(t, 0, ci, 1e-12, "3 steps: 3 batches of one step")
	ci, err = BatchCI([][]StepTimes{steady(100e6)}, 1, 1, 5)
	require.NoError(t, err)
	require.True(t, math.IsInf(ci, 1), "one batch: no spread to estimate")
}

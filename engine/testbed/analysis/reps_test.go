package analysis

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestSampleHalfWidthIsStudentT(t *testing.T) {
	t.Parallel()
	s := NewSample([]float64{98, 100, 102})
	require.Equal(t, 3, s.N)
	require.InDelta(t, 100, s.Mean, 1e-12)
	require.InDelta(t, 2, s.Std, 1e-12)
	require.InDelta(t, 4.302653*2/math.Sqrt(3), s.HalfWidth(), 1e-5, "t(0.975, 2) = 4.302653")
	require.InDelta(t, 4.302653*2/math.Sqrt(3)/100, s.RelHalfWidth(), 1e-7)
	require.True(t, math.IsInf(NewSample([]float64{5}).HalfWidth(), 1), "one run: no interval")
	require.True(t, math.IsInf(NewSample([]float64{0, 0}).RelHalfWidth(), 1), "mean 0: no relative interval")
}

// The repetitions a ±3% interval needs: t(0.975, n−1)·cv/√n ≤ 0.03.
func TestRepsForCI(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		cv   float64
		want int
	}{{0, 2}, {0.01, 3}, {0.02, 5}, {0.03, 7}, {0.05, 14}, {0.10, 46}} {
		require.Equal(t, c.want, RepsForCI(c.cv, 0.03, 2), "cv %v", c.cv)
	}
	require.Equal(t, 4, RepsForCI(0.01, 0.03, 4), "never fewer than asked")
	require.Equal(t, MaxRepsForCI+1, RepsForCI(100, 0.03, 2))
	require.Panics(t, func() { RepsForCI(math.NaN(), 0.03, 2) })
	require.Panics(t, func() { RepsForCI(0.1, 0, 2) })
}

// Welch's interval of the difference: two points 4 runs each, sd 2
// around 100, so ν = 6 and the joint half-width is t(0.975, 6)·√2 = 3.46%.
func TestAgreeWelch(t *testing.T) {
	t.Parallel()
	a := Sample{Mean: 100, Std: 2, N: 4}
	g := Agree(a, Sample{Mean: 104, Std: 2, N: 4})
	require.InDelta(t, 0.04, g.Shift, 1e-12)
	require.InDelta(t, 2.446912*math.Sqrt2/100, g.Joint, 1e-7)
	require.False(t, g.Holds, "moved 4% > ±3.46%")
	g = Agree(a, Sample{Mean: 97, Std: 2, N: 4})
	require.True(t, g.Holds, "moved −3% within ±3.46%")
	g = Agree(a, Sample{Mean: 100, Std: 0, N: 1})
	require.True(t, math.IsInf(g.Joint, 1))
	require.False(t, g.Holds, "one stretched run cannot be judged")
	g = Agree(Sample{Mean: 10, N: 3}, Sample{Mean: 10, N: 3})
	require.True(t, g.Holds, "identical constant samples agree")
}

// A precise point that moves beyond its joint interval but whose whole
// interval of the difference lies within MaxDilationEffect agrees; one
// whose interval reaches past the budget does not.
func TestAgreeWithinTheEffectBudget(t *testing.T) {
	t.Parallel()
	a := Sample{Mean: 1000, Std: 1, N: 3}
	g := Agree(a, Sample{Mean: 1005, Std: 1, N: 3}) // +0.5%, joint ±0.23%
	require.Greater(t, math.Abs(g.Shift), g.Joint, "beyond the joint interval")
	require.LessOrEqual(t, math.Abs(g.Shift)+g.Joint, MaxDilationEffect)
	require.True(t, g.Holds, "+0.5%% ± %.2f%% lies within the ±1%% budget", 100*g.Joint)
	g = Agree(a, Sample{Mean: 1009, Std: 1, N: 3}) // +0.9%, joint ±0.23%
	require.False(t, g.Holds, "+0.9%% ± %.2f%% reaches past the ±1%% budget", 100*g.Joint)
	g = Agree(a, Sample{Mean: 990, Std: 1, N: 3}) // −1.0%
	require.False(t, g.Holds)
}

func TestModesSplitsAtTheLargestGap(t *testing.T) {
	t.Parallel()
	// two clusters: 4 runs near 2,750 and 3 near 3,590 (the ResNet-50 TIC
	// twins of issue 29)
	xs := []float64{2760, 3580, 2740, 3600, 2750, 2755, 3590}
	bc, modes := Modes(xs, 0.03)
	require.Less(t, bc, BimodalityThreshold, "the bimodality coefficient misses it at n = 7")
	require.Len(t, modes, 2, "the gap test finds it")
	require.Equal(t, []int{0, 2, 4, 5}, modes[0].Runs)
	require.Equal(t, []int{1, 3, 6}, modes[1].Runs)
	require.InDelta(t, 4.0/7, modes[0].Frequency, 1e-12)
	require.InDelta(t, 2751.25, modes[0].Mean, 1e-9)
	require.InDelta(t, 3590, modes[1].Mean, 1e-9)

	// one cluster: no modes
	_, modes = Modes([]float64{100, 101, 99, 100.5, 99.5, 100.2}, 0.03)
	require.Nil(t, modes)
	// two clusters closer than the target allows: one mode
	_, modes = Modes([]float64{100, 100.1, 100, 102, 102.1, 102}, 0.03)
	require.Nil(t, modes)
	// a lone far run is a mode of frequency 1/n
	_, modes = Modes([]float64{100, 100.2, 99.9, 100.1, 100, 130}, 0.03)
	require.Len(t, modes, 2)
	require.Equal(t, []int{5}, modes[1].Runs)
	// the coefficient's own values quoted in Modes's doc
	require.InDelta(t, 0.5657, Bimodality([]float64{0, 0, 0, 0, 0, 1, 1, 1, 1, 1}), 1e-4)
	require.InDelta(t, 0.4385, Bimodality([]float64{0, 0, 0, 0, 1, 1, 1}), 1e-4)
	// too few runs
	bc, modes = Modes([]float64{1, 2, 100}, 0.03)
	require.Zero(t, bc)
	require.Nil(t, modes)
}

// steady returns w's step starts and ends: n steps of period ns from
// offset ns.
func steady(offset, period int64, n int) StepTimes {
	var st StepTimes
	for s := range int64(n) {
		st.Start = append(st.Start, offset+s*period)
		st.End = append(st.End, offset+(s+1)*period)
	}
	return st
}

func TestSynchronyLockstepAndInterleaved(t *testing.T) {
	t.Parallel()
	const T = 90e6
	lock := []StepTimes{steady(0, T, 20), steady(0, T, 20), steady(0, T, 20)}
	require.InDelta(t, 1, Synchrony(lock, 10), 1e-12)
	inter := []StepTimes{steady(0, T, 20), steady(T/3, T, 20), steady(2*T/3, T, 20)}
	require.InDelta(t, 0, Synchrony(inter, 10), 1e-9, "phases 0, 1/3, 2/3 cancel")
	half := []StepTimes{steady(0, T, 20), steady(T/2, T, 20)}
	require.InDelta(t, 0, Synchrony(half, 10), 1e-9)
	near := []StepTimes{steady(0, T, 20), steady(T/10, T, 20)}
	require.InDelta(t, math.Cos(math.Pi/10), Synchrony(near, 10), 1e-9, "|1 + e^{2πi·0.9}|/2 = cos(π/10)")
	require.Equal(t, 1.0, Synchrony(lock[:1], 10), "one worker")
	require.InDelta(t, 2*T/3/1e9, StartSpread(inter), 1e-12)
	require.Zero(t, StartSpread(lock))
}

// The gap test holds its level: of 2,000 samples of 6 normal values, about
// GapAlpha have a gap beyond GapQuantile(6).
func TestGapTestLevel(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(7, 7))
	q := GapQuantile(6)
	require.InDelta(t, 5.35, q, 0.3, "95% quantile for n = 6 (an independent Python simulation gave 5.35)")
	hits := 0
	for range 2000 {
		xs := make([]float64, 6)
		for i := range xs {
			xs[i] = 100 + r.NormFloat64()
		}
		if g, _ := GapStatistic(xs); g > q {
			hits++
		}
	}
	require.InDelta(t, GapAlpha, float64(hits)/2000, 0.015)
	require.Equal(t, q, GapQuantile(6), "cached and deterministic")
	require.Panics(t, func() { GapQuantile(3) })
}

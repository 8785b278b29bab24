package measured

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"pslab/engine/predict"
)

// A relative error's interval comes from both estimates' half-widths,
// and |e|'s interval starts at 0 when e's contains 0.
func TestRelError(t *testing.T) {
	t.Parallel()
	re := NewRelError(110, 100, 0, 0)
	require.InDelta(t, 0.1, re.E, 1e-12)
	require.Equal(t, re.E, re.Lo)
	require.Equal(t, re.E, re.Hi)

	re = NewRelError(110, 100, 0.03, 0.04) // h = 5%
	require.InDelta(t, 1.1*0.95-1, re.Lo, 1e-12)
	require.InDelta(t, 1.1*1.05-1, re.Hi, 1e-12)
	e, lo, hi := re.Abs()
	require.Equal(t, re.E, e)
	require.Equal(t, re.Lo, lo)
	require.Equal(t, re.Hi, hi)

	e, lo, hi = NewRelError(101, 100, math.NaN(), 0.05).Abs() // NaN counts as 0
	require.InDelta(t, 0.01, e, 1e-12)
	require.Equal(t, 0.0, lo)
	require.InDelta(t, 1.01*1.05-1, hi, 1e-12)

	_, lo, hi = NewRelError(90, 100, 0, 0.02).Abs()
	require.InDelta(t, 1-0.9*1.02, lo, 1e-12)
	require.InDelta(t, 1-0.9*0.98, hi, 1e-12)
}

// A configuration's points judge by their verdict and draw their
// interval over repetitions; without points.arrow every point judges and
// draws ± one standard deviation.
func TestConfigJudgesAndRanges(t *testing.T) {
	t.Parallel()
	m := predict.Measurement{Workers: 2, Throughput: 100, Std: 5}
	c := &Config{}
	ok, v := c.Judges(2)
	require.True(t, ok)
	require.Empty(t, v)
	lo, hi := c.Range(m)
	require.Equal(t, [2]float64{95, 105}, [2]float64{lo, hi})

	c.Points = map[int]Point{2: {Verdict: "fails", CI: 0.03}, 3: {Verdict: VerdictHolds, CI: math.NaN()}}
	ok, v = c.Judges(2)
	require.False(t, ok)
	require.Equal(t, "fails", v)
	require.Equal(t, 0.03, c.CI(2))
	lo, hi = c.Range(m)
	require.InDelta(t, 97, lo, 1e-12)
	require.InDelta(t, 103, hi, 1e-12)
	ok, _ = c.Judges(3)
	require.True(t, ok)
	require.Equal(t, 0.0, c.CI(3), "one repetition: no interval")
}

// AbsErrors: the mean with the mean of the interval ends, the largest
// with the largest of each end; scaling scales them exactly.
func TestAbsErrors(t *testing.T) {
	t.Parallel()
	var a AbsErrors
	require.Equal(t, [3]float64{}, func() [3]float64 { m, lo, hi := a.Mean(); return [3]float64{m, lo, hi} }())
	a.Add(RelError{E: 0.1, Lo: 0.1, Hi: 0.1})
	require.False(t, a.Interval)
	a.Add(RelError{E: -0.3, Lo: -0.35, Hi: -0.25})
	a.Add(RelError{E: 0.01, Lo: -0.02, Hi: 0.04})
	mean, lo, hi := a.Mean()
	require.InDelta(t, (0.1+0.3+0.01)/3, mean, 1e-15)
	require.InDelta(t, (0.1+0.25+0)/3, lo, 1e-15)
	require.InDelta(t, (0.1+0.35+0.04)/3, hi, 1e-15)
	require.Equal(t, [3]float64{0.3, 0.25, 0.35}, [3]float64{a.Max, a.MaxLo, a.MaxHi})
	require.True(t, a.Interval)
	require.Equal(t, 3, a.N)

	re := RelError{E: -0.3, Lo: -0.35, Hi: -0.25}
	e, l, h := re.Abs()
	se, sl, sh := re.Scaled(100).Abs()
	require.Equal(t, [3]float64{100 * e, 100 * l, 100 * h}, [3]float64{se, sl, sh})
}

package sim

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// groupsOf returns the group durations (MSERBatch observations each) of
// n observations x(i).
func groupsOf(n int, x func(i int) float64) []float64 {
	z := make([]float64, 0, n/MSERBatch)
	var sum float64
	for i := range n {
		sum += x(i)
		if (i+1)%MSERBatch == 0 {
			z = append(z, sum)
			sum = 0
		}
	}
	return z
}

// TestMSERFindsTransient: observations that start at 3× their steady
// mean and decay with a time constant of 200 observations, plus noise:
// MSER-5 deletes most of the decay and none of a stationary series.
func TestMSERFindsTransient(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(1, 2))
	z := groupsOf(20000, func(i int) float64 { return 1 + 2*math.Exp(-float64(i)/200) + 0.2*r.NormFloat64() })
	d, ok := mser5(z)
	require.True(t, ok)
	require.InDelta(t, 800, d*MSERBatch, 600, "deleted %d observations", d*MSERBatch)
	flat := groupsOf(20000, func(int) float64 { return 1 + 0.2*r.NormFloat64() })
	d, ok = mser5(flat)
	require.True(t, ok)
	require.Less(t, d*MSERBatch, 500)
	// A series still rising at its end is too short.
	_, ok = mser5(groupsOf(2000, func(i int) float64 { return float64(i) }))
	require.False(t, ok)
}

// TestBatchMeansCoverage: on 400 independent AR(1) series (ρ = 0.9,
// strongly correlated observations) of known mean, the 95% batch-means
// interval covers the true rate in 90–99% of them, and the lag-1 check
// passes on most.
func TestBatchMeansCoverage(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("-short: 400 series of 40,000 observations")
	}
	r := rand.New(rand.NewPCG(3, 4))
	const series, n = 400, 40000
	covered, uncorrelated := 0, 0
	for range series {
		y := 0.0
		z := groupsOf(n, func(int) float64 {
			y = 0.9*y + 0.05*r.NormFloat64()
			return 1 + y
		})
		o := analyse(z, 1, make([]float64, Batches))
		if o.Lo <= 1 && 1 <= o.Hi {
			covered++
		}
		if o.Uncorrelated {
			uncorrelated++
		}
	}
	require.InDelta(t, 0.945, float64(covered)/series, 0.045, "coverage %d of %d", covered, series)
	require.Greater(t, uncorrelated, series*3/4)
}

func TestAnalyseTooFew(t *testing.T) {
	t.Parallel()
	o := analyse([]float64{1, 1, 1}, 8, make([]float64, Batches))
	require.False(t, o.TransientOK)
	require.Equal(t, 0.0, o.Lo)
	require.True(t, math.IsInf(o.Hi, 1))
	require.True(t, math.IsInf(o.HalfWidth, 1))
	require.InDelta(t, 8*MSERBatch, o.Throughput, 1e-12)
}

func TestEstimateBadInput(t *testing.T) {
	t.Parallel()
	pr, err := Compile(inceptionLike(3, 0.1, 1, 1))
	require.NoError(t, err)
	cfg := Config{Workers: 2}
	for _, c := range []struct {
		prec Precision
		msg  string
	}{
		{Precision{Target: -0.01}, "Precision.Target: -0.01"},
		{Precision{Target: math.NaN()}, "Precision.Target: NaN"},
		{Precision{Target: 0.6}, "Precision.Target: 0.6"},
		{Precision{MaxEvents: -1}, "Precision.MaxEvents: -1"},
		{Precision{MaxEvents: 1000}, "Precision.MaxEvents: 1000 cannot reach the target"},
		{Precision{Replications: 1}, "Precision.Replications: 1"},
	} {
		_, err := pr.Estimate(cfg, c.prec)
		require.ErrorContains(t, err, c.msg)
	}
	_, err = pr.Estimate(Config{Workers: 2, StartOffsets: []float64{0, 1}}, Precision{})
	require.ErrorContains(t, err, "StartOffsets")
	_, err = pr.Run(Config{Workers: 2, StartOffsets: []float64{0, math.NaN()}})
	require.ErrorContains(t, err, "Config.StartOffsets[1]: NaN")
	_, err = pr.Run(Config{Workers: 2, StartOffsets: []float64{0}})
	require.ErrorContains(t, err, "1 offsets for 2 workers")
}

// TestEstimateConverges: a sampled trace reaches ±1% with the minimum
// replications and reports it; the same seed gives the same estimate;
// a bound too small for the target stops unconverged with the interval
// it reached. Under -short only the first.
func TestEstimateConverges(t *testing.T) {
	t.Parallel()
	pr, err := Compile(inceptionLike(10, 0.2, 1, 1))
	require.NoError(t, err)
	cfg := Config{Workers: 4, Seed: 7}
	e, err := pr.Estimate(cfg, Precision{})
	require.NoError(t, err)
	require.True(t, e.Converged, e.Stop)
	require.Equal(t, "precision reached", e.Stop)
	require.LessOrEqual(t, e.HalfWidth, DefaultTarget)
	require.Len(t, e.Samples, e.Replications)
	require.Less(t, e.Lo, e.Throughput)
	require.Greater(t, e.Hi, e.Throughput)
	if testing.Short() {
		return // the second estimate and the bound below cost 4× the first
	}
	again, err := pr.Estimate(cfg, Precision{})
	require.NoError(t, err)
	require.Equal(t, e, again)
	tight, err := pr.Estimate(cfg, Precision{Target: 1e-5, MaxEvents: 3 * e.Events})
	require.NoError(t, err)
	require.False(t, tight.Converged)
	require.Contains(t, tight.Stop, "max events")
	require.LessOrEqual(t, tight.Events, 3*e.Events)
	require.Greater(t, tight.HalfWidth, 1e-5)
	require.Greater(t, tight.Replications, e.Replications)
}

// TestEstimateModes: AlexNet with one profiled step, flow control off,
// W = 3 settles in one of two periodic modes (doc.go): the estimate says
// so, with both modes below the link bound and the slower one rare; at
// W = 2 the replications agree and no mode is reported.
func TestEstimateModes(t *testing.T) {
	t.Parallel()
	pr, err := Compile(zooTrace(t, "alexnet", 1, 0, 0, 1))
	require.NoError(t, err)
	cfg := Config{Link: Link{Mode: WholeStream}, Seed: 1, Steps: 400}
	cfg.Workers = 3
	e, err := pr.Estimate(cfg, Precision{Target: 0.05})
	require.NoError(t, err)
	require.Greater(t, e.Bimodality, BimodalityThreshold, "samples %v", e.Samples)
	require.Len(t, e.Modes, 2)
	lo, hi := e.Modes[0], e.Modes[1]
	require.Less(t, lo.Throughput, 0.95*hi.Throughput)
	require.Less(t, lo.Frequency, 0.5)
	require.InDelta(t, 1, lo.Frequency+hi.Frequency, 1e-12)
	cfg.Workers = 2
	e, err = pr.Estimate(cfg, Precision{Target: 0.05})
	require.NoError(t, err)
	require.Nil(t, e.Modes)
}

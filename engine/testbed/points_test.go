package testbed

import (
	"context"
	"io"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"pslab/engine/testbed/collection"
	"pslab/engine/testbed/config"
)

func TestStopReason(t *testing.T) {
	t.Parallel()
	c := config.Config{Repetitions: 3, MaxRepetitions: 5}
	require.Equal(t, "±2.5% ≤ ±3% reached", stopReason(c, []float64{99, 100, 101}, 0, 0))
	require.Equal(t, "", stopReason(c, []float64{90, 100, 110}, 0, 0), "±24.8%: another repetition")
	require.Equal(t, "repetition cap 5 reached", stopReason(c, []float64{90, 100, 110, 95, 105}, 0, 0))
	c.MaxMinutes = 10
	require.Equal(t, "", stopReason(c, []float64{90, 100, 110}, 9*time.Minute, 59*time.Second))
	require.Equal(t, "time cap 10 min reached", stopReason(c, []float64{90, 100, 110}, 9*time.Minute, 61*time.Second))
}

// The point of highest contention is stretched first, then the largest
// W, then by contention.
func TestStretchOrder(t *testing.T) {
	t.Parallel()
	var points []collection.Point
	var facts []collection.RunFacts
	for i, c := range []float64{0.01, 0.05, 0.30, 0.20, 0.10} {
		w := i + 1
		points = append(points, collection.Point{Workers: w, Dilation: 1})
		facts = append(facts, collection.RunFacts{Workers: w, Dilation: 1, Contention: c},
			collection.RunFacts{Workers: w, Dilation: 2, Contention: 0.9}) // stretched runs do not count
	}
	require.Equal(t, []int{3, 5, 4, 2, 1}, stretchOrder(points, facts))
	facts[8].Contention = 0.5 // W = 5 is now the highest
	require.Equal(t, []int{5, 3, 4, 2, 1}, stretchOrder(points, facts))
	facts[8].Contention = 0.15 // W = 5 the largest: second
	require.Equal(t, []int{3, 5, 4, 2, 1}, stretchOrder(points, facts))
}

// A loopback run of the toy model with repetitions added until ±3% (or
// the cap) and the highest-contention point stretched 2×: every run is
// recorded with its dilation, and the stretched point is judged against
// the unstretched one.
func TestSmokeLoopbackRepetitionsAndDilation(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: real processes over loopback, with stretched runs (make test runs it)")
	}
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	c := smokeConfig()
	c.Name, c.Workers, c.Repetitions, c.MaxRepetitions, c.Steps, c.Average = "smoke-dilation", []int{1, 2}, 2, 3, 8, 5
	c.Dilations, c.DilatePoints = []float64{2}, 1
	o, err := self(t).measure(ctx, loopback(t), ".", c, io.Discard)
	require.NoError(t, err)
	require.Len(t, o.Points, 2)
	require.Len(t, o.Dilated, 1)
	d := o.Dilated[0]
	require.Equal(t, 2.0, d.Dilation)
	for _, p := range append(o.Points, d) {
		require.GreaterOrEqual(t, len(p.Rates), 2)
		require.LessOrEqual(t, len(p.Rates), 3)
		require.NotEmpty(t, p.Stop)
	}
	n := 0
	for _, r := range o.Runs {
		if r.Dilation == 2 {
			n++
			require.Equal(t, d.Workers, r.Workers)
		}
	}
	require.Equal(t, len(d.Rates), n)
	// a step takes at least its compute, 5.55 ms × 2 stretched: the
	// stretched throughput, on the configuration's time scale, is bounded
	// as the unstretched one is
	require.Less(t, d.Mean, smokeRateBound(d.Workers, 32, c.Average))
	points, stretched := o.Judge()
	require.Len(t, stretched, 1)
	require.NotEmpty(t, points[0].Sensitivity)
	tables, err := o.Tables(collection.Host{})
	require.NoError(t, err)
	require.Equal(t, 3, tables[collection.PointsFile].Len())
}

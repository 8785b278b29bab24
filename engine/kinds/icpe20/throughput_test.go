package icpe20

import (
	"testing"

	"github.com/stretchr/testify/require"

	"pslab/engine/dataset"
	"pslab/engine/sim"
	"pslab/engine/zoo"
)

func TestBoundFor(t *testing.T) {
	t.Parallel()
	b := dataset.NewTable(errorBounds, dataset.Provenance{})
	require.NoError(t, b.Append(int64(21), "", int64(0), 20.0, "<=", "default", "000"))
	require.NoError(t, b.Append(int64(21), "a", int64(2), 30.0, "<=", "exception", "000"))
	require.NoError(t, b.Append(int64(21), "", int64(0), 25.0, "<=", "default", "001"))
	require.NoError(t, b.Append(int64(19), "", int64(0), 5.0, "<", "default", "000"))
	for _, tc := range []struct {
		fig    int
		panel  string
		w      int
		pct    float64
		strict bool
	}{{21, "a", 2, 30, false}, {21, "a", 3, 20, false}, {21, "", 2, 20, false}, {21, "b", 2, 20, false}, {19, "", 1, 5, true}} {
		got, ok := boundFor(b, tc.fig, tc.panel, tc.w)
		require.True(t, ok)
		require.Equal(t, errorBound{pct: tc.pct, strict: tc.strict}, got, "%+v", tc)
	}
	_, ok := boundFor(b, 13, "", 1)
	require.False(t, ok)
	require.True(t, errorBound{pct: 5}.holds(5))
	require.False(t, errorBound{pct: 5, strict: true}.holds(5))
}

// BenchmarkFig22 is icpe20 Fig. 22's prediction on one core: synthesize
// the 100-step 1-worker trace of Inception-v3 at batch 128 (V100, 10 Gbps,
// the fig22 experiment's settings) and simulate 1000 steps for each
// W = 2..10, one run after another. ns/op is the wall time of the whole
// prediction (the paper: 117 s, profiling included, in Python on a 2.9 GHz
// Xeon core); events/s is the simulator's rate.
func BenchmarkFig22(b *testing.B) {
	t, err := dataset.Read("../../datasets/zoo/inception_v3.arrow", zoo.ProfileSchema, dataset.Allocator)
	if err != nil {
		b.Skipf("zoo dataset: %v", err)
	}
	pr, err := zoo.ProfileFromTable(t)
	require.NoError(b, err)
	var events int64
	for b.Loop() {
		events = 0
		tr, err := zoo.Synthesize(pr, zoo.Options{Steps: 100, Batch: 128, Bandwidth: 10e9 / 8, Window: 28e6, Alpha: 0.8889e-9, Jitter: 0.05, Seed: 1})
		require.NoError(b, err)
		for w := 2; w <= 10; w++ {
			r, err := sim.Run(tr, sim.Config{Workers: w, Steps: 1000, Seed: 1})
			require.NoError(b, err)
			events += r.Events
		}
	}
	b.ReportMetric(float64(events), "events")
	b.ReportMetric(float64(events)*float64(b.N)/b.Elapsed().Seconds(), "events/s")
}

package sim

import (
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestEstimateCacheGivesTheUncachedAnswer: an estimate from the cache is
// the one Estimate simulates without it, for a second caller with the
// same bound, with a larger bound, from another compilation of the same
// trace, and concurrently; a caller whose bound stops the estimate early,
// another configuration or another trace is simulated anew.
func TestEstimateCacheGivesTheUncachedAnswer(t *testing.T) {
	t.Parallel()
	tr := zooTrace(t, "alexnet", 10, 0.2, 0, 1)
	pr, err := Compile(tr)
	require.NoError(t, err)
	cfg := Config{Workers: 2, Seed: 7, Link: Link{Mode: WholeStream}}
	want, err := pr.Estimate(cfg, Precision{})
	require.NoError(t, err)
	require.True(t, want.Converged)

	c := NewEstimateCache()
	cached := cfg
	cached.Estimates = c
	got, err := pr.Estimate(cached, Precision{})
	require.NoError(t, err)
	require.Equal(t, want, got)
	require.Zero(t, c.Hits())

	again, err := Compile(tr) // the same content, compiled again
	require.NoError(t, err)
	got, err = again.Estimate(cached, Precision{MaxEvents: 2 * DefaultMaxEvents})
	require.NoError(t, err)
	require.Equal(t, want.Samples, got.Samples)
	require.Equal(t, want.Throughput, got.Throughput)
	require.Equal(t, 1, c.Hits(), "a larger bound takes the same path")

	// Concurrent callers of one key: one simulates, the others wait.
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			e, err := pr.Estimate(cached, Precision{})
			require.NoError(t, err)
			require.Equal(t, want.Throughput, e.Throughput)
		}()
	}
	wg.Wait()
	require.Equal(t, 5, c.Hits())

	// A bound that stops the estimate before it converges: simulated
	// anew, and equal to the uncached estimate under that bound.
	short := Precision{Target: 1e-5, MaxEvents: 3 * want.Events}
	wantShort, err := pr.Estimate(cfg, short)
	require.NoError(t, err)
	require.False(t, wantShort.Converged)
	gotShort, err := pr.Estimate(cached, short)
	require.NoError(t, err)
	require.Equal(t, wantShort, gotShort)
	require.Equal(t, 5, c.Hits())

	other := cached
	other.Seed = 8
	e, err := pr.Estimate(other, Precision{})
	require.NoError(t, err)
	require.NotEqual(t, want.Samples, e.Samples, "another seed, another estimate")
	pr2, err := Compile(zooTrace(t, "alexnet", 10, 0.3, 0, 1))
	require.NoError(t, err)
	_, err = pr2.Estimate(cached, Precision{})
	require.NoError(t, err)
	require.Equal(t, 5, c.Hits(), "other configurations and traces are simulated")

	got.Samples[0] = -1 // a caller's copy: the cache keeps its own
	got, err = pr.Estimate(cached, Precision{})
	require.NoError(t, err)
	require.Equal(t, want.Samples, got.Samples)
}

// TestEstimateCacheBoundThreshold: the least bound recorded for a
// converged estimate reproduces it without the cache, so every bound the
// cache answers with it gives the same estimate.
func TestEstimateCacheBoundThreshold(t *testing.T) {
	t.Parallel()
	pr, cfg, e := alexnetTightEstimate(t, 2, 3)
	require.True(t, e.Converged, e.Stop)
	require.False(t, e.boundHit)
	require.Greater(t, e.Replications, DefaultReplications, "the bound afforded added replications")
	require.Positive(t, e.bound)
	at, err := pr.Estimate(cfg, Precision{Target: 0.002, MaxEvents: e.bound})
	require.NoError(t, err)
	require.Equal(t, e.Samples, at.Samples, "the recorded least bound takes the same path")
}

// TestEstimateCacheSharesReplications: estimates of one trace and
// configuration that differ in their events bound or target take
// different paths, so the cache cannot answer one with another; their
// common replications are simulated once, and each answer, its events
// count included, is the uncached one.
func TestEstimateCacheSharesReplications(t *testing.T) {
	t.Parallel()
	pr, cfg, base := alexnetTightEstimate(t, 3, 5)
	precs := []Precision{{Target: 0.002}, {Target: 0.002, MaxEvents: base.Events * 2 / 3}, {Target: 0.01}, {Target: 0.002, MaxEvents: base.Events / 2}}
	var want []Estimate
	for _, prec := range precs {
		e, err := pr.Estimate(cfg, prec)
		require.NoError(t, err)
		want = append(want, e)
	}
	require.NotEqual(t, want[0].Replications, want[1].Replications, "the bound changes the path")
	c := NewEstimateCache()
	cached := cfg
	cached.Estimates = c
	var simulated int64
	for i, prec := range precs {
		var n atomic.Int64
		cached.Progress = &n
		got, err := pr.Estimate(cached, prec)
		require.NoError(t, err)
		require.Equal(t, want[i], got, "precision %+v", prec)
		simulated += n.Load()
	}
	require.Zero(t, c.Hits(), "no estimate answers another")
	require.Positive(t, c.ReplicationHits())
	var total int64
	for _, e := range want {
		total += e.Events
	}
	require.Less(t, simulated, total, "each replication once")
}

// alexnetTightEstimate compiles a 10-step AlexNet trace (20% jitter, flow
// control off) and estimates it to ±0.2% at w workers with seed.
func alexnetTightEstimate(t *testing.T, w int, seed uint64) (*Program, Config, Estimate) {
	t.Helper()
	pr, err := Compile(zooTrace(t, "alexnet", 10, 0.2, 0, 1))
	require.NoError(t, err)
	cfg := Config{Workers: w, Seed: seed, Link: Link{Mode: WholeStream}}
	e, err := pr.Estimate(cfg, Precision{Target: 0.002})
	require.NoError(t, err)
	return pr, cfg, e
}

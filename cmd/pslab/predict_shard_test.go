package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestPredictShardsMergeToOneRun compares the outputs of an unsharded
// predict sweep (2 bandwidths × 5 worker counts, every model) with those
// of its N = 1, 2, 3 and 4 shards merged: stdout text, and an Arrow table
// with its figure. Under -short: N = 4 only, and only the paper-mode text
// and the converged estimates' Arrow table and figure.
func TestPredictShardsMergeToOneRun(t *testing.T) {
	t.Parallel()
	dir, profile, _, _ := toyInputs(t)
	paper := []string{profile, "-bandwidth", "1Gbps,10Gbps", "-workers", "1..5", "-steps", "40", "-paper", "-warmup", "5", "-profile-steps", "10"}
	// converged estimates: intervals, replications and modes must survive the merge too
	converged := []string{profile, "-bandwidth", "1Gbps,10Gbps", "-workers", "1..5", "-precision", "0.05", "-profile-steps", "10"}
	arrow, svg := filepath.Join(dir, "out.arrow"), filepath.Join(dir, "out.svg")
	runs := []struct{ sweep, extra []string }{
		{paper, nil}, {paper, []string{"-format", "arrow", "-o", arrow, "-figure", svg}},
		{converged, []string{"-format", "json"}}, {converged, []string{"-format", "arrow", "-o", arrow, "-figure", svg}},
	}
	if testing.Short() {
		runs = []struct{ sweep, extra []string }{runs[0], runs[3]}
	}
	for _, run := range runs {
		extra := run.extra
		cmd := append(append([]string{"predict"}, run.sweep...), extra...)
		want, err := pslab(t, cmd...)
		require.NoError(t, err)
		wantFiles := map[string][]byte{}
		for _, p := range []string{arrow, svg} {
			if b, err := os.ReadFile(p); err == nil {
				wantFiles[p] = b
				require.NoError(t, os.Remove(p))
			}
		}
		require.Equal(t, slices.Contains(extra, "-figure"), len(wantFiles) == 2)
		for _, n := range shardCounts(1, 2, 3, 4) {
			base := filepath.Join(t.TempDir(), "shards")
			for i := range n {
				args := append(append([]string{}, cmd...), "-shard", fmt.Sprintf("%d/%d", i, n), "-shard-dir", base)
				out, err := pslab(t, args...)
				require.NoError(t, err)
				require.Empty(t, out, "a shard writes its part, not the outputs")
			}
			for p := range wantFiles {
				require.NoFileExists(t, p, "a shard writes no outputs")
			}
			got, err := pslab(t, "merge", base)
			require.NoError(t, err)
			require.Equal(t, want, got, "N = %d, %v", n, extra)
			for p, b := range wantFiles {
				g, err := os.ReadFile(p)
				require.NoError(t, err)
				require.Equal(t, b, g, "N = %d: %s", n, p)
				require.NoError(t, os.Remove(p))
			}
		}
	}
}

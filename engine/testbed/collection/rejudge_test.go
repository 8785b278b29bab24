package collection

import (
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow/go/v17/arrow/memory"
	"github.com/stretchr/testify/require"

	"pslab/engine/dataset"
)

// committedDirs are the collections whose points tables the tests hold
// to the current rules.
var committedDirs = []string{"../../../datasets/testbed-v3"}

// TestCommittedPointsAreCurrent: every committed configuration's
// points.arrow and modes.arrow are what Judge gives its committed runs
// today (to the last bits of the diagnostics, sameTable), so that a
// change of a judging rule cannot leave stale verdicts for the
// experiments to read (`pslab testbed verify -rejudge DIR` writes them
// again).
func TestCommittedPointsAreCurrent(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: reads every committed configuration's steps")
	}
	t.Parallel()
	mem := memory.NewGoAllocator()
	for _, root := range committedDirs {
		entries, err := os.ReadDir(root)
		require.NoError(t, err)
		for _, e := range entries {
			dir := filepath.Join(root, e.Name())
			if _, err := os.Stat(filepath.Join(dir, PointsFile)); err != nil {
				continue
			}
			stale, _, err := Stale(dir, mem)
			require.NoError(t, err, dir)
			require.Empty(t, stale, "%s: stale, run pslab testbed verify -rejudge %s", dir, root)
		}
	}
}

// Rejudge leaves a current configuration untouched and rewrites a stale
// one.
func TestRejudgeRewritesOnlyStaleFiles(t *testing.T) {
	t.Parallel()
	o := fakeOutcome(t)
	dir := filepath.Join(t.TempDir(), o.Config.Name)
	mem := memory.NewGoAllocator()
	require.NoError(t, o.Write(dir, Host{}, mem))
	changed, err := Rejudge(dir, mem)
	require.NoError(t, err)
	require.Empty(t, changed, "a configuration just written is current")
	require.NoError(t, os.WriteFile(filepath.Join(dir, ModesFile), []byte("stale"), 0o644))
	changed, err = Rejudge(dir, mem)
	require.NoError(t, err)
	require.Equal(t, []string{ModesFile}, changed)
	changed, err = Rejudge(dir, mem)
	require.NoError(t, err)
	require.Empty(t, changed)
}

// sameTable tolerates the last bits of a float, nothing more.
func TestSameTable(t *testing.T) {
	t.Parallel()
	mk := func(x float64, v string) *dataset.Table {
		tb := dataset.NewTable(&dataset.Schema{Name: "t", Columns: []dataset.Column{{Name: "x", Type: dataset.Float64}, {Name: "v", Type: dataset.String}}}, dataset.Provenance{})
		require.NoError(t, tb.Append(x, v))
		return tb
	}
	require.True(t, sameTable(mk(0.004410116964078073, "holds"), mk(0.004410116964078059, "holds")))
	require.True(t, sameTable(mk(math.NaN(), "holds"), mk(math.NaN(), "holds")))
	require.False(t, sameTable(mk(0.0044101, "holds"), mk(0.0044102, "holds")))
	require.False(t, sameTable(mk(1, "holds"), mk(1, "fails")))
}

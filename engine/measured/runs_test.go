package measured

import (
	"math"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"pslab/engine/dataset"
)

// TestReadRuns reads the runs of a configuration measured under
// accounting version 4 (only its unstretched ones) and of one measured
// under version 2 (none: its file predates the columns), and refuses
// values no run can have.
func TestReadRuns(t *testing.T) {
	t.Parallel()
	read := func(dir string) *dataset.Table {
		tab, err := dataset.ReadAny(filepath.Join("..", "..", "datasets", dir, RunsFile), dataset.Allocator)
		require.NoError(t, err)
		return tab
	}
	runs, err := ReadRuns(read("testbed-v3/resnet50-ordered-tic"))
	require.NoError(t, err)
	at5 := 0
	for _, r := range runs {
		require.False(t, math.IsNaN(r.Synchrony), "W = %d rep %d", r.Workers, r.Repetition)
		if r.Workers == 5 {
			at5++
		}
	}
	require.Equal(t, 15, at5, "W = 5's unstretched repetitions")
	old, err := ReadRuns(read("testbed/alexnet-b512-mux"))
	require.NoError(t, err)
	require.Nil(t, old, "accounting version 2: no dilation column")

	schema := &dataset.Schema{Name: "testbed-runs", Columns: []dataset.Column{
		{Name: "workers", Type: dataset.Int64}, {Name: "repetition", Type: dataset.Int64}, {Name: "throughput", Type: dataset.Float64},
		{Name: "dilation", Type: dataset.Float64}, {Name: "synchrony", Type: dataset.Float64}, {Name: "start_spread_s", Type: dataset.Float64}}}
	for _, row := range [][]any{
		{int64(0), int64(0), 1.0, 1.0, 0.5, 0.0},
		{int64(2), int64(0), math.NaN(), 1.0, 0.5, 0.0},
		{int64(2), int64(0), 1.0, 0.0, 0.5, 0.0},
		{int64(2), int64(0), 1.0, 1.0, 1.5, 0.0},
		{int64(2), int64(0), 1.0, 1.0, 0.5, math.Inf(1)},
	} {
		tab := dataset.NewTable(schema, dataset.Provenance{})
		require.NoError(t, tab.Append(row...))
		_, err := ReadRuns(tab)
		require.ErrorContains(t, err, "runs.arrow row 1", "%v", row)
	}
	tab := dataset.NewTable(schema, dataset.Provenance{})
	require.NoError(t, tab.Append(int64(2), int64(0), 1.0, 1.0, -1.0, 0.0))
	got, err := ReadRuns(tab)
	require.NoError(t, err)
	require.True(t, math.IsNaN(got[0].Synchrony), "−1 is undefined")
}

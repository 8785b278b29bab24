package measured

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"pslab/engine/dataset"
)

// TestReadPoints reads the per-point judgements of a configuration
// measured under accounting version 4 (datasets/testbed-v3): W = 1..6 of
// resnet50-ordered-tic hold, W = 5 in two operating modes over 15
// repetitions, and W = 7 fails (it moves under 2× dilation); the
// stretched rows (dilation 2, 4) are not points of their own. Each point
// carries its interval over repetitions.
func TestReadPoints(t *testing.T) {
	t.Parallel()
	tab, err := dataset.ReadAny(filepath.Join("..", "..", "datasets", "testbed-v3", "resnet50-ordered-tic", PointsFile), dataset.Allocator)
	require.NoError(t, err)
	v, err := ReadPoints(tab)
	require.NoError(t, err)
	require.Len(t, v, 7)
	for w := 1; w <= 6; w++ {
		require.True(t, v[w].Holds(), "W = %d", w)
		require.Greater(t, v[w].Repetitions, 1, "W = %d", w)
		require.True(t, v[w].CI > 0, "W = %d: ±%v", w, v[w].CI)
		if w != 5 {
			require.LessOrEqual(t, v[w].CI, 0.03, "W = %d", w)
		}
	}
	require.Equal(t, 2, v[5].Modes)
	require.Equal(t, 15, v[5].Repetitions)
	require.Equal(t, "fails", v[7].Verdict)

	bad := dataset.NewTable(dataset.MeasurementSchema, dataset.Provenance{})
	_, err = ReadPoints(bad)
	require.ErrorContains(t, err, `column "dilation"`)
}

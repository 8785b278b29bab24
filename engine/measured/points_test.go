package measured

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"pslab/engine/dataset"
)

// TestPointVerdicts reads the per-point verdicts of a configuration
// measured under accounting version 3 (datasets/testbed-v3): W = 1..6 of
// alexnet-b1024-mux hold, W = 7 fails on retransmissions in its 2× runs;
// the stretched rows (dilation 2) are not points of their own.
func TestPointVerdicts(t *testing.T) {
	t.Parallel()
	tab, err := dataset.ReadAny(filepath.Join("..", "..", "datasets", "testbed-v3", "alexnet-b1024-mux", PointsFile), dataset.Allocator)
	require.NoError(t, err)
	v, err := pointVerdicts(tab)
	require.NoError(t, err)
	require.Len(t, v, 7)
	for w := 1; w <= 6; w++ {
		require.Equal(t, VerdictHolds, v[w], "W = %d", w)
	}
	require.Equal(t, "fails", v[7])

	bad := dataset.NewTable(dataset.MeasurementSchema, dataset.Provenance{})
	_, err = pointVerdicts(bad)
	require.ErrorContains(t, err, `column "dilation"`)
}

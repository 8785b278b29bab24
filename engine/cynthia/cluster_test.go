package cynthia

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

// expand is h.Cluster() for a valid h.
func expand(t *testing.T, h Homogeneous) Cluster {
	t.Helper()
	c, err := h.Cluster()
	require.NoError(t, err)
	return c
}

// TestHomogeneousClusterValidatesFirst: Cluster refuses a PS or worker
// count below 1 or above MaxClusterNodes before allocating, naming the
// count. Before the fix PS = -1 panicked ("makeslice: len out of range"),
// PS = 1e12 ran out of memory and PS = 0 was refused only by Predict,
// after the allocation.
func TestHomogeneousClusterValidatesFirst(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		workers, ps int
		want        string
	}{
		{4, 0, "PS must be >= 1, got 0"},
		{4, -1, "PS must be >= 1, got -1"},
		{-5, 1, "Workers must be >= 1, got -5"},
		{4, 1e12, "4 workers + 1000000000000 PS exceed MaxClusterNodes"},
		{1e12, 1, "1000000000000 workers + 1 PS exceed MaxClusterNodes"},
		{MaxClusterNodes, 1, "exceed MaxClusterNodes"},
		{1, math.MaxInt, "exceed MaxClusterNodes"}, // Workers+PS would overflow
	} {
		_, err := homog(m4(), c.workers, c.ps, cM4).Cluster()
		require.ErrorContains(t, err, c.want, "%d workers, %d PS", c.workers, c.ps)
	}
	cl := expand(t, homog(m4(), MaxClusterNodes-1, 1, cM4))
	require.Len(t, cl.Workers, MaxClusterNodes-1)
	require.Len(t, cl.PS, 1)
}

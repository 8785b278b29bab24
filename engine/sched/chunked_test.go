package sched

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestChunkedAcrossBlocks(t *testing.T) {
	t.Parallel()
	var c chunked[Job]
	require.Nil(t, c.flatten())
	n := 3<<chunkBits + 5
	first := c.add()
	first.ID = 0
	for i := 1; i < n; i++ {
		c.add().ID = i
	}
	require.Same(t, first, c.at(0), "pointers stay valid while growing")
	require.Equal(t, n, c.len())
	require.Equal(t, 1<<chunkBits+7, c.at(1<<chunkBits+7).ID)
	flat := c.flatten()
	require.Len(t, flat, n)
	require.Equal(t, n, cap(flat))
	for i, j := range flat {
		require.Equal(t, i, j.ID)
	}
}

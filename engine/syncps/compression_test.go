package syncps

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestCompressionTime(t *testing.T) {
	t.Parallel()
	// κ·S·(1/(1−r)² − 1) = 1e-3 · 1000 · (4 − 1) = 3 s.
	require.InDelta(t, 3, CompressionTime(1000, 0.5, 1e-3), 1e-12)
	require.Equal(t, 0.0, CompressionTime(1000, 0, 1e-3))
	// Inverse square in the kept fraction: halving it quadruples t_c + κS.
	a := CompressionTime(1000, 0.2, 1e-3) + 1
	b := CompressionTime(1000, 0.6, 1e-3) + 1
	require.InDelta(t, 4, b/a, 1e-12)
	require.Panics(t, func() { CompressionTime(1, 1, 1) })
	require.Panics(t, func() { CompressionTime(1, -0.1, 1) })
}

func TestCompressedPackets(t *testing.T) {
	t.Parallel()
	require.Equal(t, int64(10), CompressedPackets(10, 0))
	require.Equal(t, int64(3), CompressedPackets(10, 0.7)) // 10·0.3 = 3.0000000000000004 in float64
	require.Equal(t, int64(4), CompressedPackets(10, 0.65))
	require.Equal(t, int64(1), CompressedPackets(1, 0.99))
	require.Equal(t, int64(0), CompressedPackets(0, 0.5))
	require.Panics(t, func() { CompressedPackets(10, 1) })
}

package measured

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"pslab/engine/zoo"
)

func TestSyncPSLayersMapsLikeTheTestbed(t *testing.T) {
	t.Parallel()
	pr := &zoo.Profile{Model: "m", Batch: 64, Layers: []zoo.Layer{
		{Name: "in", Description: "Input", Forward: 9},
		{Name: "conv", Description: "Conv2d", Forward: 0.04, Backward: 0.08, ParamBytes: 4000},
		{Name: "relu", Description: "ReLU", Forward: 0.004, Backward: 0.004},
		{Name: "fc", Description: "Linear", Forward: 0.02, Backward: 0.02, ParamBytes: 10},
	}}
	ls, err := SyncPSLayers(pr, 128, 0.0025, 40)
	require.NoError(t, err)
	require.Len(t, ls, 3, "the Input layer is data loading, not emulated")
	// 4000 B · 0.0025 = 10 B → round(2.5) = 3 float32 values = 12 B;
	// 10 B · 0.0025 → at least one value, 4 B; no parameters, no bytes.
	require.Equal(t, []int64{12, 0, 4}, []int64{ls[0].ParamBytes, ls[1].ParamBytes, ls[2].ParamBytes})
	// compute × 128/64 ÷ 40 = × 0.05
	require.InDelta(t, 0.002, ls[0].Forward, 1e-15)
	require.InDelta(t, 0.004, ls[0].Backward, 1e-15)
	require.InDelta(t, 0.0002, ls[1].Forward, 1e-15)
	for _, bad := range []struct {
		batch         int
		scale, device float64
	}{{0, 0.0025, 40}, {128, 0, 40}, {128, 0.0025, 0}, {128, math.NaN(), 40}} {
		_, err := SyncPSLayers(pr, bad.batch, bad.scale, bad.device)
		require.Error(t, err, "%+v", bad)
	}
}

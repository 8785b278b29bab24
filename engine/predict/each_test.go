package predict

import (
	"testing"

	"github.com/stretchr/testify/require"

	"pslab/engine/sim"
)

// TestRunProfileEach: each model runs at its own calibrated speed, so at
// the calibration point every model gives the measured throughput; the
// curves keep the order asked for and n/a models keep their reason.
func TestRunProfileEach(t *testing.T) {
	t.Parallel()
	p := zooProfile(t, "inception_v3")
	c := Cluster{Bandwidth: 1.25e9, Batch: 64, Sync: sim.BSP, Link: sim.Link{Mode: sim.WholeStream}, Paper: true, Steps: 20, Warmup: 5, ProfileSteps: 1}
	models := []Model{Zhang, MVAHybrid, Simulator, Cynthia}
	pt := Point{Workers: 1, Throughput: 140}
	cals, err := CalibrateEach(p, c, models, pt)
	require.NoError(t, err)
	require.Len(t, cals, 3) // MVA is asp only
	pr, err := RunProfileEach(p, c, []int{1, 4}, models, cals)
	require.NoError(t, err)
	require.Equal(t, models, pr.Models)
	require.Len(t, pr.Curves, 3)
	require.Equal(t, []Model{Zhang, Simulator, Cynthia}, []Model{pr.Curves[0].Model, pr.Curves[1].Model, pr.Curves[2].Model})
	for _, cv := range pr.Curves {
		require.InDelta(t, 140, cv.Throughput[0], 140*CalibrationTolerance, "%s", cv.Model)
	}
	require.Equal(t, "asp only", pr.Why(MVAHybrid))
	require.Len(t, pr.Sim, 2, "the simulator's runs")
	speeds := map[float64]bool{}
	for _, cal := range cals {
		speeds[cal.DeviceSpeed] = true
	}
	require.Greater(t, len(speeds), 1, "the models need different speeds to reproduce one point")
}

package accounting

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"pslab/engine/testbed/config"
	"pslab/engine/testbed/training"
)

// Predict counts, per W, the repetitions its between-run CV needs
// (within repetitions..max_repetitions), and every dilation at the
// stretched points (the largest W) k times as long; Expected keeps the
// first dilation only.
func TestPredictRepetitionsAndStretchedTime(t *testing.T) {
	t.Parallel()
	c := config.Config{Name: "toy", Model: "toy", DeviceSpeed: 20, BytesScale: 0.001, BandwidthMbit: 200, Servers: 1,
		Sync: training.ASP, Transport: training.Multiplexed, Order: training.OrderDefault, Seed: 1, Window: 65536, ConnWindow: 65536,
		Workers: []int{1, 2, 7}, Repetitions: 3, MaxRepetitions: 15, Steps: 50, Average: 30, ProfileSteps: 10, PhaseSkip: 1,
		Dilations: []float64{2, 4}, DilatePoints: 2}
	j := c.Job(".", 1)
	p, err := j.LoadPlan()
	require.NoError(t, err)
	cal := config.Calibration{MessageCost: map[string]float64{training.Multiplexed: 50e-6}, RTT: 100e-6, StepCV: 0.1}
	spread := RunSpread{CV: 0.02, PerW: map[int]float64{7: 0.05, 2: 0.001}, Source: "test"}
	pr, err := Predict(c, p, cal, "loopback-token-bucket", spread)
	require.NoError(t, err)
	require.Equal(t, 5, pr.RepsNeeded, "CV 2%: t(0.975, 4)·0.02/√5 = 2.5%")
	require.Equal(t, 15, pr.RepCap)
	require.Equal(t, "test", pr.RunCVSource)

	comm := float64(p.ModelBytes()) / c.Bandwidth()
	t1 := p.StepCompute().Seconds() + 2*comm + pr.Unscaled
	run := func(w int, k float64) float64 { return 50*max(t1, float64(w)*comm)*k + 1 }
	// W = 7 needs 14 runs (CV 5%), W = 2 the 3 it starts with (CV 0.1%),
	// W = 1 the configuration's 5 (2%)
	base := float64(10)*t1 + 2 + ProbeSteps*pr.Unscaled + 5*run(1, 1) + 3*run(2, 1) + 14*run(7, 1)
	stretched := 14*(run(7, 2)+run(7, 4)) + 3*(run(2, 2)+run(2, 4))
	require.InDelta(t, stretched, pr.Stretched, 1e-9)
	require.InDelta(t, base+stretched, pr.Seconds, 1e-9)
	require.InDelta(t, base+14*run(7, 2)+3*run(2, 2), pr.Expected, 1e-9)

	// without a committed spread: the calibration's run_cv, else the
	// step-CV bound
	pr, err = Predict(c, p, cal, "loopback-token-bucket", RunSpread{})
	require.NoError(t, err)
	require.InDelta(t, 0.1/math.Sqrt(30), pr.RunCV, 1e-12)
	cal.RunCV = 0.04
	pr, err = Predict(c, p, cal, "loopback-token-bucket", RunSpread{})
	require.NoError(t, err)
	require.Equal(t, 0.04, pr.RunCV)
	require.Equal(t, "[calibration] run_cv", pr.RunCVSource)
}

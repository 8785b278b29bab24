package predict

import (
	"testing"

	"github.com/stretchr/testify/require"

	"pslab/engine/dataset"
	"pslab/engine/sim"
	"pslab/engine/zoo"
)

func TestHostDefaults(t *testing.T) {
	t.Parallel()
	require.InDelta(t, 15.753846e9, PCIe3x16, 1e3)
	require.InDelta(t, 68.256e9, DDR4x4, 1)
	var h Host
	for _, c := range []struct {
		gpus int
		bw   float64
	}{
		{1, PCIe3x16},     // one link
		{2, PCIe3x16},     // a GPU pair shares one link
		{3, 2 * PCIe3x16}, // two links
		{4, 2 * PCIe3x16},
		{8, DDR4x4 / 2}, // four links (63 GB/s) above the staging copies' 34 GB/s
	} {
		bw, err := h.PathBandwidth(c.gpus)
		require.NoError(t, err)
		require.InDelta(t, c.bw, bw, 1, "G = %d", c.gpus)
	}
	// Sum of one GPU's gradient byte (1 byte of traffic) plus 1/G of the
	// update (4 bytes): G workers together spend (G + 4) bytes of traffic.
	for _, g := range []int{1, 2, 8} {
		ps, err := h.PSTime(g)
		require.NoError(t, err)
		require.InDelta(t, float64(g+4)/DDR4x4, float64(g)*ps, 1e-24, "G = %d", g)
	}
	slow := Host{Slowdown: 2, GPUsPerLink: 1, LinkBandwidth: 1e9, MemoryBandwidth: 1e12}
	bw, err := slow.PathBandwidth(3)
	require.NoError(t, err)
	require.InDelta(t, 3e9/2, bw, 1e-3)
	ps, err := slow.PSTime(1)
	require.NoError(t, err)
	require.InDelta(t, 2*5/1e12, ps, 1e-24)
}

func TestHostRejects(t *testing.T) {
	t.Parallel()
	_, err := Host{}.PathBandwidth(0)
	require.ErrorContains(t, err, "0 GPUs")
	_, err = Host{Slowdown: -1}.PSTime(1)
	require.ErrorContains(t, err, "Host.Slowdown -1")
	_, err = Host{GPUsPerLink: -2}.Cluster(Cluster{}, 2)
	require.ErrorContains(t, err, "Host.GPUsPerLink -2")
}

func TestHostCluster(t *testing.T) {
	t.Parallel()
	c, err := Host{}.Cluster(Cluster{Batch: 64, GPUsPerNode: 8, Colocate: true, Servers: 3, Sync: sim.BSP}, 4)
	require.NoError(t, err)
	require.True(t, c.SharedPS)
	require.Equal(t, 1, c.Servers)
	require.Equal(t, 1, c.GPUsPerNode)
	require.False(t, c.Colocate)
	require.Equal(t, 64, c.Batch)
	require.Equal(t, sim.BSP, c.Sync)
	require.InDelta(t, 2*PCIe3x16, c.Bandwidth, 1)
}

// zooProfile reads datasets/zoo/<model>.arrow of the repository.
func zooProfile(t *testing.T, model string) *zoo.Profile {
	t.Helper()
	tab, err := dataset.Read("../../datasets/zoo/"+model+".arrow", zoo.ProfileSchema, dataset.Allocator)
	require.NoError(t, err)
	p, err := zoo.ProfileFromTable(tab)
	require.NoError(t, err)
	return p
}

// TestCalibrateEachModel: every model, calibrated on its own on one
// node's 1-GPU throughput, reproduces it (issue 26: -calibrate used to fit
// the simulator only and reuse its device speed).
func TestCalibrateEachModel(t *testing.T) {
	t.Parallel()
	p := zooProfile(t, "resnet50")
	base := Cluster{Batch: 64, Link: sim.Link{Mode: sim.WholeStream}, Paper: true, Steps: 5, Warmup: 1, ProfileSteps: 1}
	c, err := Host{}.Cluster(base, 1)
	require.NoError(t, err)
	pt := Point{Workers: 1, Throughput: 219}
	for _, m := range AllModels() {
		cc := c
		if !m.Defines(sim.ASP) {
			cc.Sync = sim.BSP
		}
		cal, err := CalibrateModel(p, cc, m, pt)
		require.NoError(t, err, "%s", m)
		require.Equal(t, m, cal.Model)
		require.InDelta(t, 219, cal.Simulated, 219*CalibrationTolerance, "%s", m)
		cc.DeviceSpeed = cal.DeviceSpeed
		pr, err := RunProfile(p, cc, []int{1}, []Model{m})
		require.NoError(t, err)
		y, ok := pr.Curve(m)
		require.True(t, ok)
		require.InDelta(t, cal.Simulated, y[0], 1e-9*y[0], "%s reproduces its own calibration", m)
	}
	_, err = CalibrateModel(p, c, Zhang, pt) // ASP
	require.ErrorContains(t, err, "does not define asp")
}

// TestSharedPSLimitsCynthia: with SharedPS (the host CPU the one PS),
// Cynthia's BSP model sees the PS CPU's demand (c_prof) and throttles when
// G workers' sums exceed it; without SharedPS the PS CPU never limits.
func TestSharedPSLimitsCynthia(t *testing.T) {
	t.Parallel()
	p := zooProfile(t, "alexnet")
	// A fast link and a PS summing at 1 GB/s: 244 MB × 8 workers take ~2 s
	// of the PS CPU per step, far above one worker's compute.
	c := Cluster{Batch: 512, Bandwidth: 1e12, UpdateTime: 1e-9, Servers: 1, Link: sim.Link{Mode: sim.WholeStream}, Sync: sim.BSP,
		ProfileSteps: 1, SharedPS: true}
	shared, err := RunProfile(p, c, []int{8}, []Model{Cynthia})
	require.NoError(t, err)
	c.SharedPS = false
	own, err := RunProfile(p, c, []int{8}, []Model{Cynthia})
	require.NoError(t, err)
	ys, _ := shared.Curve(Cynthia)
	yo, _ := own.Curve(Cynthia)
	require.Less(t, ys[0], 0.8*yo[0])
}

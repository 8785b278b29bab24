package zhang

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"pslab/engine/dataset"
	"pslab/engine/experiment"
	"pslab/engine/experiment/experimenttest"
	"pslab/engine/measured"
)

func TestEmulatedGbit(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		bps, bytesScale, speed, want float64
	}{
		{12.5e6, 0.005, 20, 1},          // alexnet-b512-bsp-100mbit: 100 Mbit/s emulating 1 Gbit/s
		{12.5e6, 0.00333333, 3, 10},     // alexnet-b512-bsp-1000mbit: 10.00001 rounds to 10
		{12.5e6, 0.00166667, 6, 10},     // vgg16-bsp-1000mbit: 9.99998 rounds to 10
		{12.5e6, 0.04, 2.5, 1},          // resnet50-bsp-100mbit
		{125e6, 1, 1, 1},                // unscaled 1 Gbit/s
		{12.5e6, 0.0025, 4, 10},         // the collection's default
		{12.5e6, 0.003, 7, 4.76},        // 4.7619… to 3 significant digits
		{12.5e6 / 3, 0.001, 1, 33.3},    // 33.33… Gbit/s
		{1.25e9 / 8, 0.5, 0.5, 5},       // device_speed < 1 is allowed
		{12.5e6, 0.005 / 1.0001, 20, 1}, // within rounding of 1
	} {
		c := &measured.Config{Bandwidth: tc.bps, BytesScale: tc.bytesScale, DeviceSpeed: tc.speed}
		require.Equal(t, tc.want, emulatedGbit(c), "B %g bytes/s, bytes_scale %g, device_speed %g", tc.bps, tc.bytesScale, tc.speed)
	}
}

// zhangTestbedSpec is a zhang-testbed-iteration-time experiment over
// AlexNet's two BSP testbed configurations, both run at B = 100 Mbit/s with
// different scale factors; %SWEEP% and %DATASETS% are filled by the test.
const zhangTestbedSpec = `id = "zhang-tb"
title = "t"
paper = "zhang"
kind = "zhang-testbed-iteration-time"
description = "d"
status = "partial"
[inputs]
lo = "datasets/testbed/alexnet-b512-bsp-100mbit"
hi = "datasets/testbed/alexnet-b512-bsp-1000mbit"
zoo_alexnet = "datasets/zoo/alexnet.arrow"
%SWEEP%
[plot]
x_label = "x"
y_label = "y"
[params.profiles]
alexnet = "zoo_alexnet"
` + zhangTestConstants + `%DATASETS%`

// runZhangTestbed copies the two configurations and the AlexNet profile
// into a temporary root and runs the kind over the named inputs.
func runZhangTestbed(t *testing.T, sweep string, inputs ...string) (*experiment.Result, error) {
	t.Helper()
	dst := t.TempDir()
	experimenttest.CopyTestbed(t, root, dst, []string{"alexnet-b512-bsp-100mbit", "alexnet-b512-bsp-1000mbit"}, "datasets/zoo/alexnet.arrow")
	var sets strings.Builder
	for _, in := range inputs {
		sets.WriteString("[[params.dataset]]\ninput = \"" + in + "\"\ndnn = \"AlexNet\"\n")
	}
	spec := strings.NewReplacer("%SWEEP%", sweep, "%DATASETS%", sets.String()).Replace(zhangTestbedSpec)
	path := filepath.Join(dst, "experiments", "zhang", "tb.toml")
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	require.NoError(t, os.WriteFile(path, []byte(spec), 0o644))
	s, err := experiment.Load(path)
	require.NoError(t, err)
	env := &experiment.Env{Spec: s, Root: dst, Mem: dataset.Allocator}
	return zhangTestbedIterationTime(context.Background(), env)
}

// Two configurations at one B (100 Mbit/s) with different bytes_scale and
// device_speed are keyed apart by their emulated bandwidth, and their
// iteration times are on the emulated cluster's clock (× device_speed).
func TestZhangTestbedKeysByEmulatedBandwidth(t *testing.T) {
	t.Parallel()
	res, err := runZhangTestbed(t, "", "lo", "hi")
	require.NoError(t, err)
	for _, tc := range []struct {
		dir, key string
		speed    float64
	}{{"alexnet-b512-bsp-100mbit", "gbit1", 20}, {"alexnet-b512-bsp-1000mbit", "gbit10", 3}} {
		tab, err := dataset.Read(filepath.Join(root, "datasets", "testbed", tc.dir, "throughput.arrow"), dataset.MeasurementSchema, dataset.Allocator)
		require.NoError(t, err)
		require.Equal(t, 1, tab.Len())
		require.Equal(t, int64(3), tab.Ints("workers")[0])
		want := tc.speed * float64(3*tab.Ints("batch")[0]) / tab.Floats("throughput")[0]
		got, ok := res.Metrics["measured_iter_s.alexnet."+tc.key]
		require.True(t, ok, tc.key)
		require.InEpsilon(t, want, got, 1e-12, tc.key)
		pred := res.Metrics["iter_s.alexnet."+tc.key]
		require.InEpsilon(t, pred/got-1, res.Metrics["error.alexnet."+tc.key], 1e-9, tc.key)
	}
	for k := range res.Metrics {
		require.NotContains(t, k, "mbit", "metrics are keyed by the emulated bandwidth")
	}
	// The emulated 10 Gbit/s cluster is faster than the 1 Gbit/s one, in
	// measurement and prediction, although both ran at 100 Mbit/s.
	require.Less(t, res.Metrics["measured_iter_s.alexnet.gbit10"], res.Metrics["measured_iter_s.alexnet.gbit1"]/5)
	require.Less(t, res.Metrics["iter_s.alexnet.gbit10"], res.Metrics["iter_s.alexnet.gbit1"]/5)
}

// A sweep curve is drawn with one configuration's scale factors, so it
// must pass through that configuration's prediction, and a DNN whose
// configurations differ in scale factors cannot have one.
func TestZhangTestbedSweepCurve(t *testing.T) {
	t.Parallel()
	_, err := runZhangTestbed(t, "[sweep]\nvar = \"bandwidth\"\nvalues = [1, 10]", "lo", "hi")
	require.ErrorContains(t, err, "one sweep curve cannot draw them")

	res, err := runZhangTestbed(t, "[sweep]\nvar = \"bandwidth\"\nvalues = [0.5, 1, 2]", "lo")
	require.NoError(t, err)
	y, ok := res.Lookup("", "AlexNet zhang", 1, "")
	require.True(t, ok)
	require.InEpsilon(t, res.Metrics["iter_s.alexnet.gbit1"], y, 1e-9)
	y2, ok := res.Lookup("", "AlexNet zhang", 2, "")
	require.True(t, ok)
	require.Less(t, y2, y)
}

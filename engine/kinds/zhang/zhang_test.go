package zhang

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"pslab/engine/dataset"
	"pslab/engine/experiment"
)

// root is the repository root, where experiment inputs are found.
const root = "../../.."

// zhangSpecEnv writes a zhang experiment file into a temporary root and
// returns its Env; extraInputs maps input names to absolute paths. The AlexNet and ResNet-50 profiles are the inputs of
// experiments/zhang/fig3.toml, reached from the temporary root.
func zhangSpecEnv(t *testing.T, body string, extraInputs map[string]string) *experiment.Env {
	t.Helper()
	real, err := experiment.Load(filepath.Join(root, "experiments", "zhang", "fig3.toml"))
	require.NoError(t, err)
	tmp := t.TempDir()
	absRoot, err := filepath.Abs(root)
	require.NoError(t, err)
	var inputs strings.Builder
	inputs.WriteString("[inputs]\n")
	for _, name := range []string{"alexnet", "resnet50"} {
		rel, err := filepath.Rel(tmp, filepath.Join(absRoot, real.Inputs[name]))
		require.NoError(t, err)
		inputs.WriteString(name + " = \"" + filepath.ToSlash(rel) + "\"\n")
	}
	for name, abs := range extraInputs {
		rel, err := filepath.Rel(tmp, abs)
		require.NoError(t, err)
		inputs.WriteString(name + " = \"" + filepath.ToSlash(rel) + "\"\n")
	}
	spec := `id = "zhang-t"
title = "t"
paper = "zhang"
kind = "zhang-iteration-time"
description = "test"
status = "partial"
[plot]
x_label = "x"
y_label = "y"
` + inputs.String() + body
	dir := filepath.Join(tmp, "experiments", "zhang")
	require.NoError(t, os.MkdirAll(dir, 0o755))
	path := filepath.Join(dir, "t.toml")
	require.NoError(t, os.WriteFile(path, []byte(spec), 0o644))
	s, err := experiment.Load(path)
	require.NoError(t, err)
	return &experiment.Env{Spec: s, Root: tmp, Mem: dataset.Allocator}
}

const zhangTestConstants = `
[params.constants]
packet_size = 1460
alpha = 1.0534246575342466
base_delay = 50e-6
switch_rate = 1e8
hops = 1
agg_fixed = 20e-6
agg_per_packet = 1.46e-7
agg_delay_fraction = 0.5
sigma = 1e-3
iterations = 10
io_time = 0
update_time = 0
compression_cost = 1e-10
`

const zhangTestParams = `
[sweep]
var = "bandwidth"
values = [1, 100]

[params]
workers = 3
servers = 1
gpu_speed = 1.3
ratio = ["AlexNet", "ResNet-50"]
ratio_bandwidths = [1, 100]
measured_platforms = { "testbed 1G" = 1, "testbed 100G" = 100 }

[[params.dnn]]
name = "AlexNet"
input = "alexnet"
batch = 0

[[params.dnn]]
name = "ResNet-50"
input = "resnet50"
batch = 64
`

// TestZhangMeasuredError feeds measurements 10% slower and 20% faster than
// the predictions and checks the recorded errors, the filtering of rows
// that do not match the experiment, and the measured series.
func TestZhangMeasuredError(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	plain := zhangSpecEnv(t, zhangTestParams+zhangTestConstants, nil)
	pred, err := zhangIterationTime(ctx, plain)
	require.NoError(t, err)
	alex1, ok := pred.Metrics["iter_s.alexnet.bw1"]
	require.True(t, ok)
	res100 := pred.Metrics["iter_s.resnet-50.bw100"]
	require.Positive(t, res100)

	// Measured iteration time = workers·batch/throughput.
	tab := dataset.NewTable(dataset.MeasurementSchema, dataset.Provenance{Origin: dataset.Measured, Source: "test"})
	add := func(platform, model string, batch, workers int, sync string, seconds float64) {
		thr := float64(workers*batch) / seconds
		require.NoError(t, tab.Append("test", platform, model, batch, workers, 1, sync, "", "", thr, 0.0, 10, 0))
	}
	add("testbed 1G", "alexnet", 256, 3, "bsp", 1.1*alex1)     // +10%: error 1/11
	add("testbed 100G", "ResNet-50", 64, 3, "bsp", 0.8*res100) // −20%: error 0.25
	add("testbed 1G", "alexnet", 256, 3, "asp", 100)           // other sync: skipped
	add("testbed 1G", "alexnet", 256, 4, "bsp", 100)           // other cluster: skipped
	add("testbed 1G", "resnet50", 128, 3, "bsp", 100)          // other batch: skipped
	tmpData := filepath.Join(t.TempDir(), "m.arrow")
	require.NoError(t, dataset.Write(tmpData, tab, dataset.Allocator))

	env := zhangSpecEnv(t, zhangTestParams+zhangTestConstants, map[string]string{"measured": tmpData})
	got, err := zhangIterationTime(ctx, env)
	require.NoError(t, err)
	require.InDelta(t, (1.0/11+0.25)/2, got.Metrics["mean_error"], 1e-9)
	require.InDelta(t, 0.25, got.Metrics["max_error"], 1e-9)
	require.Equal(t, pred.Metrics["ratio.alexnet_resnet-50.bw1"], got.Metrics["ratio.alexnet_resnet-50.bw1"])

	series, origin, ys, errs := got.Table.Strings("series"), got.Table.Strings("origin"), got.Table.Floats("y"), got.Table.Floats("error")
	measured, withErr := 0, 0
	for i := range series {
		if origin[i] == dataset.Measured {
			measured++
		}
		if errs[i] != 0 {
			withErr++
			require.False(t, math.IsNaN(ys[i]))
		}
	}
	require.Equal(t, 2, measured, "only the two matching rows are plotted")
	require.Equal(t, 2, withErr, "the predictions at the measured points carry their error")
}

// TestZhangBatchScalesCompute checks that a smaller batch scales the
// profile's compute linearly: ResNet-50 at batch 64 is compute-bound at
// 100 Gbit/s with about half the iteration time of batch 128.
func TestZhangBatchScalesCompute(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r64, err := zhangIterationTime(ctx, zhangSpecEnv(t, zhangTestParams+zhangTestConstants, nil))
	require.NoError(t, err)
	r128, err := zhangIterationTime(ctx, zhangSpecEnv(t, strings.Replace(zhangTestParams, "batch = 64", "batch = 128", 1)+zhangTestConstants, nil))
	require.NoError(t, err)
	c64, c128 := r64.Metrics["compute_s.resnet-50.bw100"], r128.Metrics["compute_s.resnet-50.bw100"]
	require.InDelta(t, 0.5, c64/c128, 1e-12)
	require.InDelta(t, 0.443419/1.3, c128, 1e-6, "Σ(FP+BP) of the PipeDream ResNet-50 profile at batch 128, ÷ 1.3")
}

func TestZhangInvalidParams(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	cases := []struct {
		name, body, want string
	}{
		{"missing constant", zhangTestParams + strings.Replace(zhangTestConstants, "sigma = 1e-3\n", "", 1), "constants.sigma is missing"},
		{"negative alpha", zhangTestParams + strings.Replace(zhangTestConstants, "alpha = 1.0534246575342466", "alpha = -1", 1), "Config.Alpha"},
		{"fractional hops", zhangTestParams + strings.Replace(zhangTestConstants, "hops = 1\n", "hops = 1.5\n", 1), "whole numbers"},
		{"unknown ratio DNN", strings.Replace(zhangTestParams, `"ResNet-50"]`, `"VGG"]`, 1) + zhangTestConstants, `"VGG"`},
		{"zero gpu speed", strings.Replace(zhangTestParams, "gpu_speed = 1.3", "gpu_speed = 0", 1) + zhangTestConstants, "gpu_speed"},
		{"negative batch", strings.Replace(zhangTestParams, "batch = 64", "batch = -1", 1) + zhangTestConstants, "negative batch"},
		{"zero bandwidth", strings.Replace(zhangTestParams, "values = [1, 100]", "values = [0, 100]", 1) + zhangTestConstants, "not a positive number"},
		{"missing input", strings.Replace(zhangTestParams, `input = "alexnet"`, `input = "nope"`, 1) + zhangTestConstants, `missing required input "nope"`},
		{"unknown key", zhangTestParams + "typo = 1\n" + zhangTestConstants, "typo"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			_, err := zhangIterationTime(ctx, zhangSpecEnv(t, c.body, nil))
			require.Error(t, err)
			require.Contains(t, err.Error(), c.want)
		})
	}
}

// TestZhangUnknownPlatform: a measured BSP row whose platform has no
// bandwidth is an error naming the platform, not a silent skip.
func TestZhangUnknownPlatform(t *testing.T) {
	t.Parallel()
	tab := dataset.NewTable(dataset.MeasurementSchema, dataset.Provenance{Origin: dataset.Measured, Source: "test"})
	require.NoError(t, tab.Append("test", "lab 25G", "alexnet", 256, 3, 1, "bsp", "", "", 100.0, 0.0, 10, 0))
	p := filepath.Join(t.TempDir(), "m.arrow")
	require.NoError(t, dataset.Write(p, tab, dataset.Allocator))
	env := zhangSpecEnv(t, zhangTestParams+zhangTestConstants, map[string]string{"measured": p})
	_, err := zhangIterationTime(context.Background(), env)
	require.ErrorContains(t, err, `"lab 25G"`)
}

func TestZhangOtherKindsRejectBadLists(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dnn := `
[[params.dnn]]
name = "AlexNet"
input = "alexnet"
batch = 0
`
	_, err := zhangCompression(ctx, zhangSpecEnv(t, `
[sweep]
var = "r"
values = [0, 0.5, 1]
[params]
gpu_speed = 1
bandwidth = 10
`+dnn+zhangTestConstants, nil))
	require.ErrorContains(t, err, "outside [0, 1)")

	_, err = zhangSweeps(ctx, zhangSpecEnv(t, `
[params]
gpu_speed = 1
compute = [2, 1]
bandwidth = [1]
workers = [1]
[params.base]
compute = 1
bandwidth = 10
workers = 3
`+dnn+zhangTestConstants, nil))
	require.ErrorContains(t, err, "strictly ascending")

	_, err = zhangScalability(ctx, zhangSpecEnv(t, `
[sweep]
var = "bandwidth"
values = [1, 10]
[params]
gpu_speed = 1
compute = [1]
`+dnn+strings.Replace(dnn, `"AlexNet"`, `"AlexNet 2"`, 1)+zhangTestConstants, nil))
	require.ErrorContains(t, err, "exactly one")

}

// TestZhangCompressionMarksArgmin: the one-point series sits at the
// minimum of the curve, and κ = 0 makes compression free, so the largest
// rate of the grid is the fastest.
func TestZhangCompressionMarksArgmin(t *testing.T) {
	t.Parallel()
	body := `
[sweep]
var = "r"
values = [0, 0.3, 0.6, 0.9]
[params]
workers = 2
gpu_speed = 1
bandwidth = 10
[[params.dnn]]
name = "AlexNet"
input = "alexnet"
batch = 0
` + strings.Replace(zhangTestConstants, "compression_cost = 1e-10", "compression_cost = 0", 1)
	res, err := zhangCompression(context.Background(), zhangSpecEnv(t, body, nil))
	require.NoError(t, err)
	require.Equal(t, 0.9, res.Metrics["argmin"])
	y, ok := res.Lookup("", "fastest rate", 0.9, "")
	require.True(t, ok)
	require.Equal(t, res.Metrics["iter_s.r0.9"], y)
	require.Less(t, res.Metrics["iter_s.r0.9"], res.Metrics["iter_s.r0.6"])
}

// TestZhangReadsGraphTxt: a PipeDream graph.txt input works like the Arrow
// datasets; the Input node (data loading) is dropped and times are in
// seconds.
func TestZhangReadsGraphTxt(t *testing.T) {
	t.Parallel()
	graph := "node1 -- Input -- forward_compute_time=50.0, backward_compute_time=0.0, activation_size=1204224.0, parameter_size=0.0\n" +
		"node2 -- Linear(in_features=10, out_features=10) -- forward_compute_time=2.0, backward_compute_time=4.0, activation_size=80.0, parameter_size=146000.0\n" +
		"\tnode1 -- node2\n"
	p := filepath.Join(t.TempDir(), "toy.graph.txt")
	require.NoError(t, os.WriteFile(p, []byte(graph), 0o644))
	body := `
[sweep]
var = "bandwidth"
values = [10]
[params]
gpu_speed = 2
[[params.dnn]]
name = "Toy"
input = "toy"
batch = 0
` + zhangTestConstants
	res, err := zhangIterationTime(context.Background(), zhangSpecEnv(t, body, map[string]string{"toy": p}))
	require.NoError(t, err)
	require.InDelta(t, 0.006/2, res.Metrics["compute_s.toy.bw10"], 1e-12, "(2 + 4) ms at compute ×2, without the 50 ms Input node")
	require.Contains(t, strings.Join(res.Notes, "\n"), "Toy: batch 2 per worker, 0.1 MB of gradients")
}

package beyond

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"pslab/engine/dataset"
	"pslab/engine/experiment"
	"pslab/engine/experiment/experimenttest"
	"pslab/engine/measured"
	"pslab/engine/predict"
	"pslab/engine/sim"
)

// root is the repository root, where experiment inputs are found.
const root = "../../.."

// tbaSpec is a testbed-accuracy experiment; %MODELS%, %INPUTS% and
// %DATASETS% are filled by runTBA.
const tbaSpec = `id = "beyond-tba"
title = "t"
paper = "beyond"
kind = "testbed-accuracy"
description = "d"
status = "partial"
seed = 1
models = [%MODELS%]
[inputs]
%INPUTS%
zoo_alexnet = "datasets/zoo/alexnet.arrow"
zoo_resnet50 = "datasets/zoo/resnet50.arrow"
[plot]
type = "bar"
x_label = "configuration"
y_label = "error (%)"
[params]
steps = %STEPS%
[params.profiles]
alexnet = "zoo_alexnet"
vgg16 = "zoo_resnet50"
[params.constants]
packet_size = 1460
alpha = 1.05
base_delay = 50e-6
switch_rate = 1e8
hops = 1
agg_fixed = 20e-6
agg_per_packet = 1.46e-7
agg_delay_fraction = 0.5
sigma = 1e-3
iterations = 100
io_time = 0
update_time = 0
compression_cost = 1e-10
%DATASETS%
`

// tbaRoot is a temporary repository root holding copies of the named
// testbed configurations and the zoo profiles of AlexNet and ResNet-50.
func tbaRoot(t *testing.T, configs ...string) string {
	t.Helper()
	dst := t.TempDir()
	experimenttest.CopyTestbed(t, root, dst, configs, "datasets/zoo/alexnet.arrow", "datasets/zoo/resnet50.arrow")
	return dst
}

// runTBA writes a spec over the configurations of dir and runs the kind.
func runTBA(t *testing.T, dir, models, steps string, configs ...string) (*experiment.Result, error) {
	t.Helper()
	var inputs, sets []string
	for _, c := range configs {
		if in := c + ` = "datasets/testbed/` + c + `"`; !slices.Contains(inputs, in) {
			inputs = append(inputs, in)
		}
		sets = append(sets, "[[params.dataset]]\ninput = \""+c+"\"\ngroup = \"g\"")
	}
	spec := strings.NewReplacer("%MODELS%", models, "%STEPS%", steps, "%INPUTS%", strings.Join(inputs, "\n"),
		"%DATASETS%", strings.Join(sets, "\n")).Replace(tbaSpec)
	path := filepath.Join(dir, "experiments", "beyond", "tba.toml")
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	require.NoError(t, os.WriteFile(path, []byte(spec), 0o644))
	s, err := experiment.Load(path)
	require.NoError(t, err)
	return testbedAccuracy(context.Background(), &experiment.Env{Spec: s, Root: dir, Mem: dataset.Allocator})
}

// setThroughput rewrites a configuration's throughput.arrow with the
// given throughput per row (and the given batch for row 0 if batch > 0),
// keeping its provenance.
func setThroughput(t *testing.T, dir, config string, x []float64, batch int64) {
	t.Helper()
	path := filepath.Join(dir, "datasets", "testbed", config, "throughput.arrow")
	old, err := dataset.Read(path, dataset.MeasurementSchema, dataset.Allocator)
	require.NoError(t, err)
	require.Len(t, x, old.Len())
	nt := dataset.NewTable(dataset.MeasurementSchema, old.Provenance)
	for i := range old.Len() {
		b := old.Ints("batch")[i]
		if i == 0 && batch > 0 {
			b = batch
		}
		require.NoError(t, nt.Append(old.Strings("source")[i], old.Strings("platform")[i], old.Strings("model")[i], b,
			old.Ints("workers")[i], old.Ints("ps")[i], old.Strings("sync")[i], old.Strings("transport")[i], old.Strings("order")[i],
			x[i], old.Floats("throughput_std")[i], old.Ints("steps")[i], old.Ints("window")[i]))
	}
	require.NoError(t, dataset.Write(path, nt, dataset.Allocator))
}

func TestTBAErrors(t *testing.T) {
	t.Parallel()
	meas := []predict.Measurement{{Workers: 1, Throughput: 100}, {Workers: 2, Throughput: 200}, {Workers: 3, Throughput: 50}}
	pred := []float64{110, 150, 50}
	c := &measured.Config{}
	r := tbaErrors("m", c, meas, pred, nil)
	require.InDelta(t, (10+25+0)/3.0, r.mean, 1e-12)
	require.InDelta(t, 25, r.max, 1e-12)
	require.False(t, r.interval)
	require.Equal(t, []int{1, 2, 3}, r.workers)

	// With the measurements' intervals over repetitions and the
	// prediction's: W = 1, r = 1.1 ± 2% → |e| in [7.8, 12.2]%; W = 2,
	// r = 0.75 ± 2% → [23.5, 26.5]%; W = 3, r = 1 ± 3% (a NaN CI counts as
	// unknown) → [0, 3]%.
	c.Points = map[int]measured.Point{1: {Verdict: "holds", CI: 0.02}, 2: {Verdict: "holds", CI: 0.02}, 3: {Verdict: "holds", CI: math.NaN()}}
	r = tbaErrors("m", c, meas, pred, []float64{0, 0, 0.03})
	require.True(t, r.interval)
	require.InDelta(t, (7.8+23.5+0)/3, r.meanLo, 1e-9)
	require.InDelta(t, (12.2+26.5+3)/3, r.meanHi, 1e-9)
	require.InDelta(t, 23.5, r.maxLo, 1e-9)
	require.InDelta(t, 26.5, r.maxHi, 1e-9)
}

// Only the points that hold their testbed judgement judge a model; a
// directory without points.arrow judges on all of them.
func TestTBAJudgesHoldingPointsOnly(t *testing.T) {
	t.Parallel()
	c := &measured.Config{Meas: []predict.Measurement{{Workers: 1}, {Workers: 2}, {Workers: 3}}}
	require.Equal(t, []int{1, 2, 3}, tbaWorkersOf(tbaJudged(c)))
	c.Points = map[int]measured.Point{1: {Verdict: "holds"}, 2: {Verdict: "fails"}, 3: {Verdict: "unjudged"}}
	require.Equal(t, []int{1}, tbaWorkersOf(tbaJudged(c)))
}

// A measurement equal to one model's own prediction has zero error for
// that model and not for the others: the kind compares each model with
// the measurement at the right W.
func TestTBAErrorIsZeroAgainstOwnPrediction(t *testing.T) {
	t.Parallel()
	const cfg = "alexnet-b512-ordered-tic"
	dir := tbaRoot(t, cfg)
	tt, err := dataset.Read(filepath.Join(dir, "datasets/testbed", cfg, "trace.arrow"), dataset.TraceSchema, dataset.Allocator)
	require.NoError(t, err)
	tr, err := dataset.ToTrace(tt)
	require.NoError(t, err)
	pr, err := predict.Run(tr, predict.Cluster{Link: sim.Link{Mode: sim.WholeStream, Order: sim.TIC}}, []int{1, 2, 3, 4, 5, 6, 7}, []predict.Model{predict.MVAHybrid})
	require.NoError(t, err)
	y, _ := pr.Curve(predict.MVAHybrid)
	setThroughput(t, dir, cfg, y, 0)
	res, err := runTBA(t, dir, `"mva-hybrid", "mva-exact", "cynthia", "simulator-processor"`, "100", cfg)
	require.NoError(t, err)
	require.Greater(t, res.Metrics["error.mean."+cfg+".simulator-processor"], 0.1)
	require.InDelta(t, 0, res.Metrics["error.mean."+cfg+".mva-hybrid"], 1e-9)
	require.InDelta(t, 0, res.Metrics["error.max."+cfg+".mva-hybrid"], 1e-9)
	require.Greater(t, res.Metrics["error.mean."+cfg+".mva-exact"], 0.1)
	require.Greater(t, res.Metrics["error.mean."+cfg+".cynthia"], 0.1)
	_, sim := res.Metrics["error.mean."+cfg+".simulator"]
	require.False(t, sim, "the spec's models leave the simulator out")
	require.Equal(t, 1.0, res.Metrics["datasets.mva-hybrid"])
}

// zhang's throughput error and its iteration-time error describe the same
// prediction: with e_t = |T_p − T_m|/T_m, e_x = e_t/(1 − e_t) when zhang
// is fast and e_t/(1 + e_t) when it is slow.
func TestTBAZhangIterationAndThroughputErrorsAgree(t *testing.T) {
	t.Parallel()
	const cfg = "alexnet-b512-bsp-100mbit"
	res, err := runTBA(t, tbaRoot(t, cfg), `"zhang", "cynthia-bsp"`, "10", cfg)
	require.NoError(t, err)
	et, ex := res.Metrics["iter_error.mean.zhang"]/100, res.Metrics["error.mean."+cfg+".zhang"]/100
	require.Greater(t, et, 0.0)
	fast, slow := et/(1-et), et/(1+et)
	require.True(t, math.Abs(ex-fast) < 1e-9 || math.Abs(ex-slow) < 1e-9, "e_t %v, e_x %v", et, ex)
	require.Contains(t, res.Metrics, "error.mean."+cfg+".cynthia-bsp")
	require.NotContains(t, res.Metrics, "error.mean."+cfg+".simulator", "BSP gets no ASP model")
}

func TestTBARejectsBadInput(t *testing.T) {
	t.Parallel()
	const cfg = "alexnet-b512-bsp-1000mbit"
	dir := tbaRoot(t, cfg)
	_, err := runTBA(t, dir, `"zhang"`, "0", cfg)
	require.ErrorContains(t, err, "steps")
	_, err = runTBA(t, dir, `"zhang"`, "10", cfg, cfg)
	require.ErrorContains(t, err, "unique")

	// The VGG-16 profile input of the spec is ResNet-50's: the bytes check
	// refuses it.
	const vgg = "vgg16-bsp-1000mbit"
	_, err = runTBA(t, tbaRoot(t, vgg), `"zhang"`, "10", vgg)
	require.ErrorContains(t, err, "not the profile the testbed ran")

	// A throughput row of another batch is not this configuration.
	bad := tbaRoot(t, cfg)
	setThroughput(t, bad, cfg, []float64{49458}, 256)
	_, err = runTBA(t, bad, `"zhang"`, "10", cfg)
	require.ErrorContains(t, err, "throughput.arrow row 1")

	// A missing file names the input.
	gone := tbaRoot(t, cfg)
	require.NoError(t, os.Remove(filepath.Join(gone, "datasets/testbed", cfg, "phases.arrow")))
	_, err = runTBA(t, gone, `"zhang"`, "10", cfg)
	require.ErrorContains(t, err, cfg)
}

// setHostLimited sets (or, with v "", deletes) the accounting verdict in a
// configuration's throughput.arrow metadata, keeping everything else.
func setHostLimited(t *testing.T, dir, config, v string) {
	t.Helper()
	path := filepath.Join(dir, "datasets", "testbed", config, "throughput.arrow")
	tab, err := dataset.Read(path, dataset.MeasurementSchema, dataset.Allocator)
	require.NoError(t, err)
	if v == "" {
		delete(tab.Provenance.Extra, tbaHostLimitedKey)
	} else {
		tab.Provenance.Extra[tbaHostLimitedKey] = v
	}
	require.NoError(t, dataset.Write(path, tab, dataset.Allocator))
}

// barCategories are the bar categories of a result, in order.
func barCategories(res *experiment.Result) []string {
	var out []string
	for _, c := range res.Table.Strings("category") {
		if !slices.Contains(out, c) {
			out = append(out, c)
		}
	}
	return out
}

// The accounting verdict splits a figure group's bars and the set metrics
// by configuration, whatever the committed data's verdicts are: the test
// sets them.
func TestTBASplitsByAccounting(t *testing.T) {
	t.Parallel()
	const hl, ok = "alexnet-b512-bsp-1000mbit", "alexnet-b512-bsp-100mbit"
	dir := tbaRoot(t, hl, ok)
	setHostLimited(t, dir, hl, "true")
	setHostLimited(t, dir, ok, "false")
	res, err := runTBA(t, dir, `"zhang", "cynthia-bsp"`, "10", hl, ok)
	require.NoError(t, err)
	require.Equal(t, 1.0, res.Metrics["host_limited."+hl])
	require.Equal(t, 0.0, res.Metrics["host_limited."+ok])
	require.Equal(t, 1.0, res.Metrics["datasets.host_limited"])
	require.Equal(t, 1.0, res.Metrics["datasets.in_budget"])
	for _, m := range []string{"zhang", "cynthia-bsp"} {
		require.Equal(t, res.Metrics["error.mean."+hl+"."+m], res.Metrics["error.mean.host_limited."+m])
		require.Equal(t, res.Metrics["error.mean."+ok+"."+m], res.Metrics["error.mean.in_budget."+m])
		require.InDelta(t, (res.Metrics["error.mean."+hl+"."+m]+res.Metrics["error.mean."+ok+"."+m])/2, res.Metrics["error.mean.all."+m], 1e-9)
		// Each bar is its own configuration's error.
		y, found := res.Lookup("", tbaLabel(m), 0, "g\nhost-limited")
		require.True(t, found)
		require.Equal(t, res.Metrics["error.mean."+hl+"."+m], y)
		y, found = res.Lookup("", tbaLabel(m), 0, "g\nin budget")
		require.True(t, found)
		require.Equal(t, res.Metrics["error.mean."+ok+"."+m], y)
	}
	require.ElementsMatch(t, []string{"g\nhost-limited", "g\nin budget"}, barCategories(res))

	// Without accounting the group is not split and no set metric exists.
	setHostLimited(t, dir, hl, "")
	setHostLimited(t, dir, ok, "")
	res, err = runTBA(t, dir, `"zhang", "cynthia-bsp"`, "10", hl, ok)
	require.NoError(t, err)
	require.Equal(t, []string{"g"}, barCategories(res))
	for k := range res.Metrics {
		require.False(t, strings.Contains(k, "host_limited") || strings.Contains(k, "in_budget"), k)
	}

	// A verdict that is neither true nor false is refused, naming the input.
	setHostLimited(t, dir, ok, "maybe")
	_, err = runTBA(t, dir, `"zhang"`, "10", ok)
	require.ErrorContains(t, err, ok)
	require.ErrorContains(t, err, tbaHostLimitedKey)

	// A configuration may not take a set's name.
	_, err = runTBA(t, dir, `"zhang"`, "10", "in_budget")
	require.ErrorContains(t, err, "in_budget")
}

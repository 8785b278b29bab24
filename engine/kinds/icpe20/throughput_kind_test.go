package icpe20

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
	"pslab/engine/zoo"
)

// tputRoot is a temporary repository root with the Fig. 5 toy profile as
// datasets/toy.arrow.
func tputRoot(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	pt, err := zoo.ProfileTable(zoo.Toy(), dataset.Provenance{Origin: dataset.Derived, Source: "zoo.Toy"})
	require.NoError(t, err)
	require.NoError(t, dataset.Write(filepath.Join(root, "datasets", "toy.arrow"), pt, dataset.Allocator))
	return root
}

// toySpec is an experiment on the toy at 1 Gbps, WIN 10 MB, W = 1..4; body
// is appended to [params] (cases included).
const toySpec = `id = "icpe20-tput"
title = "t"
paper = "icpe20"
kind = "icpe20-throughput"
description = "d"
status = "partial"
seed = 7
[inputs]
toy = "datasets/toy.arrow"
%INPUTS%
[sweep]
var = "workers"
from = 1
to = 4
[plot]
x_label = "W"
y_label = "examples/s"
[params]
steps = 200
bandwidth_gbps = 1
window_mb = 10
alpha_ns_per_byte = 1
jitter = 0.05
`

const toyCase = `
[[params.case]]
id = "toy"
model = "toy"
batch = 32
panel = "b"
`

// runTput writes the spec and runs the kind on it.
func runTput(t *testing.T, root, inputs, params string) (*experiment.Result, error) {
	t.Helper()
	path := filepath.Join(root, "experiments", "icpe20", "tput.toml")
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	spec := strings.Replace(toySpec, "%INPUTS%", inputs, 1) + params
	require.NoError(t, os.WriteFile(path, []byte(spec), 0o644))
	s, err := experiment.Load(path)
	require.NoError(t, err)
	return icpe20Throughput(context.Background(), &experiment.Env{Spec: s, Root: root, Mem: dataset.Allocator})
}

func seriesY(t *testing.T, res *experiment.Result, series string, x float64) float64 {
	t.Helper()
	y, ok := res.Lookup("", series, x, "")
	require.True(t, ok, "no %s at %v", series, x)
	return y
}

func TestThroughputKindCoarseModels(t *testing.T) {
	t.Parallel()
	root := tputRoot(t)
	res, err := runTput(t, root, "", `series = ["simulator", "lin", "cynthia", "cynthia-halved"]`+toyCase)
	require.NoError(t, err)
	m := res.Metrics
	// Lin et al. at one worker is 1/cycle of the tiled tcpdump phases, i.e.
	// the profiled step.
	require.InDelta(t, 32/m["step_1w.toy"], seriesY(t, res, "toy: Lin et al. MVA (hybrid)", 1), 1e-9)
	// Cynthia's restatement from the recorded T_p, T_C, U_1, at every W.
	for w := 1; w <= 4; w++ {
		W := float64(w)
		want := W * 32 / (m["tp.toy"]*math.Max(1, W*m["u1.toy"]) + 2*m["tc.toy"])
		require.InDelta(t, want, seriesY(t, res, "toy: Cynthia (icpe20 restatement)", W), 1e-9*want)
	}
	// Toy: 30 MB per direction at 125 MB/s is 0.24 s; T_C is that.
	require.InDelta(t, 0.24, m["tc.toy"], 1e-12)
	require.InDelta(t, 32*125e6/30e6, m["link_bound.toy"], 1e-9)
	require.LessOrEqual(t, m["peak_over_bound.toy"], 1.0)
	require.Contains(t, res.Metrics, "knee.toy")
	require.Contains(t, res.Metrics, "knee_gap.toy")
}

func TestThroughputKindCaseSeries(t *testing.T) {
	t.Parallel()
	root := tputRoot(t)
	res, err := runTput(t, root, "", `series = ["simulator", "lin"]`+toyCase+`series = ["cynthia"]`+"\n")
	require.NoError(t, err)
	names := map[string]bool{}
	for _, s := range res.Table.Strings("series") {
		names[s] = true
	}
	require.Equal(t, map[string]bool{"toy: Cynthia (icpe20 restatement)": true}, names)
	require.NotContains(t, res.Metrics, "knee.toy")
}

func TestThroughputKindDeterministic(t *testing.T) {
	t.Parallel()
	root := tputRoot(t)
	a, err := runTput(t, root, "", toyCase)
	require.NoError(t, err)
	b, err := runTput(t, root, "", toyCase)
	require.NoError(t, err)
	require.Equal(t, a.Table.Floats("y"), b.Table.Floats("y"))
	require.Equal(t, a.Metrics, b.Metrics)
}

// A recorded trace given as input gives the same curve as the profile it
// was synthesized from with the kind's settings.
func TestThroughputKindTraceInput(t *testing.T) {
	t.Parallel()
	root := tputRoot(t)
	tr, err := zoo.Synthesize(zoo.Toy(), zoo.Options{Batch: 32, Bandwidth: 125e6, Window: 10e6, Alpha: 1e-9, Jitter: 0.05, Seed: 7})
	require.NoError(t, err)
	require.NoError(t, dataset.Write(filepath.Join(root, "datasets", "toy-trace.arrow"),
		dataset.FromTrace(tr, dataset.Provenance{Origin: dataset.Derived, Source: "test"}), dataset.Allocator))
	fromProfile, err := runTput(t, root, "", toyCase)
	require.NoError(t, err)
	fromTrace, err := runTput(t, root, `rec = "datasets/toy-trace.arrow"`, `
[[params.case]]
id = "toy"
trace = "rec"
batch = 32
`)
	require.NoError(t, err)
	require.Equal(t, fromProfile.Table.Floats("y"), fromTrace.Table.Floats("y"))
	_, err = runTput(t, root, `rec = "datasets/toy-trace.arrow"`, `
[[params.case]]
id = "toy"
trace = "rec"
batch = 64
`)
	require.ErrorContains(t, err, "recorded at batch 32")
}

func TestThroughputKindMeasuredErrors(t *testing.T) {
	t.Parallel()
	root := tputRoot(t)
	pred, err := runTput(t, root, "", toyCase)
	require.NoError(t, err)
	x1, x2 := seriesY(t, pred, "toy: icpe20 simulator", 1), seriesY(t, pred, "toy: icpe20 simulator", 2)

	mt := dataset.NewTable(dataset.MeasurementSchema, dataset.Provenance{Origin: dataset.Measured, Source: "test"})
	add := func(w, ps int64, transport string, tput float64) {
		require.NoError(t, mt.Append("test", "p", "toy", int64(32), w, ps, "asp", transport, "default", tput, 0.0, int64(50), int64(0)))
	}
	add(1, 1, "multiplexed", x1*1.1) // prediction 9.09% low
	add(2, 1, "multiplexed", x2*0.8) // prediction 25% high
	add(3, 2, "multiplexed", 1)      // other PS count: ignored
	add(4, 1, "ordered", 1)          // other transport: ignored
	require.NoError(t, dataset.Write(filepath.Join(root, "datasets", "meas.arrow"), mt, dataset.Allocator))
	bt := dataset.NewTable(errorBounds, dataset.Provenance{Origin: dataset.Reported, Source: "test"})
	require.NoError(t, bt.Append(int64(13), "", int64(0), 10.0, "<=", "default", "000"))
	require.NoError(t, dataset.Write(filepath.Join(root, "datasets", "bounds.arrow"), bt, dataset.Allocator))

	res, err := runTput(t, root, "measured = \"datasets/meas.arrow\"\nerror_bounds = \"datasets/bounds.arrow\"", "figure = 13\n"+toyCase)
	require.NoError(t, err)
	e1, e2 := 100*(1-1/1.1), 25.0
	require.InDelta(t, e2, res.Metrics["error.max.toy"], 1e-9)
	require.InDelta(t, (e1+e2)/2, res.Metrics["error.mean.toy"], 1e-9)
	require.Equal(t, 2.0, res.Metrics["error.points.toy"])
	require.InDelta(t, e2-10, res.Metrics["error.excess.toy"], 1e-9)
	require.Equal(t, 1.0, res.Metrics["error.violations.toy"])
	require.InDelta(t, x2*0.8, seriesY(t, res, "toy", 2), 1e-12)
	// The simulator's rows carry their signed error; unmeasured W has 0.
	ser, xs, errs := res.Table.Strings("series"), res.Table.Floats("x"), res.Table.Floats("error")
	got := map[float64]float64{}
	for i := range ser {
		if ser[i] == "toy: icpe20 simulator" {
			got[xs[i]] = errs[i]
		}
	}
	require.InDelta(t, 1/1.1-1, got[1], 1e-12)
	require.InDelta(t, 0.25, got[2], 1e-12)
	require.Equal(t, 0.0, got[3])

	// Coarse models against the same measurements.
	res, err = runTput(t, root, "measured = \"datasets/meas.arrow\"", `series = ["simulator", "cynthia"]`+toyCase)
	require.NoError(t, err)
	c1, c2 := seriesY(t, res, "toy: Cynthia (icpe20 restatement)", 1), seriesY(t, res, "toy: Cynthia (icpe20 restatement)", 2)
	ec1, ec2 := 100*math.Abs(c1/(x1*1.1)-1), 100*math.Abs(c2/(x2*0.8)-1)
	require.InDelta(t, math.Max(ec1, ec2), res.Metrics["error_cynthia.max.toy"], 1e-9)
	require.InDelta(t, (ec1+ec2)/2, res.Metrics["error_cynthia.mean.toy"], 1e-9)
	require.InDelta(t, math.Max(c1/(x1*1.1), c2/(x2*0.8)), res.Metrics["cynthia_over_measured_max.toy"], 1e-12)
	require.InDelta(t, (ec1+ec2)/2-(e1+e2)/2, res.Metrics["sim_advantage_cynthia.toy"], 1e-9)

	// The same table named by the case instead of the experiment.
	res, err = runTput(t, root, "meas2 = \"datasets/meas.arrow\"", toyCase+"measured = \"meas2\"\n")
	require.NoError(t, err)
	require.InDelta(t, e2, res.Metrics["error.max.toy"], 1e-9)

	// An exception for panel b at W = 2 (30%) covers the 25% point.
	require.NoError(t, bt.Append(int64(13), "b", int64(2), 30.0, "<=", "exception", "000"))
	require.NoError(t, dataset.Write(filepath.Join(root, "datasets", "bounds.arrow"), bt, dataset.Allocator))
	res, err = runTput(t, root, "measured = \"datasets/meas.arrow\"\nerror_bounds = \"datasets/bounds.arrow\"", "figure = 13\n"+toyCase)
	require.NoError(t, err)
	require.InDelta(t, e1-10, res.Metrics["error.excess.toy"], 1e-9)
	require.Equal(t, 0.0, res.Metrics["error.violations.toy"])

	// Two rows for one configuration are ambiguous.
	add(2, 1, "multiplexed", 5)
	require.NoError(t, dataset.Write(filepath.Join(root, "datasets", "meas.arrow"), mt, dataset.Allocator))
	_, err = runTput(t, root, "measured = \"datasets/meas.arrow\"", toyCase)
	require.ErrorContains(t, err, "two rows for toy, batch 32, 1 PS, 2 workers")
}

func TestThroughputKindMeasuredRatio(t *testing.T) {
	t.Parallel()
	root := tputRoot(t)
	mt := dataset.NewTable(dataset.MeasurementSchema, dataset.Provenance{Origin: dataset.Measured, Source: "test"})
	for _, r := range []struct {
		model string
		w     int64
		tput  float64
	}{{"a", 1, 10}, {"a", 2, 15}, {"a", 3, 20}, {"b", 1, 8}, {"b", 2, 10}} {
		require.NoError(t, mt.Append("test", "p", r.model, int64(32), r.w, int64(1), "asp", "multiplexed", "default", r.tput, 0.0, int64(50), int64(0)))
	}
	require.NoError(t, dataset.Write(filepath.Join(root, "datasets", "meas.arrow"), mt, dataset.Allocator))
	res, err := runTput(t, root, "measured = \"datasets/meas.arrow\"", `
[[params.case]]
id = "a"
model = "toy"
measured_model = "a"
batch = 32
series = []

[[params.case]]
id = "b"
model = "toy"
measured_model = "b"
batch = 32
series = []

[[params.compare]]
num = "a"
den = "b"
`)
	require.NoError(t, err)
	require.InDelta(t, 10.0/8, res.Metrics["measured_ratio_min.a.b"], 1e-12)  // W = 1
	require.InDelta(t, 15.0/10, res.Metrics["measured_ratio_max.a.b"], 1e-12) // W = 2
	require.NotContains(t, res.Metrics, "ratio_min.a.b")

	// With both simulated: the difference of their mean errors.
	res, err = runTput(t, root, "measured = \"datasets/meas.arrow\"", `
[[params.case]]
id = "a"
model = "toy"
measured_model = "a"
batch = 32

[[params.case]]
id = "b"
model = "toy"
measured_model = "b"
batch = 32

[[params.compare]]
num = "a"
den = "b"
`)
	require.NoError(t, err)
	require.InDelta(t, res.Metrics["error.mean.a"]-res.Metrics["error.mean.b"], res.Metrics["error_mean_diff.a.b"], 1e-12)
	require.InDelta(t, 1, res.Metrics["ratio_min.a.b"], 1e-12) // same trace, same seed
}

func TestThroughputKindEvents(t *testing.T) {
	t.Parallel()
	root := tputRoot(t)
	res, err := runTput(t, root, "", `series = ["events"]`+toyCase+"steps = 20\n")
	require.NoError(t, err)
	m := res.Metrics
	require.Equal(t, 0.0, m["events_per_step_spread.toy"])
	e := m["events_per_step.toy"]
	require.Equal(t, e*20*1, m["events.toy.W1"])
	require.Equal(t, e*20*4, m["events.toy.W4"])
	require.Equal(t, e*1000*(1+2+3+4), m["events_extrapolated.toy"])
	// Toy step: 20 ops (4 downlinks, forward, backward, uplinks, updates),
	// 8 overhead ops (one per transfer), and fc0 (16 MB) is cut once by
	// WIN = 10 MB in each direction: 2 more chunks.
	require.Equal(t, float64(20+8+2), e)
}

// overhead_on reaches the simulator: parsing queued on the processors
// (processor) slows one worker down against the default receive threads,
// which replay the synthesized profile.
func TestThroughputKindOverheadPlacement(t *testing.T) {
	t.Parallel()
	root := tputRoot(t)
	rt, err := runTput(t, root, "", "beta_us = 50000\n"+toyCase)
	require.NoError(t, err)
	pr, err := runTput(t, root, "", "beta_us = 50000\noverhead_on = \"processor\"\n"+toyCase)
	require.NoError(t, err)
	series := "toy: icpe20 simulator"
	require.Greater(t, seriesY(t, rt, series, 1), seriesY(t, pr, series, 1)*1.01)
	caseLevel, err := runTput(t, root, "", "beta_us = 50000\n"+toyCase+"overhead_on = \"processor\"\n")
	require.NoError(t, err)
	require.Equal(t, seriesY(t, pr, series, 1), seriesY(t, caseLevel, series, 1), "a case may set it")
}

func TestThroughputKindInvalidParams(t *testing.T) {
	t.Parallel()
	root := tputRoot(t)
	for _, tc := range []struct{ params, want string }{
		{`series = ["nope"]` + toyCase, `unknown series "nope"`},
		{`series = ["events", "simulator"]` + toyCase, "events only alone"},
		{`lin_variant = "fancy"` + toyCase, `unknown MVA variant "fancy"`},
		{`beta_us = -1` + toyCase, "need a finite value ≥ 0"},
		{`knee_epsilon = 1.5` + toyCase, "0 < ε < 1"},
		{`estimate = "best"` + toyCase, `estimate "best"`},
		{"estimate = \"converged\"\nprecision = 0.7\n" + toyCase, "precision 0.7"},
		{"estimate = \"converged\"\nwarmup = 5\n" + toyCase, "warmup applies to estimate"},
		{"estimate = \"converged\"\nseries = [\"events\"]\n" + toyCase, "events series counts one paper-procedure run"},
		{``, "no [[params.case]]"},
		{toyCase + "transport = \"pigeon\"\n", `unknown link mode "pigeon"`},
		{toyCase + "order = \"lifo\"\n", `unknown stream order "lifo"`},
		{toyCase + "overhead_on = \"gpu\"\n", `unknown overhead placement "gpu"`},
		{"[[params.case]]\nid = \"toy\"\nmodel = \"toy\"\nbatch = 0\n", "batch 0 < 1"},
		{toyCase + "trace = \"x\"\n", "exactly one of model"},
		{toyCase + "servers = 2\n" + `[params.x]`, `unknown field`},
		{`series = ["lin"]` + toyCase + "servers = 2\n", "1-PS profile only"},
		{toyCase + toyCase, "unique"},
		{toyCase + `series = ["events"]` + "\n", `case "toy": series "events"`},
		{"[[params.case]]\nid = \"toy\"\nmodel = \"missing\"\nbatch = 8\n", `missing required input "missing"`},
		{`[[params.compare]]
num = "toy"
den = "other"` + toyCase, `compare "toy" / "other": both must be cases`},
		{`[[params.compare]]
num = "toy"
den = "toy"` + toyCase + "series = []\n", "needs both simulated or both measured"},
	} {
		_, err := runTput(t, root, "", tc.params)
		require.ErrorContains(t, err, tc.want, tc.params)
	}
}

func TestThroughputKindSweepMustBeWorkers(t *testing.T) {
	t.Parallel()
	root := tputRoot(t)
	path := filepath.Join(root, "experiments", "icpe20", "tput.toml")
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	spec := strings.Replace(strings.Replace(toySpec, "%INPUTS%", "", 1), "from = 1\n", "from = 1.5\n", 1) + toyCase
	require.NoError(t, os.WriteFile(path, []byte(spec), 0o644))
	s, err := experiment.Load(path)
	require.NoError(t, err)
	_, err = icpe20Throughput(context.Background(), &experiment.Env{Spec: s, Root: root, Mem: dataset.Allocator})
	require.ErrorContains(t, err, "ascending integers ≥ 1")
}

// TestThroughputKindRefusesWorkOverTheEventLimit: the kind estimates the
// simulator's events before it simulates and refuses above [limits]
// events, with the estimate and the key that raises the limit.
func TestThroughputKindRefusesWorkOverTheEventLimit(t *testing.T) {
	t.Parallel()
	root := tputRoot(t)
	_, err := runTput(t, root, "", `series = ["simulator"]`+toyCase+"\n[limits]\nevents = 1000\n")
	require.ErrorContains(t, err, "simulator events exceed the limit of 1e+03")
	require.ErrorContains(t, err, "[limits] events =")
	_, err = runTput(t, root, "", `series = ["simulator"]`+toyCase)
	require.NoError(t, err)
}

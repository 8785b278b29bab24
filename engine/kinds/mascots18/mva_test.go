package mascots18

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"pslab/engine/dataset"
	"pslab/engine/experiment"
	"pslab/engine/experiment/experimenttest"
)

// root is the repository root, where experiment inputs are found.
const root = "../../.."

// fig7Params is a [params] profile with the reported Fig. 7 phases.
const fig7Params = `
[[params.profiles]]
id = "fc"
name = "fc8"
batch = 50
s_w = 0.029
s_u = 0.072
s_s = 0.018
s_d = 0.072
origin = { s_w = "reported", s_u = "reported", s_s = "reported", s_d = "reported" }
`

// runSpec writes an experiment file (and datasets) into a temporary
// repository and runs kind on it.
func runSpec(t *testing.T, run experiment.RunFunc, body string, tables map[string]*dataset.Table) (*experiment.Result, error) {
	t.Helper()
	head := `id = "mascots18-probe"
title = "probe"
paper = "mascots18"
kind = "probe"
description = "probe"
status = "partial"
`
	plot := "\n[plot]\nx_label = \"workers\"\ny_label = \"steps/s\"\n"
	dir := t.TempDir()
	return experimenttest.Run(t, run, dir, filepath.Join("mascots18", "probe.toml"), head+body+plot, dir, tables)
}

func measurement(t *testing.T, rows ...[]any) *dataset.Table {
	t.Helper()
	tb := dataset.NewTable(dataset.MeasurementSchema, dataset.Provenance{Origin: dataset.Measured})
	for _, r := range rows {
		// source, platform, model, batch, workers, ps, sync, transport, order, throughput, std, steps, window
		require.NoError(t, tb.Append("test", "cpu", r[0], int64(50), int64(r[1].(int)), int64(1), r[2], "", "", r[3], 0.0, int64(100), int64(0)))
	}
	return tb
}

// With one worker every variant predicts 1/0.191 steps/s; a measurement
// 1.25 times lower gives a 25% error. With two workers exact MVA predicts
// 8.098 and approximate 9.098 (CATALOGUE §A.4); the measurement 8.098
// gives errors ≈ 0 and 12.35%. The bsp row and the 12-worker row are
// ignored.
func TestMVAThroughputMeasuredErrors(t *testing.T) {
	t.Parallel()
	meas := measurement(t,
		[]any{"fc8", 1, "asp", 50 / 0.191 / 1.25},
		[]any{"fc8", 2, "asp", 8.098 * 50},
		[]any{"fc8", 2, "bsp", 1.0},
		[]any{"fc8", 12, "asp", 1.0},
		[]any{"other", 1, "asp", 1.0},
	)
	body := `models = ["exact", "approximate"]
[inputs]
measured = "m.arrow"
[sweep]
var = "workers"
from = 1
to = 3
` + fig7Params
	res, err := runSpec(t, mvaThroughput, body, map[string]*dataset.Table{"m.arrow": meas})
	require.NoError(t, err)
	require.Equal(t, 2.0, res.Metrics["measured_points.fc"])
	require.InDelta(t, 25, res.Metrics["err_max.fc.exact"], 1e-9)
	require.InDelta(t, 0, res.Metrics["err_min.fc.exact"], 0.01)
	require.InDelta(t, 12.5, res.Metrics["err_mean.fc.exact"], 0.01)
	require.InDelta(t, 25, res.Metrics["err_max.fc.approximate"], 1e-9)
	require.InDelta(t, 100*(9.098-8.098)/8.098, res.Metrics["err_min.fc.approximate"], 0.02)
	// Measured points are plotted with origin measured, and predictions at
	// measured K carry their signed relative error.
	origins, errs, series := res.Table.Strings("origin"), res.Table.Floats("error"), res.Table.Strings("series")
	nMeasured := 0
	for i := range origins {
		if origins[i] == dataset.Measured {
			nMeasured++
		}
		if series[i] == "exact MVA (PS links)" && res.Table.Floats("x")[i] == 1 {
			require.InDelta(t, 0.25, errs[i], 1e-12)
		}
	}
	require.Equal(t, 2, nMeasured)
}

func TestMVAThroughputDuplicateMeasurement(t *testing.T) {
	t.Parallel()
	meas := measurement(t, []any{"fc8", 1, "asp", 200.0}, []any{"fc8", 1, "asp", 210.0})
	body := `models = ["exact"]
[inputs]
measured = "m.arrow"
[sweep]
var = "workers"
from = 1
to = 2
` + fig7Params
	_, err := runSpec(t, mvaThroughput, body, map[string]*dataset.Table{"m.arrow": meas})
	require.ErrorContains(t, err, "two rows for fc8")
}

// A phases input (PhasesSchema) replaces the phases of the profile with
// the same name and batch: the new 1-worker throughput is 1/cycle.
func TestMVAThroughputPhasesOverride(t *testing.T) {
	t.Parallel()
	ph := dataset.NewTable(dataset.PhasesSchema, dataset.Provenance{Origin: dataset.Measured})
	require.NoError(t, ph.Append("fc8", int64(50), 0.1, 0.05, 0.0, 0.05, dataset.Measured))
	body := `models = ["exact", "approximate", "hybrid"]
[inputs]
phases = "p.arrow"
[sweep]
var = "workers"
values = [1, 4]
` + fig7Params
	res, err := runSpec(t, mvaThroughput, body, map[string]*dataset.Table{"p.arrow": ph})
	require.NoError(t, err)
	require.InDelta(t, 1/0.2, res.Metrics["x.fc.exact.k1"], 1e-12)
	require.InDelta(t, 0.2, res.Metrics["cycle.fc"], 1e-12)
	require.InDelta(t, 20, res.Metrics["bound.fc"], 1e-12)
	_, has := res.Metrics["x.fc.exact.k2"]
	require.False(t, has, "only the swept worker counts are recorded")
}

// Derived link times: 100 MB at 1 Gbps is 0.8 s; S^W = batch / rate and
// S^S = ratio · S^U. With m = 2 servers the shared demands halve.
func TestMVAThroughputDerivedProfileAndServers(t *testing.T) {
	t.Parallel()
	body := `models = ["exact", "approximate"]
[sweep]
var = "workers"
from = 1
to = 3
[params]
servers = [1, 2]
[[params.profiles]]
name = "net"
batch = 32
model_mb = 100
link_gbps = 1
worker_rate = 32
server_link_ratio = 0.25
origin = { s_w = "assumed", s_s = "assumed" }
basis = { s_w = "test", s_s = "test" }
`
	res, err := runSpec(t, mvaThroughput, body, nil)
	require.NoError(t, err)
	require.InDelta(t, 1+0.8+0.2+0.8, res.Metrics["cycle.net"], 1e-12)
	require.InDelta(t, 1+0.4+0.1+0.4, res.Metrics["cycle.net.m2"], 1e-12)
	require.InDelta(t, 1/0.4, res.Metrics["bound.net.m2"], 1e-12)
	require.InDelta(t, 1/1.9-1/2.8, res.Metrics["server_gain_min.net.exact.m2"], 1e-12) // smallest at K = 1
}

func TestMVAThroughputInvalid(t *testing.T) {
	t.Parallel()
	sweep := "[sweep]\nvar = \"workers\"\nfrom = 1\nto = 3\n"
	cases := map[string]struct{ body, want string }{
		"unknown model":   {`models = ["psx"]` + "\n" + sweep + fig7Params, `unknown MVA variant "psx"`},
		"bad y":           {sweep + "[params]\ny = \"bytes\"\n" + fig7Params, `y "bytes"`},
		"bad servers":     {sweep + "[params]\nservers = [1, 1]\n" + fig7Params, "listed once"},
		"no sweep":        {fig7Params, "no worker counts"},
		"fractional K":    {"[sweep]\nvar = \"workers\"\nvalues = [1, 2.5]\n" + fig7Params, "increasing integers"},
		"missing phase":   {sweep + "[[params.profiles]]\nname = \"x\"\nbatch = 1\ns_w = 1.0\norigin = { s_w = \"assumed\" }\nbasis = { s_w = \"b\" }\n", "s_u is missing"},
		"no basis":        {sweep + "[[params.profiles]]\nname = \"x\"\nbatch = 1\nmodel_mb = 1\nlink_gbps = 1\ns_w = 1.0\ns_s = 0.0\norigin = { s_w = \"assumed\", s_s = \"assumed\" }\n", "s_w is assumed but has no basis"},
		"no origin":       {sweep + "[[params.profiles]]\nname = \"x\"\nbatch = 1\nmodel_mb = 1\nlink_gbps = 1\ns_w = 1.0\ns_s = 0.0\n", "origin of s_w"},
		"negative phase":  {sweep + "[[params.profiles]]\nname = \"x\"\nbatch = 1\nmodel_mb = 1\nlink_gbps = 1\ns_w = -1.0\ns_s = 0.0\norigin = { s_w = \"measured\", s_s = \"measured\" }\n", "Worker: invalid time"},
		"no profiles":     {sweep, "no phase profiles"},
		"dup profile ids": {sweep + fig7Params + fig7Params, `two profiles with id "fc"`},
		"plotted unknown": {`models = ["exact"]` + "\n" + sweep + "[params]\nplotted = [\"approximate\"]\n" + fig7Params, "not one of the models"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			_, err := runSpec(t, mvaThroughput, c.body, nil)
			require.ErrorContains(t, err, c.want)
		})
	}
}

// Variants with identical curves share one legend entry: for the Fig. 7
// phases the per-class hybrid equals approximate MVA (CATALOGUE M-7).
func TestMVAThroughputMergesEqualCurves(t *testing.T) {
	t.Parallel()
	body := `models = ["exact", "approximate", "hybrid-per-class"]
[sweep]
var = "workers"
from = 1
to = 4
` + fig7Params
	res, err := runSpec(t, mvaThroughput, body, nil)
	require.NoError(t, err)
	names := map[string]bool{}
	for _, s := range res.Table.Strings("series") {
		names[s] = true
	}
	require.Equal(t, map[string]bool{"exact MVA (PS links)": true, "approximate MVA (FCFS links) = hybrid MVA (g on per-class ρ_k)": true}, names)
	require.Equal(t, 0.0, res.Metrics["diff_vs_approx.fc.hybrid-per-class"])
}

func errorRows(t *testing.T, rows ...[]any) *dataset.Table {
	t.Helper()
	tb := dataset.NewTable(errorTable, dataset.Provenance{Origin: dataset.Reported})
	for _, r := range rows {
		require.NoError(t, tb.Append(r...))
	}
	return tb
}

func TestErrorTable(t *testing.T) {
	t.Parallel()
	tb := errorRows(t,
		[]any{"a", "Exact", 18.0, 8.0, 1.0},
		[]any{"a", "Hybrid", 9.0, 5.0, 2.0},
		[]any{"b", "Exact", 9.0, 6.0, 3.0},
		[]any{"b", "Hybrid", 11.0, 4.0, 0.5},
	)
	body := "[inputs]\nerrors = \"e.arrow\"\n[params]\ncompare = [\"Hybrid\", \"Exact\"]\n"
	res, err := runSpec(t, errorTableBars, body, map[string]*dataset.Table{"e.arrow": tb})
	require.NoError(t, err)
	require.Equal(t, 5.0, res.Metrics["max_of_mean.Hybrid"])
	require.Equal(t, -2.0, res.Metrics["max_diff_mean.Hybrid.Exact"]) // rows: 5−8, 4−6
	require.Equal(t, 2.0, res.Metrics["max_diff_max.Hybrid.Exact"])   // row b: 11−9
	require.Equal(t, 4, res.Table.Len())

	dup := errorRows(t, []any{"a", "Exact", 1.0, 1.0, 1.0}, []any{"a", "Exact", 2.0, 2.0, 2.0})
	_, err = runSpec(t, errorTableBars, "[inputs]\nerrors = \"e.arrow\"\n", map[string]*dataset.Table{"e.arrow": dup})
	require.ErrorContains(t, err, "two rows")
	_, err = runSpec(t, errorTableBars, body+"[params.labels]\nzz = \"z\"\n", map[string]*dataset.Table{"e.arrow": tb})
	require.ErrorContains(t, err, `label for "zz"`)
}

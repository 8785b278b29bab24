package cynthia

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"pslab/engine/dataset"
	"pslab/engine/experiment"
	"pslab/engine/experiment/experimenttest"
)

// root is the repository root, where experiment inputs are found.
const root = "../../.."

func TestShapeOfHandCurves(t *testing.T) {
	t.Parallel()
	xs := []float64{1, 2, 3, 4}
	u := shapeOf(xs, []float64{4, 2, 3, 5})
	require.Equal(t, curveShape{ArgMin: 2, UShaped: true, Spread: 1.5}, u)
	down := shapeOf(xs, []float64{4, 3, 3, 1})
	require.Equal(t, curveShape{ArgMin: 4, NonIncreasing: true, Spread: 3}, down)
	up := shapeOf(xs, []float64{1, 2, 2, 8})
	require.Equal(t, curveShape{ArgMin: 1, NonDecreasing: true, Spread: 7}, up)
	// Float noise on a flat curve is flat both ways, not a U.
	flat := shapeOf(xs, []float64{2, 2 * (1 + 1e-13), 2, 2})
	require.True(t, flat.NonIncreasing)
	require.True(t, flat.NonDecreasing)
	require.False(t, flat.UShaped)
	// A minimum at the end is not a U.
	require.False(t, shapeOf(xs, []float64{4, 3, 2, 1}).UShaped)
	require.Panics(t, func() { shapeOf(xs, []float64{1}) })
}

func TestRatioStatsAndSameOrder(t *testing.T) {
	t.Parallel()
	a := curve{xs: []float64{1, 2, 3, 4}, ys: []float64{10, 12, 9, 4}}
	b := curve{xs: []float64{2, 3, 4, 5}, ys: []float64{10, 10, 5, 1}}
	mx, at, mn, ok := ratioStats(a, b, 0, 0)
	require.True(t, ok)
	require.InDelta(t, 20, mx, 1e-12)
	require.Equal(t, 2.0, at)
	require.InDelta(t, -20, mn, 1e-12)
	mx, at, _, ok = ratioStats(a, b, 3, 3)
	require.True(t, ok)
	require.InDelta(t, -10, mx, 1e-12)
	require.Equal(t, 3.0, at)
	_, _, _, ok = ratioStats(a, b, 9, 0)
	require.False(t, ok)

	require.True(t, sameOrder([]float64{10, 49, 17}, []float64{19, 39, 25}))
	require.False(t, sameOrder([]float64{10, 49, 17}, []float64{19, 39, 13}))
	require.False(t, sameOrder([]float64{1, 1}, []float64{1, 2}), "ties do not agree")
}

func TestCynthiaCatalogue(t *testing.T) {
	t.Parallel()
	tab := dataset.NewTable(dataset.InstanceSchema, dataset.Provenance{})
	require.NoError(t, tab.Append("a", 2e9, 1e8, 0.1, "derived", "reported", "assumed", "x"))
	cat, err := CynthiaCatalogue(tab)
	require.NoError(t, err)
	require.Len(t, cat, 1)
	require.Equal(t, 2e9, cat[0].CPU)
	require.NoError(t, tab.Append("a", 3e9, 1e8, 0.1, "derived", "reported", "assumed", "x"))
	_, err = CynthiaCatalogue(tab)
	require.ErrorContains(t, err, `"a" listed twice`)
	_, err = CynthiaCatalogue(dataset.NewTable(dataset.InstanceSchema, dataset.Provenance{}))
	require.ErrorContains(t, err, "empty")

	cat, err = ReadCatalogue(filepath.Join(root, "datasets", "cynthia", "instances.arrow"))
	require.NoError(t, err)
	require.Equal(t, []string{"m4.xlarge", "m1.xlarge", "c3.xlarge", "r3.xlarge"}, []string{cat[0].Name, cat[1].Name, cat[2].Name, cat[3].Name})
	w, err := ReadWorkload(filepath.Join(root, "datasets/reported/cynthia/table4.arrow"), filepath.Join(root, "datasets/reported/cynthia/table1.arrow"), "cifar10 DNN")
	require.NoError(t, err)
	require.Equal(t, 26.86e9, w.WIter)
	require.Equal(t, 10000, w.Iterations)
	require.Equal(t, "BSP", w.Sync.String())
}

// runCynthiaSpec writes an experiment file (and optional datasets) under a
// temporary root and runs kind fn on it.
func runCynthiaSpec(t *testing.T, fn experiment.RunFunc, spec string, files map[string]*dataset.Table) (*experiment.Result, error) {
	t.Helper()
	dir := t.TempDir()
	for _, in := range []string{"datasets/reported/cynthia/table4.arrow", "datasets/reported/cynthia/table1.arrow", "datasets/cynthia/instances.arrow"} {
		b, err := os.ReadFile(filepath.Join(root, in))
		require.NoError(t, err)
		require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(dir, in)), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(dir, in), b, 0o644))
	}
	return experimenttest.Run(t, fn, dir, filepath.Join("experiments", "cynthia", "t.toml"), spec, dir, files)
}

const predictHeader = `id = "cynthia-t"
title = "t"
paper = "cynthia"
kind = "cynthia-predict"
description = "t"
status = "partial"
[inputs]
table4 = "datasets/reported/cynthia/table4.arrow"
table1 = "datasets/reported/cynthia/table1.arrow"
instances = "datasets/cynthia/instances.arrow"
[plot]
x_label = "workers"
y_label = "y"
`

func TestCynthiaPredictHandValues(t *testing.T) {
	t.Parallel()
	res, err := runCynthiaSpec(t, cynthiaPredict, predictHeader+`
[sweep]
var = "workers"
values = [2, 4]
[params]
[[params.series]]
label = "v"
key = "v"
workload = "VGG-19"
quantity = "iter"
worker = "m4.xlarge"
straggler = "m1.xlarge"
ps_type = "m4.xlarge"
`, nil)
	require.NoError(t, err)
	// 2 workers, ASP: the slowest worker (m1, 2.716 GFLOP/s) sets t_iter;
	// r_scale = (3.47+2.716)/3.47, b_demand = 13.49·1.783 = 24.1 MB/s: no bottleneck.
	require.InDelta(t, 58.81/2.716+2*135.84/110, res.Metrics["v.x2"], 1e-9)
	// 4 workers: b_demand = 13.49·2·(3.47+2.716)/3.47 = 48.1 MB/s < 110.
	require.InDelta(t, 100, res.Metrics["v.util.x4"], 1e-12)
	require.Equal(t, 0.0, res.Metrics["v.first_bottleneck"])
}

func TestCynthiaPredictErrorsNameTheField(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ body, want string }{
		{"[sweep]\nvar = \"gpus\"\nvalues = [1]\n[params]\n[[params.series]]\nlabel = \"v\"\nkey = \"v\"\nworkload = \"VGG-19\"\nworker = \"m4.xlarge\"\n", `sweep var "gpus"`},
		{"[sweep]\nvar = \"workers\"\nvalues = [1.5]\n[params]\n[[params.series]]\nlabel = \"v\"\nkey = \"v\"\nworkload = \"VGG-19\"\nworker = \"m4.xlarge\"\n", "sweep.values = 1.5: workers must be whole numbers >= 1"},
		{"[sweep]\nvar = \"workers\"\nvalues = [1]\n[params]\n[[params.series]]\nlabel = \"v\"\nkey = \"v\"\nworkload = \"VGG-19\"\nworker = \"m4.xlarge\"\nquantity = \"speed\"\n", `quantity "speed"`},
		{"[sweep]\nvar = \"workers\"\nvalues = [1]\n[params]\n[[params.series]]\nlabel = \"v\"\nkey = \"v\"\nworkload = \"VGG-19\"\nworker = \"p3.2xlarge\"\n", `"p3.2xlarge" is not in the catalogue`},
		{"[sweep]\nvar = \"workers\"\nvalues = [1]\n[params]\n[[params.series]]\nlabel = \"v\"\nkey = \"v\"\nworkload = \"VGG-19\"\nworker = \"m4.xlarge\"\nmark_crossover = true\n", "needs a BSP workload"},
		{"[sweep]\nvar = \"ps\"\nvalues = [1]\n[params]\n[[params.series]]\nlabel = \"v\"\nkey = \"v\"\nworkload = \"VGG-19\"\nworker = \"m4.xlarge\"\n", `series 0 ("v"): workers = 0: want a number of workers >= 1`},
		{"[sweep]\nvar = \"workers\"\nvalues = [1]\n[params]\nspeed = 1\n", `unknown field "params.speed"`},
	} {
		_, err := runCynthiaSpec(t, cynthiaPredict, predictHeader+tc.body, nil)
		require.ErrorContains(t, err, tc.want)
		require.Contains(t, err.Error(), "t.toml:", "error %q names the file", err)
	}
}

const provisionHeader = `id = "cynthia-t"
title = "t"
paper = "cynthia"
kind = "cynthia-provision"
description = "t"
status = "partial"
[inputs]
table4 = "datasets/reported/cynthia/table4.arrow"
table1 = "datasets/reported/cynthia/table1.arrow"
instances = "datasets/cynthia/instances.arrow"
[plot]
type = "bar"
x_label = "goal"
y_label = "y"
`

func TestCynthiaProvisionVGG19ASPPlansCoincide(t *testing.T) {
	t.Parallel()
	res, err := runCynthiaSpec(t, cynthiaProvision, provisionHeader+`
[params]
[[params.goals]]
workload = "VGG-19"
beta0 = 800.0
time_min = [90.0]
loss = [0.8]
`, nil)
	require.NoError(t, err)
	// c3.xlarge: n_lower = ceil((58.81·800/(4.224·5400·0.8))²) = 7, r = 6.70, n_ps = 2;
	// at n = 7, s = ceil(1000/√7) = 378 and t_iter = 58.81/4.224 + 2·135.84/220 > 5400/378;
	// at n = 8, s = 354 and 354·15.157 s = 89.4 min.
	require.Equal(t, 8.0, res.Metrics["VGG-19.T90.l0.8.cynthia.workers"])
	require.Equal(t, 2.0, res.Metrics["VGG-19.T90.l0.8.cynthia.ps"])
	iter := 58.81/4.224 + 2*135.84/220
	require.InDelta(t, 354*iter/60, res.Metrics["VGG-19.T90.l0.8.cynthia.time_min"], 1e-9)
	require.InDelta(t, 0.105*10*354*iter/3600, res.Metrics["VGG-19.T90.l0.8.cynthia.cost"], 1e-12)
	require.Equal(t, 0.0, res.Metrics["VGG-19.T90.l0.8.saving_pct"])
}

func TestCynthiaProvisionInfeasibleIsReportedNotFailed(t *testing.T) {
	t.Parallel()
	res, err := runCynthiaSpec(t, cynthiaProvision, provisionHeader+`
[params]
[[params.goals]]
workload = "cifar10"
beta0 = 8000.0
time_min = [10.0]
loss = [0.8]
`, nil)
	require.NoError(t, err)
	require.Equal(t, 0.0, res.Metrics["cifar10.T10.l0.8.cynthia.feasible"])
	require.Equal(t, 0.0, res.Metrics["compared"])
	require.True(t, strings.Contains(strings.Join(res.Notes, "\n"), "m4.xlarge: worker/PS ratio bound"), "notes give the per-type reason")

	_, err = runCynthiaSpec(t, cynthiaProvision, provisionHeader+"[params]\n[[params.goals]]\nworkload = \"cifar10\"\nbeta0 = -1.0\ntime_min = [10.0]\nloss = [0.8]\n", nil)
	require.ErrorContains(t, err, "Beta0")
	_, err = runCynthiaSpec(t, cynthiaProvision, provisionHeader+"[params]\n[[params.goals]]\nworkload = \"cifar10\"\nbeta0 = 1.0\ntime_min = [0.0]\nloss = [0.8]\n", nil)
	require.ErrorContains(t, err, "time_min 0")
}

func TestCynthiaMeasuredHandValues(t *testing.T) {
	t.Parallel()
	ph := dataset.NewTable(dataset.PhasesSchema, dataset.Provenance{})
	require.NoError(t, ph.Append("toy", 32, 0.09, 0.02, 0.01, 0.02, dataset.Measured))
	// t_base = 0.1 s, g = 20 kB, b = 1 MB/s: 2g/b = 0.04 s.
	m := dataset.NewTable(dataset.MeasurementSchema, dataset.Provenance{Extra: map[string]string{
		"testbed.bandwidth_bps": "1e6", "testbed.step_compute_s": "0.1", "testbed.model_bytes": "20000"}})
	for _, r := range []struct {
		n    int
		sync string
		x    float64
	}{{1, "asp", 200}, {2, "asp", 400}, {5, "asp", 1000}, {1, "bsp", 320}, {3, "bsp", 800}} {
		require.NoError(t, m.Append("t", "p", "toy", 32, r.n, 1, r.sync, "multiplexed", "default", r.x, 1.0, 50, 0))
	}
	res, err := runCynthiaSpec(t, cynthiaMeasured, `id = "cynthia-t"
title = "t"
paper = "cynthia"
kind = "cynthia-measured"
description = "t"
status = "partial"
[inputs]
measured = "m.arrow"
phases = "p.arrow"
[plot]
x_label = "workers"
y_label = "throughput (examples/s)"
`, map[string]*dataset.Table{"m.arrow": m, "p.arrow": ph})
	require.NoError(t, err)
	// ASP: cycle = 32/200 = 0.16 s, b_prof = 40e3/0.16 = 250 kB/s. 1 and 2
	// workers: no bottleneck, X = n·32/0.14.
	require.InDelta(t, 32/0.14/200-1, res.Metrics["error.toy.b32.asp.ps1.w1"], 1e-12)
	require.InDelta(t, 2*32/0.14/400-1, res.Metrics["error.toy.b32.asp.ps1.w2"], 1e-12)
	// 5 workers: u = 1e6/(5·250e3) = 0.8, t_iter = 0.1/0.8 + 0.04.
	require.InDelta(t, 5*32/0.165/1000-1, res.Metrics["error.toy.b32.asp.ps1.w5"], 1e-12)
	// BSP: cycle = 0.1 s, b_prof = 400 kB/s; 3 workers (batch per worker, w_iter = 3·0.1):
	// u = 1e6/1.2e6, t_comp = 0.3/(3u) = 0.12 = t_comm = 3·0.04: X = 96/0.12 = 800.
	require.InDelta(t, 0, res.Metrics["error.toy.b32.bsp.ps1.w3"], 1e-12)
	require.InDelta(t, (2*(32/0.14/200-1)+1-5*32/0.165/1000)/3, res.Metrics["mean_abs_error.asp"], 1e-12)

	// Without a 1-worker run there is no profile.
	m2 := dataset.NewTable(dataset.MeasurementSchema, m.Provenance)
	require.NoError(t, m2.Append("t", "p", "toy", 32, 2, 1, "asp", "multiplexed", "default", 400.0, 1.0, 50, 0))
	_, err = runCynthiaSpec(t, cynthiaMeasured, `id = "cynthia-t"
title = "t"
paper = "cynthia"
kind = "cynthia-measured"
description = "t"
status = "partial"
[inputs]
measured = "m.arrow"
phases = "p.arrow"
[plot]
x_label = "workers"
y_label = "throughput (examples/s)"
`, map[string]*dataset.Table{"m.arrow": m2, "p.arrow": ph})
	require.ErrorContains(t, err, "no 1-worker run of toy")
}

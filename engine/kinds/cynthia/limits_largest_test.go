package cynthia

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"pslab/engine/experiment"
	"pslab/engine/experiment/experimenttest"
)

// The tests of this file hold every cynthia kind to its limits: the
// largest experiment the default [limits] admit does work (counted in
// model-work units and result rows, experiment.Env.Done, not timed) at
// most what its checks admitted, within the limits, and one step past the
// limits is refused before any work, naming the key and its line.

// repoRoot is the repository root, relative to this package.
const repoRoot = "../../.."

// runCommitted runs kind fn on spec written as <tmp>/cynthia/<name>.toml
// with the repository's inputs; file is the spec's path for error
// locations.
func runCommitted(t *testing.T, fn experiment.RunFunc, name, spec string) (*experiment.Result, *experiment.Env, string, error) {
	return experimenttest.RunTemp(t, fn, filepath.Join("cynthia", name+".toml"), spec, repoRoot)
}

// list is a TOML array of n copies of v.
func list(v string, n int) string {
	return "[" + strings.TrimSuffix(strings.Repeat(v+", ", n), ", ") + "]"
}

// TestLargestTimeVsWorkers: cynthia-time-vs-workers at the largest sweep
// the default limits allow (workers 1..65,536: [limits] workers and
// experiment.MaxSweepPoints) evaluates each point once per workload and
// model, 2^18 evaluations for fig6's two workloads and two models, within
// its admitted estimate. With three models the estimate admits seven
// workloads and refuses the eighth, at the [sweep] line, before any
// evaluation; 65,537 workers are refused when the spec is read.
func TestLargestTimeVsWorkers(t *testing.T) {
	experimenttest.LimitsFullSuiteOnly(t)
	t.Parallel()
	const rel = "experiments/cynthia/fig6.toml"
	// 2^18 evaluations and 4·10^5 rows and metrics: about half a CPU-second.
	spec := experimenttest.Edited(t, repoRoot, rel, "to = 16\n", "to = 65536\n")
	res, env, _, err := runCommitted(t, cynthiaTimeVsWorkers, "fig6", spec)
	require.NoError(t, err)
	experimenttest.Bounded(t, env, res)
	require.GreaterOrEqual(t, env.Done().Model, float64(65536*2*2))

	limit := float64(experiment.DefaultMaxModelWork)
	units, rows := timeVsWorkersWork(65536, 7, 3)
	require.LessOrEqual(t, units+experiment.RowWork*rows, limit, "seven workloads, three models")
	units, rows = timeVsWorkersWork(65536, 8, 3)
	require.Greater(t, units+experiment.RowWork*rows, limit, "eight workloads, three models")
	spec = experimenttest.Edited(t, repoRoot, rel, "to = 16\n", "to = 65536\n",
		`models = ["cynthia", "optimus"]`, `models = ["cynthia", "optimus", "paleo"]`,
		`workloads = ["VGG-19", "cifar10"]`, "workloads = "+list(`"VGG-19"`, 8))
	_, env, file, err := runCommitted(t, cynthiaTimeVsWorkers, "fig6", spec)
	require.ErrorContains(t, err, experimenttest.At(t, file, spec, "[sweep]")+"cynthia-time-vs-workers: 65536 points × 8 workloads × 3 models")
	require.ErrorContains(t, err, "units of model work exceed the limit of 1e+08")
	require.Zero(t, env.Done().Model, "refused before any evaluation")

	spec = experimenttest.Edited(t, repoRoot, rel, "to = 16\n", "to = 65537\n")
	_, _, file, err = runCommitted(t, cynthiaTimeVsWorkers, "fig6", spec)
	require.ErrorContains(t, err, experimenttest.At(t, file, spec, "[sweep]")+"sweep workers up to 65537 exceeds the limit of 65536 workers")
}

// TestLargestPredict: cynthia-predict builds an explicit cluster per point
// and series, 1 + workers + PS nodes of model work each, which it counts
// as it goes. fig1's four series are admitted up to the largest worker
// count whose estimate (with the rows) is within the default model_work,
// about 7,000; one more worker is refused at the [sweep] line before any
// cluster is built. The committed sweep stretched to 1,000 workers does
// exactly the estimated node work.
func TestLargestPredict(t *testing.T) {
	experimenttest.LimitsFullSuiteOnly(t)
	t.Parallel()
	const rel = "experiments/cynthia/fig1.toml"
	series := make([]cynthiaSeries, 4) // fig1: four series over workers, 1 PS
	est := func(n int) float64 {
		ns := make([]int, n)
		for i := range ns {
			ns[i] = i + 1
		}
		return predictWork(series, ns, false) + 4 + experiment.RowWork*predictRows(n, 4, 3, 0)
	}
	largest := 1
	for est(largest+1) <= experiment.DefaultMaxModelWork {
		largest++
	}
	require.InDelta(t, 7000, largest, 500)
	spec := experimenttest.Edited(t, repoRoot, rel, "to = 16\n", fmt.Sprintf("to = %d\n", largest+1))
	_, env, file, err := runCommitted(t, cynthiaPredict, "fig1", spec)
	require.ErrorContains(t, err, experimenttest.At(t, file, spec, "[sweep]")+fmt.Sprintf("cynthia-predict: %d points × 4 series", largest+1))
	require.ErrorContains(t, err, "units of model work exceed the limit of 1e+08")
	require.Zero(t, env.Done().Model, "refused before any cluster is built")

	spec = experimenttest.Edited(t, repoRoot, rel, "to = 16\n", "to = 1000\n")
	res, env, _, err := runCommitted(t, cynthiaPredict, "fig1", spec)
	require.NoError(t, err)
	done := experimenttest.Bounded(t, env, res)
	ns := make([]int, 1000)
	for i := range ns {
		ns[i] = i + 1
	}
	require.Equal(t, predictWork(series, ns, false)+1, env.Done().Model, "nodes built and mnist.homo's crossover")
	require.LessOrEqual(t, done.Model, est(1000))
}

// TestLargestProvision: cynthia-provision and cynthia-plan-search bound
// Algorithm 1 by its search spaces (provisionWork) and count its inner-loop
// evaluations (Search.Evaluations, found plans or not). At the largest
// max_workers the node limit allows (65,536) the committed goals and
// ps_scan grid do at most the admitted work; 600 × 600 goals are refused
// at the [[params.goals]] line before any plan, and max_workers = 65,537
// when the spec is read.
func TestLargestProvision(t *testing.T) {
	experimenttest.LimitsFullSuiteOnly(t)
	t.Parallel()
	for _, c := range []struct {
		name string
		fn   experiment.RunFunc
	}{{"fig12", cynthiaProvision}, {"alg1-runtime", cynthiaPlanSearch}} {
		rel := "experiments/cynthia/" + c.name + ".toml"
		spec := experimenttest.Edited(t, repoRoot, rel, "base = \"m4.xlarge\"\n", "base = \"m4.xlarge\"\nmax_workers = 65536\n")
		res, env, _, err := runCommitted(t, c.fn, c.name, spec)
		require.NoError(t, err, c.name)
		done := experimenttest.Bounded(t, env, res)
		require.Positive(t, env.Done().Model, c.name)
		t.Logf("%s at max_workers = 65536: %.4g units done (rows included) of %.4g admitted", c.name, done.Model, env.Charged().Model)

		spec = experimenttest.ReplaceLine(t, experimenttest.ReplaceLine(t, spec, "time_min = [", "time_min = "+list("60.0", 600)), "loss = [", "loss = "+list("0.8", 600))
		_, env, file, err := runCommitted(t, c.fn, c.name, spec)
		require.ErrorContains(t, err, experimenttest.At(t, file, spec, "[[params.goals]]"), c.name)
		require.ErrorContains(t, err, "units of model work exceed the limit of 1e+08", c.name)
		require.Zero(t, env.Done().Model, "%s: refused before any plan", c.name)

		spec = experimenttest.Edited(t, repoRoot, rel, "base = \"m4.xlarge\"\n", "base = \"m4.xlarge\"\nmax_workers = 65537\n")
		_, _, file, err = runCommitted(t, c.fn, c.name, spec)
		require.ErrorContains(t, err, experimenttest.At(t, file, spec, "max_workers")+"params.max_workers = 65537 exceeds the limit of 65536 workers", c.name)
	}
}

// TestLargestMeasured: cynthia-measured's work grows with its inputs' rows
// (one pass over each table, one evaluation per measured row: it used to
// scan the whole measured table for every row, quadratic in the input).
// Its estimate is checked before any row is predicted: the committed seven
// testbed configurations do at most the admitted work, and a [limits]
// model_work one unit below that estimate refuses them at the
// [[params.case]] line, so an input as large as the default model_work
// allows (about 8·10^5 measured rows) is the largest it accepts.
func TestLargestMeasured(t *testing.T) {
	experimenttest.LimitsFullSuiteOnly(t)
	t.Parallel()
	const rel = "experiments/cynthia/testbed.toml"
	spec := experimenttest.Edited(t, repoRoot, rel)
	res, env, _, err := runCommitted(t, cynthiaMeasured, "testbed", spec)
	require.NoError(t, err)
	experimenttest.Bounded(t, env, res)
	charged := env.Charged().Model

	spec = experimenttest.Edited(t, repoRoot, rel, "[[params.case]]", fmt.Sprintf("[limits]\nmodel_work = %v\n\n[[params.case]]", charged-1))
	_, env, file, err := runCommitted(t, cynthiaMeasured, "testbed", spec)
	require.ErrorContains(t, err, experimenttest.At(t, file, spec, "[[params.case]]")+"cynthia-measured: ")
	require.ErrorContains(t, err, "units of model work exceed the limit")
	require.Zero(t, env.Done().Model, "refused before any row is predicted")
}

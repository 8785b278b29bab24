package mascots18

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"pslab/engine/experiment"
	"pslab/engine/experiment/experimenttest"
)

// The tests of this file hold every mascots18 kind (and sched-trace, run
// by beyond-sched-philly) to its limits: the largest input the default
// [limits] admit is found without running it (experimenttest.Largest),
// one step more is refused before any work, naming the key, and a run
// does at most the work it was admitted for, measured in weighted
// scheduler events (schedEventWeight), model-work units and result rows,
// not timed.

// largestRoot is the repository root, relative to this package.
const largestRoot = "../../.."

// mascotsRun runs kind fn on spec as <tmp>/<rel>; file is its path.
func mascotsRun(t *testing.T, fn experiment.RunFunc, rel, spec string) (*experiment.Result, *experiment.Env, string, error) {
	return experimenttest.RunTemp(t, fn, rel, spec, largestRoot)
}

// mascotsLargest is experimenttest.Largest of kind fn on the family spec
// written as rel.
func mascotsLargest(t *testing.T, fn experiment.RunFunc, rel string, spec func(n int) string, key string, n0 int) (int, float64, int) {
	t.Helper()
	return experimenttest.Largest(t, func(s string) (*experiment.Env, error) {
		_, env, _, err := mascotsRun(t, fn, rel, s)
		return env, err
	}, spec, key, map[string]float64{"events": experiment.DefaultMaxEvents, "model_work": experiment.DefaultMaxModelWork}[key], n0)
}

// TestLargestMVAThroughput: mva-throughput (fig7, one profile, all six
// variants) at the largest sweep [limits] workers allows (K = 1..65,536)
// is admitted by its estimate (six curves of 65,536 population levels and
// about 1.8·10^6 rows and metrics), 65,537 workers are refused when the
// spec is read, and a second number of parameter servers is refused
// before any curve; the sweep grown tenfold does at most its admitted
// work.
func TestLargestMVAThroughput(t *testing.T) {
	experimenttest.LimitsFullSuiteOnly(t)
	t.Parallel()
	const rel = "mascots18/fig7.toml"
	committed := experimenttest.Edited(t, largestRoot, "experiments/mascots18/fig7.toml")
	sweep := func(n int) string {
		return experimenttest.ReplaceLine(t, committed, "to = ", fmt.Sprintf("to = %d", n))
	}
	n, est, above := mascotsLargest(t, mvaThroughput, rel, func(n int) string {
		return experimenttest.ReplaceLine(t, sweep(65536), "bound = ", "bound = true\nservers = "+experimenttest.Seq(n, 1))
	}, "model_work", 1)
	require.Equal(t, 1, n, "one number of servers at 65,536 workers (%.3g units), not %d", est, above)

	spec := sweep(65537)
	_, _, file, err := mascotsRun(t, mvaThroughput, rel, spec)
	require.ErrorContains(t, err, experimenttest.At(t, file, spec, "[sweep]")+"sweep workers up to 65537 exceeds the limit of 65536 workers")

	res, env, _, err := mascotsRun(t, mvaThroughput, rel, sweep(100))
	require.NoError(t, err)
	done := experimenttest.Bounded(t, env, res)
	t.Logf("fig7 at K = 1..100: %.3g units done of %.3g admitted", done.Model, env.Charged().Model)
}

// TestLargestInputTables: error-table (table2) and job-workload (table3)
// do work linear in their input table's rows (error-table used to search
// its row and variant lists for every row), checked before any bar is
// drawn: the committed tables do at most the admitted work, and a
// [limits] model_work one unit below the estimate refuses them at the
// input's line, so the largest table the default model_work admits (about
// 10^6 rows) is the largest either accepts.
func TestLargestInputTables(t *testing.T) {
	experimenttest.LimitsFullSuiteOnly(t)
	t.Parallel()
	for _, c := range []struct {
		fn   experiment.RunFunc
		name string
		key  string
	}{{errorTableBars, "table2", "errors = "}, {jobWorkload, "table3", "jobs = "}} {
		rel := filepath.Join("mascots18", c.name+".toml")
		committed := experimenttest.Edited(t, largestRoot, filepath.Join("experiments", rel))
		res, env, _, err := mascotsRun(t, c.fn, rel, committed)
		require.NoError(t, err, c.name)
		experimenttest.Bounded(t, env, res)

		spec := experimenttest.WithLimits(committed, fmt.Sprintf("model_work = %v", env.Charged().Model-1))
		_, env, file, err := mascotsRun(t, c.fn, rel, spec)
		require.ErrorContains(t, err, experimenttest.At(t, file, spec, c.key), c.name)
		require.ErrorContains(t, err, "units of model work exceed the limit", c.name)
		require.Zero(t, env.Done(), c.name)
	}
}

// schedPoissonSpec is fig12a with n arrivals per run (max_jobs).
func schedPoissonSpec(t *testing.T, n int) string {
	s := experimenttest.Edited(t, largestRoot, "experiments/mascots18/fig12a.toml")
	return experimenttest.ReplaceLine(t, s, "max_jobs = ", fmt.Sprintf("max_jobs = %d", n))
}

// TestLargestSchedPoisson: sched-poisson (fig12a: seven loads, five
// policies, JSQ-Chunk searched over twelve chunk sizes) admits as many
// arrivals per run as [limits] events allows for all its runs, weighted
// by the cluster, and refuses more before the workload is built; a
// cluster above [limits] workers is refused at the nodes line (it used to
// be allocated first). A short run (one load, 2,000 arrivals) does at most
// its admitted work.
func TestLargestSchedPoisson(t *testing.T) {
	experimenttest.LimitsFullSuiteOnly(t)
	t.Parallel()
	const rel = "mascots18/fig12a.toml"
	n, est, above := mascotsLargest(t, schedPoisson, rel, func(n int) string { return schedPoissonSpec(t, n) }, "events", 20000)
	t.Logf("fig12a: max_jobs = %d admitted (%.3g events), %d refused", n, est, above)
	require.Less(t, n, 10_000_000)

	spec := experimenttest.ReplaceLine(t, schedPoissonSpec(t, 50000), "nodes = ", "nodes = 65537")
	_, env, file, err := mascotsRun(t, schedPoisson, rel, spec)
	require.ErrorContains(t, err, experimenttest.At(t, file, spec, "nodes = ")+"nodes = 65537 exceeds the limit of 65536 nodes")
	require.Zero(t, env.Done())

	spec = experimenttest.ReplaceLine(t, schedPoissonSpec(t, 2000), "values = ", "values = [0.5]")
	spec = experimenttest.ReplaceLine(t, spec, "chunk_search_jobs = ", "chunk_search_jobs = 1000")
	spec = experimenttest.ReplaceLine(t, spec, "min_jobs = ", "min_jobs = 500")
	res, env, _, err := mascotsRun(t, schedPoisson, rel, spec)
	require.NoError(t, err)
	done := experimenttest.Bounded(t, env, res)
	require.Positive(t, done.Events)
}

// TestLargestSchedEarly: sched-early-termination (fig14: five γ, ten
// replications, exactly max_jobs arrivals each) admits as many arrivals
// as [limits] events allows and refuses more before the workload is
// built; a short run does at most its admitted work.
func TestLargestSchedEarly(t *testing.T) {
	experimenttest.LimitsFullSuiteOnly(t)
	t.Parallel()
	const rel = "mascots18/fig14.toml"
	spec := func(n int) string {
		s := experimenttest.Edited(t, largestRoot, "experiments/mascots18/fig14.toml")
		return experimenttest.ReplaceLine(t, s, "max_jobs = ", fmt.Sprintf("max_jobs = %d", n))
	}
	n, est, above := mascotsLargest(t, schedEarly, rel, spec, "events", 50000)
	t.Logf("fig14: max_jobs = %d admitted (%.3g events), %d refused", n, est, above)

	short := experimenttest.ReplaceLine(t, spec(500), "replications = ", fmt.Sprintf("replications = %d", experiment.MinReplications))
	res, env, _, err := mascotsRun(t, schedEarly, rel, short)
	require.NoError(t, err)
	done := experimenttest.Bounded(t, env, res)
	require.Positive(t, done.Events)
}

// TestLargestSchedTrace: sched-trace (beyond-sched-philly: a week of the
// Philly trace, five policies, every job to completion) grows with the
// cluster (each event visits its nodes and the jobs in the system, all of
// the window's at worst); the largest cluster [limits] events admits is
// found without running, and a day's window does at most its admitted
// work.
func TestLargestSchedTrace(t *testing.T) {
	experimenttest.LimitsFullSuiteOnly(t)
	t.Parallel()
	const rel = "beyond/sched-philly.toml"
	committed := experimenttest.Edited(t, largestRoot, "experiments/beyond/sched-philly.toml")
	spec := func(n int) string {
		return experimenttest.ReplaceLine(t, committed, "nodes = ", fmt.Sprintf("nodes = %d", n))
	}
	n, est, above := mascotsLargest(t, schedTrace, rel, spec, "events", 100)
	t.Logf("sched-philly: %d nodes admitted (%.3g events), %d refused", n, est, above)
	require.Less(t, n, int(experiment.DefaultMaxWorkers))

	res, env, _, err := mascotsRun(t, schedTrace, rel, experimenttest.ReplaceLine(t, committed, "window_days = ", "window_days = 1"))
	require.NoError(t, err)
	done := experimenttest.Bounded(t, env, res)
	require.Positive(t, done.Events)
}

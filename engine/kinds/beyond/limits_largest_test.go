package beyond

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"pslab/engine/experiment"
	"pslab/engine/experiment/experimenttest"
)

// The tests of this file hold the beyond kinds to their limits: the
// largest input the default [limits] admit is found without running it
// (experimenttest.Largest), one step more is refused before any work,
// naming the key, and a run does at most the work it was admitted for,
// measured in simulator events (sim.Config.Progress) and model-work units
// and result rows, not timed.

// largestRoot is the repository root, relative to this package.
const largestRoot = "../../.."

// beyondRun runs kind fn on spec as <tmp>/<paper>/<name>.toml; file is
// its path.
func beyondRun(t *testing.T, fn experiment.RunFunc, paper, name, spec string) (*experiment.Result, *experiment.Env, string, error) {
	return experimenttest.RunTemp(t, fn, filepath.Join(paper, name+".toml"), spec, largestRoot)
}

// beyondLargest is experimenttest.Largest of kind fn on the family spec.
func beyondLargest(t *testing.T, fn experiment.RunFunc, paper, name string, spec func(n int) string, key string, n0 int) (int, float64, int) {
	t.Helper()
	return experimenttest.Largest(t, func(s string) (*experiment.Env, error) {
		_, env, _, err := beyondRun(t, fn, paper, name, s)
		return env, err
	}, spec, key, map[string]float64{"events": experiment.DefaultMaxEvents, "model_work": experiment.DefaultMaxModelWork}[key], n0)
}

// TestLargestZhangVsCynthia: zhang-vs-cynthia (AlexNet and ResNet-50,
// zhang's M = 100 iterations of every layer per worker count) admits a
// sweep of a few thousand worker counts, not the 65,536 the worker limit
// would; the sweep grown tenfold does at most its admitted work.
func TestLargestZhangVsCynthia(t *testing.T) {
	experimenttest.LimitsFullSuiteOnly(t)
	t.Parallel()
	spec := func(n int) string {
		return experimenttest.Edited(t, largestRoot, "experiments/zhang/vs-cynthia.toml", "to = 16\n", fmt.Sprintf("to = %d\n", n))
	}
	n, est, above := beyondLargest(t, zhangVsCynthia, "zhang", "vs-cynthia", spec, "model_work", 100)
	t.Logf("zhang-vs-cynthia: %d workers admitted (%.3g units), %d refused", n, est, above)
	require.Less(t, n, int(experiment.DefaultMaxWorkers))

	res, env, _, err := beyondRun(t, zhangVsCynthia, "zhang", "vs-cynthia", spec(160))
	require.NoError(t, err)
	experimenttest.Bounded(t, env, res)
}

// tbaSubset is the committed testbed-accuracy spec with only the
// configurations named (their [[params.dataset]] entries), by the paper
// procedure at steps simulated steps per worker, or with steps 0 as
// committed (converged estimates).
func tbaSubset(t *testing.T, steps int, inputs ...string) string {
	s := experimenttest.Edited(t, largestRoot, "experiments/beyond/testbed-accuracy.toml")
	s = s[:strings.Index(s, "[[params.dataset]]")]
	if steps > 0 {
		s = experimenttest.ReplaceLine(t, s, "estimate = ", fmt.Sprintf("estimate = \"paper\"\nsteps = %d", steps))
	}
	for _, in := range inputs {
		s += fmt.Sprintf("[[params.dataset]]\ninput = %q\ngroup = \"test\"\n\n", in)
	}
	return s
}

// TestLargestTestbedAccuracy: testbed-accuracy's work is bounded for all
// its configurations together before any is predicted (each used to be
// checked alone): the largest simulated steps per worker [limits] events
// admits for an ASP, a 2-PS and a BSP configuration is found without
// running them, and at 60 steps they do at most their admitted events and
// model work, as do converged estimates. Each of three AlexNet
// configurations alone is within [limits] events set to 60% of their
// total, which refuses the three together before any simulation.
func TestLargestTestbedAccuracy(t *testing.T) {
	experimenttest.LimitsFullSuiteOnly(t)
	t.Parallel()
	inputs := []string{"alexnet-b256-mux", "alexnet-b512-2ps-mux", "alexnet-b512-bsp-100mbit"}
	n, est, above := beyondLargest(t, testbedAccuracy, "beyond", "testbed-accuracy", func(n int) string { return tbaSubset(t, n, inputs...) }, "events", 10000)
	t.Logf("testbed-accuracy, 3 configurations: %d steps admitted (%.3g events), %d refused", n, est, above)
	require.Less(t, n, experiment.DefaultMaxSteps)

	res, env, _, err := beyondRun(t, testbedAccuracy, "beyond", "testbed-accuracy", tbaSubset(t, 60, inputs...))
	require.NoError(t, err)
	done := experimenttest.Bounded(t, env, res)
	require.Positive(t, done.Events)

	// Converged estimates, as committed: checkWork admits the least events
	// they take, and each sweep's events bound is its share of the
	// [limits] events in proportion to its least, so together they may do
	// more than admitted but stay within the limit, here a small one.
	converged := experimenttest.WithLimits(tbaSubset(t, 0, inputs...), "events = 2e7")
	_, env, _, err = beyondRun(t, testbedAccuracy, "beyond", "testbed-accuracy", converged)
	require.NoError(t, err)
	require.Positive(t, env.Done().Events)
	require.LessOrEqual(t, env.Charged().Events, env.Done().Events, "converged estimates run at least their admitted least")
	require.LessOrEqual(t, env.Done().Events, env.EventLimit(), "and at most the limit")

	three := []string{"alexnet-b256-mux", "alexnet-b512-mux", "alexnet-b1024-mux"}
	estimate := func(inputs ...string) float64 {
		_, _, _, err := beyondRun(t, testbedAccuracy, "beyond", "testbed-accuracy", experimenttest.WithLimits(tbaSubset(t, 1000, inputs...), "events = 1"))
		return experimenttest.Estimate(t, err)
	}
	total := estimate(three...)
	for _, in := range three {
		require.Less(t, estimate(in), 0.6*total, in)
	}
	spec := experimenttest.WithLimits(tbaSubset(t, 1000, three...), fmt.Sprintf("events = %v", 0.6*total))
	_, env, file, err := beyondRun(t, testbedAccuracy, "beyond", "testbed-accuracy", spec)
	require.ErrorContains(t, err, experimenttest.At(t, file, spec, "[params]")+"testbed-accuracy: 3 configurations")
	require.Zero(t, env.Done(), "refused before any configuration is predicted")
}

// TestLargestTFBenchmarks: tf-benchmarks bounds its simulator by the most
// runs a calibration may take (predict.MaxCalibrationRuns, not a typical
// eight) and its model work likewise, which puts the committed experiment
// above the default model_work: it sets its own, and without it is refused
// at its params line before any calibration. The largest simulated steps
// per GPU [limits] events admits is found without running; the committed
// run does at most its admitted work (about two CPU-seconds, not under
// -short).
func TestLargestTFBenchmarks(t *testing.T) {
	experimenttest.LimitsFullSuiteOnly(t)
	t.Parallel()
	committed := experimenttest.Edited(t, largestRoot, "experiments/beyond/tf-benchmarks.toml")
	spec := func(n int) string {
		return experimenttest.ReplaceLine(t, committed, "steps = ", fmt.Sprintf("steps = %d", n))
	}
	defaults := func(s string) string { return strings.Replace(s, "[limits]\nmodel_work = 1e9\n", "", 1) }
	n, est, above := beyondLargest(t, tfBenchmarks, "beyond", "tf-benchmarks", spec, "events", 2)
	t.Logf("tf-benchmarks: %d steps admitted (%.3g events), %d refused", n, est, above)

	_, env, file, err := beyondRun(t, tfBenchmarks, "beyond", "tf-benchmarks", defaults(committed))
	require.ErrorContains(t, err, experimenttest.At(t, file, defaults(committed), "slowdowns = ")+"tf-benchmarks: ")
	require.ErrorContains(t, err, "units of model work exceed the limit of 1e+08")
	require.Zero(t, env.Done())

	res, env, _, err := beyondRun(t, tfBenchmarks, "beyond", "tf-benchmarks", committed)
	require.NoError(t, err)
	done := experimenttest.Bounded(t, env, res)
	t.Logf("tf-benchmarks: %.3g events and %.3g units done of %v admitted", done.Events, done.Model, env.Charged())
}

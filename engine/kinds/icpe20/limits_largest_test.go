package icpe20

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"pslab/engine/experiment"
	"pslab/engine/experiment/experimenttest"
)

// The tests of this file hold the icpe20 kinds to their limits: the
// largest input the default [limits] admit is found without running it
// (experimenttest.Largest), one step more is refused before any work,
// naming the key, and a grown run does at most the work it was admitted
// for, measured in simulator events (sim.Config.Progress) and model-work
// units and result rows, not timed.

// largestRoot is the repository root, relative to this package.
const largestRoot = "../../.."

// icpeRun runs kind fn on spec as <tmp>/icpe20/<name>.toml; file is its
// path.
func icpeRun(t *testing.T, fn experiment.RunFunc, name, spec string) (*experiment.Result, *experiment.Env, string, error) {
	return experimenttest.RunTemp(t, fn, filepath.Join("icpe20", name+".toml"), spec, largestRoot)
}

// icpeLargest is experimenttest.Largest of kind fn on the family spec.
func icpeLargest(t *testing.T, fn experiment.RunFunc, name string, spec func(n int) string, key string, n0 int) (int, float64, int) {
	t.Helper()
	return experimenttest.Largest(t, func(s string) (*experiment.Env, error) {
		_, env, _, err := icpeRun(t, fn, name, s)
		return env, err
	}, spec, key, map[string]float64{"events": experiment.DefaultMaxEvents, "model_work": experiment.DefaultMaxModelWork}[key], n0)
}

// TestLargestThroughput: icpe20-throughput (fig2: four Inception-v3 cases,
// W = 1..10) admits as many simulated steps per worker as [limits] events
// allows for all four cases together, and refuses more before any is
// synthesized or simulated. The committed fig13 (synthesized and recorded
// traces, Lin et al., Cynthia, measurements and error bounds) run by the
// paper's procedure at 100 steps does at most the work it was admitted for.
func TestLargestThroughput(t *testing.T) {
	experimenttest.LimitsFullSuiteOnly(t)
	t.Parallel()
	spec := func(n int) string {
		// the paper procedure at n steps (the committed converged estimate
		// stops at its events share)
		s := experimenttest.Edited(t, largestRoot, "experiments/icpe20/fig2.toml")
		return experimenttest.ReplaceLine(t, s, "estimate = ", fmt.Sprintf("estimate = \"paper\"\nsteps = %d", n))
	}
	n, est, above := icpeLargest(t, icpe20Throughput, "fig2", spec, "events", 100)
	t.Logf("fig2: %d steps admitted (%.3g events), %d refused", n, est, above)
	require.Less(t, n, experiment.DefaultMaxSteps)

	// the paper's procedure at 100 steps (the committed converged
	// estimate costs 16 CPU-s; its bound is the same events share)
	s := experimenttest.ReplaceLine(t, experimenttest.Edited(t, largestRoot, "experiments/icpe20/fig13.toml"), "estimate = ", "steps = 100")
	s = experimenttest.ReplaceLine(t, s, "precision = ", "")
	res, env, _, err := icpeRun(t, icpe20Throughput, "fig13", s)
	require.NoError(t, err)
	done := experimenttest.Bounded(t, env, res)
	require.Positive(t, done.Events)
	t.Logf("fig13 at 100 steps: %.3g events and %.3g units done of %v admitted", done.Events, done.Model, env.Charged())
}

// TestThroughputBoundsAllCases: the cases of one experiment are bounded
// together. Each of fig2's four cases alone is a quarter of its estimate,
// within [limits] events set to half of it; all four together are refused
// before any is simulated (each case used to be checked alone, so all four
// ran).
func TestThroughputBoundsAllCases(t *testing.T) {
	t.Parallel()
	committed := experimenttest.Edited(t, largestRoot, "experiments/icpe20/fig2.toml")
	_, _, _, err := icpeRun(t, icpe20Throughput, "fig2", experimenttest.WithLimits(committed, "events = 1"))
	total := experimenttest.Estimate(t, err)
	_, env, file, err := icpeRun(t, icpe20Throughput, "fig2", experimenttest.WithLimits(committed, fmt.Sprintf("events = %v", total/2)))
	require.ErrorContains(t, err, experimenttest.At(t, file, committed, "[params]")+"icpe20-throughput: 4 cases × 10 worker counts × steps")
	require.ErrorContains(t, err, "simulator events exceed the limit")
	require.Zero(t, env.Done(), "refused before any case is simulated")
}

// TestLargestThroughputSynthesis: without the simulator (Lin et al. and
// Cynthia only) icpe20-throughput's work is its traces: profile_steps
// synthesized steps per case, each of Inception-v3's ops, which
// [limits] steps alone let grow to 10^6 steps (10^9 ops held in memory);
// the default model_work admits a few thousand and refuses more before
// any synthesis.
func TestLargestThroughputSynthesis(t *testing.T) {
	experimenttest.LimitsFullSuiteOnly(t)
	t.Parallel()
	spec := func(n int) string {
		s := experimenttest.Edited(t, largestRoot, "experiments/icpe20/fig2.toml", `series = ["simulator"]`, `series = ["lin", "cynthia"]`)
		s = s[:strings.Index(s, "[[params.compare]]")] // the comparisons are of simulated curves
		return experimenttest.ReplaceLine(t, s, "profile_steps = ", fmt.Sprintf("profile_steps = %d", n))
	}
	n, est, above := icpeLargest(t, icpe20Throughput, "fig2", spec, "model_work", 100)
	t.Logf("fig2 without the simulator: %d profiled steps admitted (%.3g units), %d refused", n, est, above)
	require.Less(t, n, 10000)

	res, env, _, err := icpeRun(t, icpe20Throughput, "fig2", spec(10))
	require.NoError(t, err)
	experimenttest.Bounded(t, env, res)
}

// TestLargestPartition: ps-partition (fig23) visits every server for
// every variable; the largest server count placement.Greedy takes (4,096)
// is admitted and does at most its estimate, one more is refused at the
// servers line before any variable is placed.
func TestLargestPartition(t *testing.T) {
	experimenttest.LimitsFullSuiteOnly(t)
	t.Parallel()
	committed := experimenttest.Edited(t, largestRoot, "experiments/icpe20/fig23.toml")
	res, env, _, err := icpeRun(t, psPartition, "fig23", experimenttest.ReplaceLine(t, committed, "servers = ", "servers = 4096"))
	require.NoError(t, err)
	experimenttest.Bounded(t, env, res)
	require.Contains(t, res.Metrics, "total_MiB.ps4096")

	spec := experimenttest.ReplaceLine(t, committed, "servers = ", "servers = 4097")
	_, env, file, err := icpeRun(t, psPartition, "fig23", spec)
	require.ErrorContains(t, err, experimenttest.At(t, file, spec, "servers = ")+"servers = 4097: want 1 to 4096")
	require.Zero(t, env.Done())
}

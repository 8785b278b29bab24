package mechanism

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"pslab/engine/experiment"
	"pslab/engine/experiment/experimenttest"
)

// The tests of this file hold every icpe20 mechanism kind to its limits:
// for each, the largest input the default [limits] admit is found without
// running it (experimenttest.Largest: its estimate of simulator events or
// model work is within the limit, and one percent more is refused before
// any work, naming the key), and a run of its committed experiment grown
// about tenfold does at most the work it was admitted for, measured in
// simulator events (sim.Config.Progress) and model-work units and result
// rows, not timed.

// mechRoot is the repository root, relative to this package.
const mechRoot = "../../../.."

// mechFamily is a kind, its committed experiment and a family of specs
// grown by n from it.
type mechFamily struct {
	fn   experiment.RunFunc
	name string // experiments/icpe20/<name>.toml
	// key is the limit that binds ("events" or "model_work"), limit its
	// value (the default, unless the largest default input is too large
	// to write in a test), n0 the first probe and grown the n of the run.
	key       string
	limit     float64
	n0, grown int
	spec      func(t *testing.T, committed string, n int) string
	// grownSpec, if set, is the spec of the grown run instead of
	// spec(grown).
	grownSpec func(t *testing.T, committed string) string
}

// check runs f's Largest and its grown run; it returns the largest n.
func (f mechFamily) check(t *testing.T) int {
	t.Helper()
	committed := experimenttest.Edited(t, mechRoot, filepath.Join("experiments", "icpe20", f.name+".toml"))
	run := func(s string) (*experiment.Result, *experiment.Env, error) {
		return experimenttest.RunEnv(t, f.fn, t.TempDir(), filepath.Join("icpe20", f.name+".toml"), s, mechRoot, nil)
	}
	n, est, above := experimenttest.Largest(t, func(s string) (*experiment.Env, error) {
		_, env, err := run(s)
		return env, err
	}, func(n int) string { return f.spec(t, committed, n) }, f.key, f.limit, f.n0)
	grown := f.spec
	if f.grownSpec != nil {
		grown = func(t *testing.T, s string, _ int) string { return f.grownSpec(t, s) }
	}
	res, env, err := run(grown(t, committed, f.grown))
	require.NoError(t, err)
	done := experimenttest.Bounded(t, env, res)
	t.Logf("%s: largest admitted n = %d (%s estimate %.3g), %d refused; grown run did %.3g events, %.3g units of %v admitted",
		f.name, n, f.key, est, above, done.Events, done.Model, env.Charged())
	return n
}

// atSteps is spec with steps simulated steps and workers workers.
func atSteps(t *testing.T, spec string, steps, workers int) string {
	spec = experimenttest.ReplaceLine(t, spec, "steps = ", fmt.Sprintf("steps = %d", steps))
	return experimenttest.ReplaceLine(t, spec, "workers = ", fmt.Sprintf("workers = %d", workers))
}

// TestLargestLinkMechanisms: link-mechanisms (fig8, four schedulers × two
// bandwidths) at the largest steps [limits] steps allows (10^6) admits
// six workers within [limits] events and refuses a seventh before
// simulating.
func TestLargestLinkMechanisms(t *testing.T) {
	experimenttest.LimitsFullSuiteOnly(t)
	t.Parallel()
	n := mechFamily{fn: linkMechanisms, name: "fig8", key: "events", limit: experiment.DefaultMaxEvents, n0: 1, grown: 10,
		spec:      func(t *testing.T, s string, n int) string { return atSteps(t, s, experiment.DefaultMaxSteps, n) },
		grownSpec: func(t *testing.T, s string) string { return atSteps(t, s, 30, 10) }}.check(t)
	require.Equal(t, 6, n)
}

// TestLargestSimTimeline: sim-timeline (fig7) keeps every chunk for its
// Gantt chart and fits the per-worker rates on them: its model work grows
// with the square of the chunks, so far fewer steps are admitted than
// its events alone would allow (it used to be bounded by events only,
// with a lane scan per worker and resource over every chunk).
func TestLargestSimTimeline(t *testing.T) {
	experimenttest.LimitsFullSuiteOnly(t)
	t.Parallel()
	n := mechFamily{fn: simTimeline, name: "fig7", key: "model_work", limit: experiment.DefaultMaxModelWork, n0: 2, grown: 20,
		spec: func(t *testing.T, s string, n int) string {
			return experimenttest.ReplaceLine(t, s, "steps = ", fmt.Sprintf("steps = %d", n))
		}}.check(t)
	require.Less(t, n, 1000)
}

// TestLargestLinkShare: link-share (fig9) draws every transfer's share at
// every event, rows quadratic in the transfers; the largest admitted
// number of transfers is a few hundred. A transfer too small to move the
// clock (start 1e20, work 1) ends instead of looping forever.
func TestLargestLinkShare(t *testing.T) {
	experimenttest.LimitsFullSuiteOnly(t)
	t.Parallel()
	n := mechFamily{fn: linkShare, name: "fig9", key: "model_work", limit: experiment.DefaultMaxModelWork, n0: 10, grown: 30,
		spec: func(t *testing.T, s string, n int) string {
			s = experimenttest.ReplaceLine(t, s, "starts = ", "starts = "+experimenttest.Seq(n, 1))
			return experimenttest.ReplaceLine(t, s, "work = ", "work = "+experimenttest.Seq(n, 2))
		}}.check(t)
	require.Less(t, n, 2000)

	spec := experimenttest.Edited(t, mechRoot, "experiments/icpe20/fig9.toml", "starts = [0, 2, 4]", "starts = [1e20]", "work = [6, 3, 4]", "work = [1]")
	res, _, err := experimenttest.RunEnv(t, linkShare, t.TempDir(), "icpe20/fig9.toml", spec, mechRoot, nil)
	require.NoError(t, err)
	require.Equal(t, 1e20, res.Metrics["finish.w1"])
}

// TestLargestLinkStates: link-states (fig24) enumerates 2^(W·M) states per
// pair: three pairs of 20 links are admitted, a fourth is refused before
// any enumeration. The grown run enumerates up to 2^16 states.
func TestLargestLinkStates(t *testing.T) {
	experimenttest.LimitsFullSuiteOnly(t)
	t.Parallel()
	f := mechFamily{fn: linkStates, name: "fig24", key: "model_work", limit: experiment.DefaultMaxModelWork, n0: 1, grown: 8,
		spec: func(t *testing.T, s string, n int) string {
			s = experimenttest.ReplaceLine(t, s, "servers = ", "servers = [1]")
			return experimenttest.ReplaceLine(t, s, "workers = ", "workers = [20"+strings.Repeat(", 20", n-1)+"]")
		}}
	committed := experimenttest.Edited(t, mechRoot, "experiments/icpe20/fig24.toml")
	run := func(s string) (*experiment.Env, error) {
		_, env, err := experimenttest.RunEnv(t, linkStates, t.TempDir(), "icpe20/fig24.toml", s, mechRoot, nil)
		return env, err
	}
	n, _, _ := experimenttest.Largest(t, run, func(n int) string { return f.spec(t, committed, n) }, f.key, f.limit, f.n0)
	require.Equal(t, 3, n)
	spec := experimenttest.ReplaceLine(t, committed, "workers = ", "workers = "+experimenttest.Seq(8, 1))
	res, env, err := experimenttest.RunEnv(t, linkStates, t.TempDir(), "icpe20/fig24.toml", spec, mechRoot, nil)
	require.NoError(t, err)
	experimenttest.Bounded(t, env, res)
	require.Equal(t, 65536.0, res.Metrics["states.w8.m2"])
}

// TestLargestHTTP2Chunks: http2-chunks (fig12) simulates one step of its
// streams and draws every chunk; its work is linear in the streams. The
// default model_work admits about 4·10^5 streams, too large a spec to
// write here, so the boundary is checked at [limits] model_work = 2·10^5.
func TestLargestHTTP2Chunks(t *testing.T) {
	experimenttest.LimitsFullSuiteOnly(t)
	t.Parallel()
	n := mechFamily{fn: http2Chunks, name: "fig12", key: "model_work", limit: 2e5, n0: 100, grown: 50,
		spec: func(t *testing.T, s string, n int) string {
			s = s[:strings.Index(s, "[[params.streams]]")]
			var b strings.Builder
			for i := range n {
				fmt.Fprintf(&b, "[[params.streams]]\nname = \"s%d\"\nmb = %d\n\n", i, 1+i%5)
			}
			return s + b.String()
		}}.check(t)
	require.InDelta(t, 2e5/experiment.DefaultMaxModelWork*4.2e5, n, 100)
}

// TestLargestDesyncSeries: desync-series (fig15), 10 replications of a
// tenth of the largest steps [limits] steps allows (10^5 of 10^6), admits
// the workers [limits] events allows;
// its series windows are bounded before it simulates, by the
// longest the run can last: a window_s of 1e-9 s, which used to make the
// simulator loop and allocate a window per nanosecond, is refused at its
// line.
func TestLargestDesyncSeries(t *testing.T) {
	experimenttest.LimitsFullSuiteOnly(t)
	t.Parallel()
	mechFamily{fn: desyncSeries, name: "fig15", key: "events", limit: experiment.DefaultMaxEvents, n0: 2, grown: 1000,
		spec: func(t *testing.T, s string, n int) string {
			return atSteps(t, s, experiment.DefaultMaxSteps/experiment.MinReplications, n)
		},
		grownSpec: func(t *testing.T, s string) string { return atSteps(t, s, 1000, 2) }}.check(t)

	spec := experimenttest.Edited(t, mechRoot, "experiments/icpe20/fig15.toml", "window_s = 100", "window_s = 1e-9")
	dir := t.TempDir()
	_, env, err := experimenttest.RunEnv(t, desyncSeries, dir, "icpe20/fig15.toml", spec, mechRoot, nil)
	require.ErrorContains(t, err, experimenttest.At(t, filepath.Join(dir, "icpe20", "fig15.toml"), spec, "window_s")+"desync-series: ")
	require.ErrorContains(t, err, "windows of 1e-09 s")
	require.Zero(t, env.Done().Events, "refused before simulating")
}

// TestLargestDownlinkEndError: downlink-end-error (table1) synthesizes its
// profiled steps twice (once a step at a time, reading the profile once,
// not once per step) and predicts every downlink stream.
func TestLargestDownlinkEndError(t *testing.T) {
	experimenttest.LimitsFullSuiteOnly(t)
	t.Parallel()
	mechFamily{fn: downlinkEndError, name: "table1", key: "model_work", limit: experiment.DefaultMaxModelWork, n0: 1000, grown: 1000,
		spec: func(t *testing.T, s string, n int) string {
			return experimenttest.ReplaceLine(t, s, "profiled_steps = ", fmt.Sprintf("profiled_steps = %d", n))
		}}.check(t)
}

// TestLargestOverheadFit: overhead-fit (fig10) draws sizes × repeats
// points and a row per size; sizes and repeats were not bounded at all.
func TestLargestOverheadFit(t *testing.T) {
	experimenttest.LimitsFullSuiteOnly(t)
	t.Parallel()
	mechFamily{fn: overheadFit, name: "fig10", key: "model_work", limit: experiment.DefaultMaxModelWork, n0: 1000, grown: 400,
		spec: func(t *testing.T, s string, n int) string {
			return experimenttest.ReplaceLine(t, s, "sizes = ", fmt.Sprintf("sizes = %d", n))
		}}.check(t)
}

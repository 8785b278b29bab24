package beyond

import (
	"testing"

	"github.com/stretchr/testify/require"

	"pslab/engine/experiment"
	"pslab/engine/experiment/experimenttest"
)

// tbmRun runs testbed-modes on spec as beyond/testbed-modes.toml.
func tbmRun(t *testing.T, spec string) (*experiment.Result, *experiment.Env, error) {
	t.Helper()
	res, env, _, err := experimenttest.RunTemp(t, testbedModes, "beyond/testbed-modes.toml", spec, root)
	return res, env, err
}

// TestTestbedModesOnTheCommittedRuns: each start's in-step fraction is
// its count over its runs inside its Wilson interval, every run is
// classed, the simulator's estimate lies in its interval and within the
// events admitted, and the run is deterministic. Skipped under -short.
func TestTestbedModesOnTheCommittedRuns(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("-short: about 1.3 CPU-s of simulation; go test ./engine/kinds -short checks the experiment on its recorded results")
	}
	spec := experimenttest.Edited(t, root, "experiments/beyond/testbed-modes.toml")
	res, env, err := tbmRun(t, spec)
	require.NoError(t, err)
	experimenttest.Bounded(t, env, res)
	m := res.Metrics
	total := 0.0
	for _, id := range []string{"collection", "together", "stagger5", "stagger10", "staggered"} {
		n, k := m["runs."+id], m["runs_in_step."+id]
		require.Equal(t, 15.0, n, id)
		require.InDelta(t, k/n, m["in_step."+id], 1e-12, id)
		require.LessOrEqual(t, m["in_step."+id+".ci95_lo"], m["in_step."+id], id)
		require.GreaterOrEqual(t, m["in_step."+id+".ci95_hi"], m["in_step."+id], id)
		total += n
	}
	require.Equal(t, total, m["mode.in_step.runs"]+m["mode.interleaved.runs"], "every run in one mode")
	require.Less(t, m["simulator.converged.ci95_lo"], m["simulator.converged"])
	require.Greater(t, m["simulator.converged.ci95_hi"], m["simulator.converged"])
	for _, id := range []string{"together", "staggered"} {
		require.LessOrEqual(t, m["simulator.start."+id+".ci95_lo"], m["simulator.start."+id], id)
		require.Contains(t, m, "simulator.overlap."+id, "the simulator under the same intervention")
	}
	require.Less(t, m["simulator.overlap.staggered"], m["simulator.overlap.together"], "started apart, the simulated downlinks overlap less")
	require.Equal(t, 5.0, m["stagger_ms.stagger5"], "the stagger from the data's metadata")
	require.Zero(t, m["stagger_ms.collection"], "no stagger recorded: together")
	again, _, err := tbmRun(t, spec)
	require.NoError(t, err)
	require.Equal(t, m, again.Metrics)
}

// TestTestbedModesBadInput: parameters it cannot use and starts that are
// not the same job at the same W are refused, naming the key or input.
func TestTestbedModesBadInput(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		oldNew []string
		want   string
	}{
		{[]string{"synchrony_split = 0.4", "synchrony_split = 1.5"}, "synchrony_split 1.5"},
		{[]string{`simulator = "together"`, `simulator = "nobody"`}, `simulator "nobody" names no start`},
		{[]string{"workers = 5", "workers = 4"}, `input "together": no unstretched runs at W = 4`},
		{[]string{"workers = 5", "workers = 0"}, "workers 0"},
		{[]string{"paper_steps = 1000", "paper_steps = 1"}, "paper_steps 1"},
		{[]string{`id = "stagger5"`, `id = "together"`}, `id "together" repeats`},
		{[]string{`"datasets/testbed-v3/resnet50-ordered-tic"`, `"datasets/testbed-v3/resnet50-mux"`}, "is not the job of start"},
	} {
		spec := experimenttest.Edited(t, root, "experiments/beyond/testbed-modes.toml", tc.oldNew...)
		_, _, err := tbmRun(t, spec)
		require.ErrorContains(t, err, tc.want, tc.oldNew[1])
		require.ErrorContains(t, err, "testbed-modes.toml", "names the file")
	}
}

// TestFisherExact: Fisher's two-sided p-value on tables worked out by
// hand: [[3, 1], [1, 3]] sums the tables of probability ≤ 16/70 (those
// with 3 or more, or 1 or fewer, in the first cell: 34/70); a table with
// one row empty is certain.
func TestFisherExact(t *testing.T) {
	require.InDelta(t, 34.0/70, fisherExact(3, 1, 1, 3), 1e-12)
	require.InDelta(t, 1, fisherExact(0, 5, 0, 5), 1e-12)
	// 15 of 15 against 0 of 15: 2/C(30, 15)
	require.InDelta(t, 2/155117520.0, fisherExact(15, 0, 0, 15), 1e-18)
}

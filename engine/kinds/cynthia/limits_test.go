package cynthia

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"pslab/engine/dataset"
	"pslab/engine/experiment"
)

// edited returns the committed experiments/cynthia/<name>.toml with each
// old text replaced by its new text (each must occur).
func edited(t *testing.T, name string, oldNew ...string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, "experiments", "cynthia", name+".toml"))
	require.NoError(t, err)
	s := string(b)
	for i := 0; i < len(oldNew); i += 2 {
		require.Contains(t, s, oldNew[i])
		s = strings.Replace(s, oldNew[i], oldNew[i+1], 1)
	}
	return s
}

// runSpec writes spec as <tmp>/cynthia/<name>.toml, loads it and runs kind
// fn on it with the repository's inputs; a load error is returned as is.
// file is the spec's path, for matching error locations.
func runSpec(t *testing.T, fn experiment.RunFunc, name, spec string) (res *experiment.Result, file string, err error) {
	t.Helper()
	file = filepath.Join(t.TempDir(), "cynthia", name+".toml")
	require.NoError(t, os.MkdirAll(filepath.Dir(file), 0o755))
	require.NoError(t, os.WriteFile(file, []byte(spec), 0o644))
	s, err := experiment.Load(file)
	if err != nil {
		return nil, file, err
	}
	res, err = fn(context.Background(), &experiment.Env{Spec: s, Root: root, Mem: dataset.Allocator})
	return res, file, err
}

// at is "file:line: " for the first line of spec that starts with key.
func at(t *testing.T, file, spec, key string) string {
	t.Helper()
	for i, l := range strings.Split(spec, "\n") {
		if strings.HasPrefix(l, key) {
			return fmt.Sprintf("%s:%d: ", file, i+1)
		}
	}
	t.Fatalf("no line starts with %q", key)
	return ""
}

// TestTimeVsWorkersRefusesBadCounts: cynthia-time-vs-workers (fig6)
// refuses a PS count below 1 or above the node limit and a sweep below one
// worker before building a cluster, naming the key and its line. Before
// the fix ps = -1 and from = -5 panicked ("makeslice: len out of range"),
// ps = 1e12 ran out of memory and ps = 0 was refused by the model after
// the allocation, naming no key.
func TestTimeVsWorkersRefusesBadCounts(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ old, new, key, want string }{
		{"ps = 1\n", "ps = -1\n", "ps =", "params.ps = -1: want a number of PS nodes >= 1"},
		{"ps = 1\n", "ps = 0\n", "ps =", "params.ps = 0: want a number of PS nodes >= 1"},
		{"ps = 1\n", "ps = 1000000000000\n", "ps =", "params.ps = 1000000000000 exceeds the limit of 65536 nodes"},
		{"ps = 1\n", "ps = 1e12\n", "ps =", `field "params.ps": incompatible types`}, // a float is no count
		{"from = 1\n", "from = -5\n", "from =", "sweep.from = -5: workers must be whole numbers >= 1"},
		{"from = 1\n", "from = 0.5\n", "from =", "sweep.from = 0.5: workers must be whole numbers >= 1"},
		{"to = 16\n", "to = 16\nstep = 0.5\n", "step =", "sweep.step = 0.5: workers must be whole numbers >= 1, got 1.5"},
		{"from = 1\nto = 16\n", "values = [4, -2]\n", "values =", "sweep.values = -2: workers must be whole numbers >= 1"},
	} {
		spec := edited(t, "fig6", c.old, c.new)
		_, file, err := runSpec(t, cynthiaTimeVsWorkers, "fig6", spec)
		require.ErrorContains(t, err, at(t, file, spec, c.key)+c.want, c.new)
		require.ErrorContains(t, err, c.want, c.new)
	}
}

// TestTimeVsWorkersLargeSweepIsCheap: 60,000 workers, inside the default
// worker limit, are evaluated in closed form (one unit of model work per
// point and model, not one per node), so the sweep finishes in about a
// second. Before the fix every point built and walked an explicit cluster
// of n workers, Σn ≈ 1.8·10⁹ nodes per curve: past the 60 s test timeout.
// A [limits] model_work below the estimate refuses it up front, naming
// the estimate and the key that raises the limit. Under -short only the
// refusal is checked (the sweep itself is most of a CPU-second).
func TestTimeVsWorkersLargeSweepIsCheap(t *testing.T) {
	t.Parallel()
	if !testing.Short() {
		spec := edited(t, "fig6", "to = 16\n", "to = 60000\n")
		res, _, err := runSpec(t, cynthiaTimeVsWorkers, "fig6", spec)
		require.NoError(t, err)
		require.Equal(t, 2*2*60000, res.Table.Len())
		require.Contains(t, res.Metrics, "util.VGG-19.n60000")
	}

	spec := edited(t, "fig6", "to = 16\n", "to = 60000\n", "[params]\n", "[limits]\nmodel_work = 1000\n\n[params]\n")
	_, file, err := runSpec(t, cynthiaTimeVsWorkers, "fig6", spec)
	require.ErrorContains(t, err, at(t, file, spec, "[sweep]")+"cynthia-time-vs-workers: 60000 points × 2 workloads × 2 models: about 2.4e+05 units of model work exceed the limit of 1e+03")
	require.ErrorContains(t, err, "[limits] model_work = 2.4e+05")
}

// TestPredictBoundsWorkAndNodes: cynthia-predict (fig1, fig10) estimates
// the nodes its explicit clusters visit before building any (Σ over
// points and series of 1 + workers + PS) and refuses above [limits]
// model_work, naming the estimate and the key; a series' ps or workers
// and a swept PS count above the node limit are refused before any
// allocation. Before the fix a 60,000-worker sweep of fig1's four series
// ran for minutes (past the 60 s test timeout) and ps = 1e12 or a swept
// PS count of 1e12 ran out of memory.
func TestPredictBoundsWorkAndNodes(t *testing.T) {
	t.Parallel()
	spec := edited(t, "fig1", "to = 16\n", "to = 60000\n")
	_, file, err := runSpec(t, cynthiaPredict, "fig1", spec)
	require.ErrorContains(t, err, at(t, file, spec, "[sweep]")+"cynthia-predict: 60000 points × 4 series: about 7.2e+09 units of model work exceed the limit of 1e+08")
	require.ErrorContains(t, err, "[limits] model_work = 7.2e+09")

	spec = edited(t, "fig1", "worker = \"m4.xlarge\"\n", "worker = \"m4.xlarge\"\nps = 1000000000000\n")
	_, file, err = runSpec(t, cynthiaPredict, "fig1", spec)
	require.ErrorContains(t, err, at(t, file, spec, "ps =")+"series 0 (\"resnet32.homo\"): ps = 1000000000000 exceeds the limit of 65536 nodes")
	spec = edited(t, "fig1", "worker = \"m4.xlarge\"\n", "worker = \"m4.xlarge\"\nps = -1\n")
	_, _, err = runSpec(t, cynthiaPredict, "fig1", spec)
	require.ErrorContains(t, err, "series 0 (\"resnet32.homo\"): ps = -1: want a number of PS nodes >= 1")

	spec = edited(t, "fig10", "from = 1\nto = 4\n", "values = [1, 1e12]\n")
	_, file, err = runSpec(t, cynthiaPredict, "fig10", spec)
	require.ErrorContains(t, err, at(t, file, spec, "values =")+"sweep.values = 1e+12: ps exceeds the limit of 65536 nodes")

	// The committed sweeps stay far below the limit.
	for _, name := range []string{"fig1", "fig10"} {
		_, _, err := runSpec(t, cynthiaPredict, name, edited(t, name))
		require.NoError(t, err, name)
	}
}

// TestProvisionBoundsWork: cynthia-provision (fig12) bounds Algorithm 1's
// work by its search spaces (and its ps_scan grid by catalogue × max
// workers per point) before planning, and refuses above [limits]
// model_work, naming the estimate and the key that raises the limit.
func TestProvisionBoundsWork(t *testing.T) {
	t.Parallel()
	spec := edited(t, "fig12", "[params]\n", "[limits]\nmodel_work = 1e6\n\n[params]\n")
	_, file, err := runSpec(t, cynthiaProvision, "fig12", spec)
	require.ErrorContains(t, err, at(t, file, spec, "[[params.goals]]")+"cynthia-provision: 3 goals × 2 planners and 1 ps_scan grids")
	require.ErrorContains(t, err, "about 1.9e+06 units of model work exceed the limit of 1e+06")
	require.ErrorContains(t, err, "[limits] model_work = 1.9e+06")
}

package kinds

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/apache/arrow/go/v17/arrow/memory"
	"github.com/stretchr/testify/require"

	"pslab/engine/dataset"
	"pslab/engine/experiment"
)

// update rewrites the expected values of regression checks in golden/ (and
// only those): go test ./engine/kinds -run TestExperiments -update
var update = flag.Bool("update", false, "rewrite regression values in golden/ from this run")

const root = "../.."

var (
	runOnce     sync.Once
	runPaths    []string
	runOuts     []experiment.Outcome
	runRecorded []bool
	runErr      error
)

// runAll runs every experiment once per test binary; the tests share it.
// In -short mode it runs only the experiments shortRuns selects, and
// returns the others' outcomes from their recorded results
// (recordedOutcome), marked in recorded.
func runAll(t *testing.T) (paths []string, outs []experiment.Outcome, recorded []bool) {
	runOnce.Do(func() {
		runPaths, runErr = experiment.Find(root, nil)
		if runErr != nil {
			return
		}
		runOuts = make([]experiment.Outcome, len(runPaths))
		runRecorded = make([]bool, len(runPaths))
		var run []string
		var at []int
		for i, p := range runPaths {
			if testing.Short() && !shortRuns(p) {
				runRecorded[i] = true
				runOuts[i] = recordedOutcome(p)
				continue
			}
			run, at = append(run, p), append(at, i)
		}
		for k, o := range experiment.Run(context.Background(), Registry(), run, experiment.Options{Root: root}) {
			runOuts[at[k]] = o
		}
	})
	require.NoError(t, runErr)
	require.NotEmpty(t, runPaths, "no experiments found")
	return runPaths, runOuts, runRecorded
}

// TestExperiments finds every experiment under experiments/, runs it in
// memory and evaluates its golden checks. In -short mode the experiments
// runAll does not run have their checks evaluated on their recorded
// results in figures/ instead.
func TestExperiments(t *testing.T) {
	if *update && testing.Short() {
		t.Fatal("-update rewrites golden values from a run of every experiment: drop -short")
	}
	paths, outs, recorded := runAll(t)
	for i, o := range outs {
		name, _ := filepath.Rel(root, paths[i])
		t.Run(name, func(t *testing.T) {
			require.NoError(t, o.Err)
			if recorded[i] {
				t.Logf("-short: not run (recorded run time %gs: unknown or above %gs); checks evaluated on its recorded result",
					experiment.RecordedElapsed(root, paths[i]), shortMaxSeconds)
			}
			if *update {
				n, err := o.Golden.Update(o.Result.Lookup)
				require.NoError(t, err)
				if n > 0 {
					t.Logf("updated %d regression values in %s", n, o.Golden.Path)
				}
				o.Checks = o.Golden.Evaluate(o.Result.Lookup)
			}
			for _, c := range o.Checks {
				if c.Deviates {
					t.Logf("deviation: %s", c.Message)
				}
				if !c.Pass {
					t.Errorf("check failed: %s", c.Message)
				}
			}
		})
	}
}

// TestDeterministic requires every experiment's result table, from the one
// run the tests share, to be byte-identical to its committed
// figures/<paper>/<name>.arrow, written by an earlier process (make
// figures): same seed, same bytes, across processes and machines, with no
// second run. A difference is either nondeterminism or a change of results
// whose figures were not regenerated. In -short mode only the experiments
// runAll ran are compared.
func TestDeterministic(t *testing.T) {
	paths, outs, recorded := runAll(t)
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	for i, o := range outs {
		name, _ := filepath.Rel(root, paths[i])
		t.Run(name, func(t *testing.T) {
			if recorded[i] {
				t.Skip("-short: not run, nothing to compare with figures/")
			}
			require.NoError(t, o.Err)
			got, err := dataset.Encode(o.Result.Table, mem)
			require.NoError(t, err)
			committed := experiment.FigurePath(root, o.Spec, ".arrow")
			want, err := os.ReadFile(committed)
			require.NoError(t, err, "run make figures")
			require.True(t, bytes.Equal(want, got),
				"%s differs from this run's result table: nondeterminism, or results changed without make figures", committed)
		})
	}
}

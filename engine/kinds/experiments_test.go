package kinds

import (
	"bytes"
	"context"
	"flag"
	"path/filepath"
	"sync"
	"testing"
	"time"

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
	runOnce  sync.Once
	runPaths []string
	runOuts  []experiment.Outcome
	runErr   error
)

// runAll runs every experiment once per test binary; the tests share it.
func runAll(t *testing.T) ([]string, []experiment.Outcome) {
	runOnce.Do(func() {
		runPaths, runErr = experiment.Find(root, nil)
		if runErr == nil {
			runOuts = experiment.Run(context.Background(), Registry(), runPaths, experiment.Options{Root: root})
		}
	})
	require.NoError(t, runErr)
	require.NotEmpty(t, runPaths, "no experiments found")
	return runPaths, runOuts
}

// TestExperiments finds every experiment under experiments/, runs it in
// memory and evaluates its golden checks.
func TestExperiments(t *testing.T) {
	paths, outs := runAll(t)
	for i, o := range outs {
		name, _ := filepath.Rel(root, paths[i])
		t.Run(name, func(t *testing.T) {
			require.NoError(t, o.Err)
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

// TestDeterministic reruns, one at a time, every experiment that took under
// a second and requires byte-identical result tables and identical metrics
// (the expensive ones are simulations built from the same seeded parts).
func TestDeterministic(t *testing.T) {
	paths, first := runAll(t)
	var cheap []string
	var want []experiment.Outcome
	for i, o := range first {
		if o.Err == nil && o.Elapsed < time.Second {
			cheap = append(cheap, paths[i])
			want = append(want, o)
		}
	}
	require.NotEmpty(t, cheap)
	again := experiment.Run(context.Background(), Registry(), cheap, experiment.Options{Root: root, Parallel: 1})
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	for i := range cheap {
		require.NoError(t, again[i].Err, cheap[i])
		require.Equal(t, want[i].Result.Metrics, again[i].Result.Metrics, cheap[i])
		a, err := dataset.Encode(want[i].Result.Table, mem)
		require.NoError(t, err)
		b, err := dataset.Encode(again[i].Result.Table, mem)
		require.NoError(t, err)
		require.True(t, bytes.Equal(a, b), "%s: result table bytes differ between runs", cheap[i])
	}
}

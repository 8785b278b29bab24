package kinds

import (
	"context"
	"flag"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"pslab/engine/experiment"
)

// update rewrites the expected values of regression checks in golden/ (and
// only those): go test ./engine/kinds -run TestExperiments -update
var update = flag.Bool("update", false, "rewrite regression values in golden/ from this run")

const root = "../.."

// TestExperiments finds every experiment under experiments/, runs it in
// memory and evaluates its golden checks.
func TestExperiments(t *testing.T) {
	paths, err := experiment.Find(root, nil)
	require.NoError(t, err)
	require.NotEmpty(t, paths, "no experiments found")
	outs := experiment.Run(context.Background(), Registry(), paths, experiment.Options{Root: root})
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

// TestDeterministic runs every experiment twice and requires identical
// result tables and metrics.
func TestDeterministic(t *testing.T) {
	paths, err := experiment.Find(root, nil)
	require.NoError(t, err)
	a := experiment.Run(context.Background(), Registry(), paths, experiment.Options{Root: root})
	b := experiment.Run(context.Background(), Registry(), paths, experiment.Options{Root: root, Parallel: 1})
	for i := range a {
		if a[i].Err != nil || b[i].Err != nil {
			continue // reported by TestExperiments
		}
		require.Equal(t, a[i].Result.Metrics, b[i].Result.Metrics, paths[i])
		require.Equal(t, a[i].Result.Table.Floats("y"), b[i].Result.Table.Floats("y"), paths[i])
	}
}

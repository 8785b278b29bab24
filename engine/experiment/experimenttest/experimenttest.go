// Package experimenttest runs an experiment kind on a spec written into a
// temporary repository, for the tests of the kinds packages (as
// net/http/httptest serves handlers for theirs).
package experimenttest

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"pslab/engine/dataset"
	"pslab/engine/experiment"
)

// Run writes tables (paths relative to dir) and the experiment
// file dir/<rel> (rel is "<paper>/<name>.toml" below any directory), loads
// it and runs kind fn with input paths resolved against inputRoot.
func Run(t *testing.T, fn experiment.RunFunc, dir, rel, spec, inputRoot string, tables map[string]*dataset.Table) (*experiment.Result, error) {
	t.Helper()
	for name, tab := range tables {
		require.NoError(t, dataset.Write(filepath.Join(dir, name), tab, dataset.Allocator))
	}
	p := filepath.Join(dir, rel)
	require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
	require.NoError(t, os.WriteFile(p, []byte(spec), 0o644))
	s, err := experiment.Load(p)
	require.NoError(t, err)
	return fn(context.Background(), &experiment.Env{Spec: s, Root: inputRoot, Mem: dataset.Allocator})
}

// CopyTestbed copies the trace, throughput, phases and steps files of the
// named testbed configurations (datasets/testbed/<config>/) and the given
// other files (paths relative to root) from the repository at root into
// dst, keeping their relative paths.
func CopyTestbed(t *testing.T, root, dst string, configs []string, files ...string) {
	t.Helper()
	for _, c := range configs {
		for _, f := range []string{"trace", "throughput", "phases", "steps"} {
			files = append(files, filepath.Join("datasets", "testbed", c, f+".arrow"))
		}
	}
	for _, rel := range files {
		b, err := os.ReadFile(filepath.Join(root, rel))
		require.NoError(t, err)
		require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(dst, rel)), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(dst, rel), b, 0o644))
	}
}

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

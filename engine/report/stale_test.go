//go:build unix

package report

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"pslab/engine/atomicfile"
)

// TestWriteRemovesStaleTempDirs is issue 28 item 6: kill -9 of pslab
// report left .report.tmp-* (the site being written) or .report.tmp-*.old
// (the previous site being removed) beside report/ for good. The next
// write removes them; an unrelated directory, another target's temporary
// directory and the directory of a writer still running (its lock held)
// stay.
func TestWriteRemovesStaleTempDirs(t *testing.T) {
	t.Parallel()
	parent := t.TempDir()
	out := filepath.Join(parent, "report")
	stale := []string{".report.tmp-123", ".report.tmp-456.old"}
	keep := []string{"unrelated", ".figures.tmp-123", "report.tmp-7"}
	for _, d := range append(stale, keep...) {
		require.NoError(t, os.MkdirAll(filepath.Join(parent, d, "data"), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(parent, d, "data", "x.arrow"), []byte("x"), 0o644))
	}
	running, err := atomicfile.NewDir(out) // a concurrent pslab report
	require.NoError(t, err)
	defer running.Abort()
	require.NoError(t, os.WriteFile(filepath.Join(running.Path, "index.html"), []byte("partial"), 0o644))

	files := &Files{m: map[string][]byte{"index.html": []byte(marker)}, links: map[string]string{}}
	require.NoError(t, files.writeTo(out, nil))
	got := map[string]bool{}
	ents, err := os.ReadDir(parent)
	require.NoError(t, err)
	for _, e := range ents {
		got[e.Name()] = true
	}
	for _, d := range stale {
		require.False(t, got[d], "stale %s removed", d)
	}
	for _, d := range keep {
		require.FileExists(t, filepath.Join(parent, d, "data", "x.arrow"))
	}
	require.FileExists(t, filepath.Join(running.Path, "index.html"), "a running writer's directory is kept")
	b, err := os.ReadFile(filepath.Join(out, "index.html"))
	require.NoError(t, err)
	require.Equal(t, marker, string(b))
	// report, the running writer's directory and lock, and the kept ones.
	require.Len(t, got, 1+2+len(keep), "%v", got)
}

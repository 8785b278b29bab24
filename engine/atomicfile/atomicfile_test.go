package atomicfile

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestWriteReplacesWholeFileAndLeavesNoTemp(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	p := filepath.Join(dir, "a", "b", "out.txt")
	require.NoError(t, Write(p, []byte("first version, longer")))
	require.NoError(t, Write(p, []byte("second")))
	b, err := os.ReadFile(p)
	require.NoError(t, err)
	require.Equal(t, "second", string(b))
	entries, err := os.ReadDir(filepath.Dir(p))
	require.NoError(t, err)
	require.Len(t, entries, 1, "no temporary files left behind")
}

func TestWriteFailureKeepsOldContent(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	p := filepath.Join(dir, "out.txt")
	require.NoError(t, Write(p, []byte("old")))
	// The target is now a directory: the rename fails, the temp file is removed.
	q := filepath.Join(dir, "sub")
	require.NoError(t, os.MkdirAll(filepath.Join(q, "x"), 0o755))
	require.Error(t, Write(q, []byte("new")))
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.Len(t, entries, 2)
	b, _ := os.ReadFile(p)
	require.Equal(t, "old", string(b))
}

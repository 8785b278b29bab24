package confine

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestRealPathAndWithin(t *testing.T) {
	t.Parallel()
	root, err := RealPath(t.TempDir())
	require.NoError(t, err)
	outside := t.TempDir()
	require.NoError(t, os.Mkdir(filepath.Join(root, "d"), 0o755))
	require.NoError(t, os.Symlink(outside, filepath.Join(root, "d", "out")))
	require.NoError(t, os.Symlink(filepath.Join(root, "none"), filepath.Join(root, "dangling")))

	p, err := RealPath(filepath.Join(root, "d", "missing", "x"))
	require.NoError(t, err, "a missing tail is kept as written")
	require.True(t, Within(root, p))

	p, err = RealPath(filepath.Join(root, "d", "out", "x"))
	require.NoError(t, err)
	require.False(t, Within(root, p), "a link inside the root leads outside")

	_, err = RealPath(filepath.Join(root, "dangling"))
	require.ErrorContains(t, err, "dangling symbolic link")

	require.True(t, Within(root, root))
	require.False(t, Within(root, filepath.Dir(root)))
}

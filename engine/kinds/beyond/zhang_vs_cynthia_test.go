package beyond

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"pslab/engine/experiment/experimenttest"
)

// TestZhangVsCynthiaRejectsFractionalWorkers: the committed spec with a
// worker sweep value that is not a whole number is an error naming it.
func TestZhangVsCynthiaRejectsFractionalWorkers(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile(filepath.Join(root, "experiments", "zhang", "vs-cynthia.toml"))
	require.NoError(t, err)
	spec := strings.Replace(string(b), "from = 1\nto = 16\n", "values = [1, 2.5]\n", 1)
	require.NotEqual(t, string(b), spec, "the committed spec no longer sweeps workers from 1 to 16")
	dir := t.TempDir()
	_, err = experimenttest.Run(t, zhangVsCynthia, dir, filepath.Join("experiments", "zhang", "vs-cynthia.toml"), spec, root, nil)
	require.ErrorContains(t, err, "not a whole number")
}

package kinds

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"pslab/engine/experiment"
)

// TestReadmeListsEveryExperiment keeps the README's experiment table true:
// every experiment id appears in it with its status.
func TestReadmeListsEveryExperiment(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(root, "README.md"))
	require.NoError(t, err)
	readme := string(b)
	paths, err := experiment.Find(root, nil)
	require.NoError(t, err)
	for _, p := range paths {
		s, err := experiment.Load(p)
		require.NoError(t, err)
		row := ""
		for _, l := range strings.Split(readme, "\n") {
			if strings.HasPrefix(l, "| `"+s.ID+"`") {
				row = l
			}
		}
		require.NotEmpty(t, row, "README.md has no table row for %s", s.ID)
		require.True(t, strings.HasSuffix(strings.TrimSpace(row), "| "+s.Status+" |"), "README row for %s does not end with its status %q", s.ID, s.Status)
	}
}

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

// TestReadmeExplainsEveryDeviation requires every experiment with a
// recorded deviation to be named in the README's Deviations section.
func TestReadmeExplainsEveryDeviation(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(root, "README.md"))
	require.NoError(t, err)
	readme := string(b)
	start := strings.Index(readme, "## Deviations from the papers")
	require.GreaterOrEqual(t, start, 0, "README has no Deviations section")
	section := readme[start:]
	if end := strings.Index(section[3:], "\n## "); end >= 0 {
		section = section[:end+3]
	}
	paths, err := experiment.Find(root, nil)
	require.NoError(t, err)
	for _, p := range paths {
		s, err := experiment.Load(p)
		require.NoError(t, err)
		g, err := os.ReadFile(experiment.GoldenPath(root, s))
		if err != nil {
			continue // reported by TestExperiments
		}
		if strings.Contains(string(g), "\ndeviation =") {
			require.Contains(t, section, "`"+s.ID+"`", "README's Deviations section does not explain %s", s.ID)
		}
	}
}

package experiment

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestCheckUnique: one file named twice (the same path, or a path through
// a link) and two files with one id are refused, naming both; distinct
// experiments pass.
func TestCheckUnique(t *testing.T) {
	t.Parallel()
	root, sp := repo(t, goodSpec, goodGolden)
	copyDir := filepath.Join(root, "copy", filepath.Base(filepath.Dir(sp)))
	require.NoError(t, os.MkdirAll(copyDir, 0o755))
	cp := filepath.Join(copyDir, filepath.Base(sp))
	b, err := os.ReadFile(sp)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(cp, b, 0o644))
	link := filepath.Join(root, "link.toml")
	require.NoError(t, os.Symlink(sp, link))
	cases := []struct {
		name  string
		paths []string
		want  []string
	}{
		{"one file", []string{sp}, nil},
		{"same path twice", []string{sp, sp}, []string{sp, "given twice"}},
		{"through a link", []string{sp, link}, []string{link, sp, "given twice"}},
		{"same id in two files", []string{sp, cp}, []string{cp, sp, "experiment id"}},
		{"missing file skipped", []string{sp, filepath.Join(root, "none.toml")}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			err := CheckUnique(c.paths)
			if c.want == nil {
				require.NoError(t, err)
				return
			}
			require.Error(t, err)
			for _, w := range c.want {
				require.ErrorContains(t, err, w)
			}
		})
	}
}

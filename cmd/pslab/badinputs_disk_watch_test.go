package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestBadRepoWatchSeesChanges checks the "nothing left on disk" check
// itself, with a watch and with the fallback snapshots: a file created
// deep in a watched tree, one rewritten, one removed and a new entry at
// the root are each reported once, and nothing after that.
func TestBadRepoWatchSeesChanges(t *testing.T) {
	for _, mode := range []string{"watch", "snapshots"} {
		t.Run(mode, func(t *testing.T) {
			root := t.TempDir()
			figures := filepath.Join(root, "figures")
			deep := filepath.Join(figures, "p", "q")
			require.NoError(t, os.MkdirAll(deep, 0o755))
			kept := filepath.Join(deep, "kept.arrow")
			gone := filepath.Join(figures, "gone.svg")
			for _, p := range []string{kept, gone, filepath.Join(root, "README.md")} {
				require.NoError(t, os.WriteFile(p, []byte("x"), 0o644))
			}
			var w *badRepoWatch
			if mode == "watch" {
				w = badWatchRepo(t, []string{figures}, root)
				if w.watcher == nil { // TestBadInputs then walks, as the other mode does
					t.Skip("no watch can be set up on this system (logged above)")
				}
			} else {
				w = &badRepoWatch{dirs: []string{figures}, root: root}
				w.before = w.snapshot(t)
			}
			require.Empty(t, w.changes(t), "nothing written yet")

			created := filepath.Join(deep, "new.png")
			require.NoError(t, os.WriteFile(created, []byte("png"), 0o644))
			require.NoError(t, os.WriteFile(kept, []byte("longer"), 0o644))
			require.NoError(t, os.Remove(gone))
			top := filepath.Join(root, "stray.arrow")
			require.NoError(t, os.WriteFile(top, nil, 0o644))
			got := strings.Join(w.changes(t), "\n") + "\n"
			for _, p := range []string{created, kept, gone, top} {
				// watch: "output left: p (ops)"; snapshots: "(new)",
				// "(changed: ...)" or "removed: p".
				require.True(t, strings.Contains(got, " "+p+" (") || strings.Contains(got, "removed: "+p+"\n"),
					"%s not reported in:\n%s", p, got)
			}
			require.Empty(t, w.changes(t), "each change is reported once")
		})
	}
}

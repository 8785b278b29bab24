package experiment

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestRunStartsLongestRecordedFirst lays out three experiments, two with
// recorded run times, and requires one worker to start them longest first
// (the unrecorded one last), with outcomes still in the order of paths.
func TestRunStartsLongestRecordedFirst(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	recorded := map[string]string{"a": "0.5", "b": "", "c": "7.25"}
	var paths []string
	for _, name := range []string{"a", "b", "c"} {
		sp := filepath.Join(root, "experiments", "beyond", name+".toml")
		require.NoError(t, os.MkdirAll(filepath.Dir(sp), 0o755))
		require.NoError(t, os.WriteFile(sp, []byte(strings.Replace(goodSpec, "beyond-toy", "beyond-"+name, 1)), 0o644))
		gp := filepath.Join(root, "golden", "beyond", name+".toml")
		require.NoError(t, os.MkdirAll(filepath.Dir(gp), 0o755))
		require.NoError(t, os.WriteFile(gp, []byte(goodGolden), 0o644))
		if s := recorded[name]; s != "" {
			rp := filepath.Join(root, "figures", "beyond", name+".run.json")
			require.NoError(t, os.MkdirAll(filepath.Dir(rp), 0o755))
			require.NoError(t, os.WriteFile(rp, []byte(`{"id":"beyond-`+name+`","elapsed_s":`+s+`,"metrics":{}}`), 0o644))
		}
		paths = append(paths, sp)
	}
	require.Equal(t, 7.25, RecordedElapsed(root, paths[2]))
	require.Zero(t, RecordedElapsed(root, paths[1]), "no run file")
	require.Zero(t, RecordedElapsed(root, filepath.Join(root, "missing.toml")))

	var mu sync.Mutex
	var started []string
	reg := registry()
	line := reg["line"]
	inner := line.Run
	line.Run = func(ctx context.Context, e *Env) (*Result, error) {
		mu.Lock()
		started = append(started, e.Spec.ID)
		mu.Unlock()
		return inner(ctx, e)
	}
	reg["line"] = line
	outs := Run(context.Background(), reg, paths, Options{Root: root, Parallel: 1})
	require.Equal(t, []string{"beyond-c", "beyond-a", "beyond-b"}, started)
	for i, name := range []string{"a", "b", "c"} {
		require.NoError(t, outs[i].Err)
		require.Equal(t, "beyond-"+name, outs[i].Spec.ID, "outcomes in the order of paths")
	}
}

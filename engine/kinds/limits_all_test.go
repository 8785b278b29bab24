package kinds

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"pslab/engine/experiment"
	"pslab/engine/experiment/experimenttest"
)

// TestEveryKindBoundsItsWorkFirst: every registered kind estimates its
// work and checks it against [limits] model_work before it does any: each
// committed experiment under model_work = 1 is refused, naming a line of
// its file and the estimate, with no work counted (experiment.Env.Done);
// and every kind has a committed experiment. The per-kind tests
// (engine/kinds/<paper>/limits_largest_test.go) find the largest input
// the default limits admit and measure the work a run does against its
// estimate. Under -short, the first experiment (in path order) of each
// kind is run: loading the others' inputs is 0.6 CPU-s of the quick loop.
func TestEveryKindBoundsItsWorkFirst(t *testing.T) {
	t.Parallel()
	reg := Registry()
	paths, err := experiment.Find(root, nil)
	require.NoError(t, err)
	covered := map[string]bool{}
	for _, path := range paths {
		b, err := os.ReadFile(path)
		require.NoError(t, err)
		rel, err := filepath.Rel(filepath.Join(root, "experiments"), path)
		require.NoError(t, err)
		spec := experimenttest.WithLimits(string(b), "model_work = 1")
		s, err := experiment.Parse(path, []byte(spec))
		require.NoError(t, err, rel)
		kind, ok := reg[s.Kind]
		require.True(t, ok, "%s: kind %q", rel, s.Kind)
		if testing.Short() && covered[s.Kind] {
			continue
		}
		covered[s.Kind] = true
		t.Run(strings.TrimSuffix(rel, ".toml"), func(t *testing.T) {
			t.Parallel()
			_, env, err := experimenttest.RunEnv(t, kind.Run, t.TempDir(), rel, spec, root, nil)
			require.Positive(t, experimenttest.Estimate(t, err), "%s (%s)", rel, s.Kind)
			require.Contains(t, err.Error(), rel+":", "the error names the file and line")
			require.Zero(t, env.Done(), "%s (%s): refused before any work", rel, s.Kind)
		})
	}
	for _, k := range reg.Names() {
		require.True(t, covered[k], "kind %q has no committed experiment", k)
	}
}

package mechanism

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"pslab/engine/experiment/experimenttest"
)

// TestTimelineRatesSeedFree: icpe20-fig7 runs one seed and is not
// replicated because what its checks judge, the rate of a chunk alone (1)
// and with the other worker on the same link (1/2), is the sharing rule
// itself: ten seeds (other sampled steps and jitter, so other chunk
// times) fit the same rates to 1e-9, while the time spent sharing the
// downlink, which the seed does move, stays positive.
func TestTimelineRatesSeedFree(t *testing.T) {
	t.Parallel()
	times := map[float64]bool{}
	for seed := 1; seed <= 10; seed++ {
		spec := experimenttest.Edited(t, root, "experiments/icpe20/fig7.toml", "seed = 1", fmt.Sprintf("seed = %d", seed))
		res, _, err := experimenttest.RunEnv(t, simTimeline, t.TempDir(), filepath.Join("icpe20", "fig7.toml"), spec, root, nil)
		require.NoError(t, err)
		for _, m := range []string{"rate.downlink.n1", "rate.uplink.n1"} {
			require.InDelta(t, 1, res.Metrics[m], 1e-9, "seed %d: %s", seed, m)
		}
		for _, m := range []string{"rate.downlink.n2", "rate.uplink.n2"} {
			require.InDelta(t, 0.5, res.Metrics[m], 1e-9, "seed %d: %s", seed, m)
		}
		require.Positive(t, res.Metrics["time.downlink.n2"], "seed %d", seed)
		times[res.Metrics["time.downlink.n2"]] = true
	}
	require.Greater(t, len(times), 1, "the seed moves the chunk times")
}

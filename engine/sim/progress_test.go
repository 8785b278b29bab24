package sim

import (
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestProgressCountsEvents: Config.Progress ends at the events of the
// runs that shared it, batched or not.
func TestProgressCountsEvents(t *testing.T) {
	t.Parallel()
	var n atomic.Int64
	tr := colocatedTrace(5, 1<<20, 0.01, 1.25e9)
	var sum int64
	for _, colocated := range []bool{true, false} {
		res, err := Run(tr, Config{Workers: 5, Steps: 300, Colocated: colocated, Progress: &n})
		require.NoError(t, err)
		sum += res.Events
	}
	require.Greater(t, sum, int64(progressEvery), "the runs must span a batch")
	require.Equal(t, sum, n.Load())
}

package measured

import (
	"testing"

	"github.com/stretchr/testify/require"

	"pslab/engine/dataset"
)

func TestProfileCycleSkipsWarmUpAndThroughputRuns(t *testing.T) {
	t.Parallel()
	st := dataset.NewTable(StepsSchema, dataset.Provenance{})
	for _, r := range []struct {
		run        string
		step       int
		start, end int64
	}{{"profile", 0, 0, 100e6}, {"profile", 1, 100e6, 250e6}, {"profile", 2, 250e6, 400e6}, {"throughput", 1, 0, 10e9}} {
		require.NoError(t, st.Append(r.run, r.step, r.start, r.end))
	}
	c, err := ProfileCycle(st)
	require.NoError(t, err)
	require.InDelta(t, 0.150, c, 1e-12)
	_, err = ProfileCycle(dataset.NewTable(StepsSchema, dataset.Provenance{}))
	require.ErrorContains(t, err, "no profiling steps")
}

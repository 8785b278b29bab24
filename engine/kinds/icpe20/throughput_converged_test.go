package icpe20

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestThroughputKindConverged: estimate = "converged" draws each simulator
// point as a converged estimate with its 95% interval as y_lo, y_hi, the
// half-width within its precision.
func TestThroughputKindConverged(t *testing.T) {
	t.Parallel()
	root := tputRoot(t)
	res, err := runTput(t, root, "", "estimate = \"converged\"\nprecision = 0.05\n"+toyCase)
	require.NoError(t, err)
	ys, lo, hi := res.Table.Floats("y"), res.Table.Floats("y_lo"), res.Table.Floats("y_hi")
	require.NotEmpty(t, ys)
	for i := range ys {
		require.Less(t, lo[i], ys[i])
		require.Greater(t, hi[i], ys[i])
		require.LessOrEqual(t, (hi[i]-lo[i])/(2*ys[i]), 0.05)
	}
	paper, err := runTput(t, root, "", toyCase)
	require.NoError(t, err)
	require.NotEqual(t, paper.Table.Floats("y"), ys, "the paper procedure is one run, the estimate a mean over replications")
}

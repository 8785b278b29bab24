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

// A case may set its own estimate: the converged case carries intervals,
// the paper-procedure case beside it none, and a case's unknown estimate
// is refused naming the case.
func TestThroughputKindPerCaseEstimate(t *testing.T) {
	t.Parallel()
	root := tputRoot(t)
	res, err := runTput(t, root, "", "precision = 0.05\n"+toyCase+"estimate = \"converged\"\n"+
		"[[params.case]]\nid = \"toy_paper\"\nmodel = \"toy\"\nbatch = 32\n")
	require.NoError(t, err)
	ys, lo, hi, series := res.Table.Floats("y"), res.Table.Floats("y_lo"), res.Table.Floats("y_hi"), res.Table.Strings("series")
	converged, paper := 0, 0
	for i := range ys {
		switch series[i] {
		case "toy: icpe20 simulator":
			require.Less(t, lo[i], ys[i])
			converged++
		case "toy_paper: icpe20 simulator":
			require.Equal(t, lo[i], hi[i], "a paper-procedure point has no interval")
			paper++
		}
	}
	require.Positive(t, converged)
	require.Positive(t, paper)
	_, err = runTput(t, root, "", toyCase+"estimate = \"best\"\n")
	require.ErrorContains(t, err, `case "toy": estimate "best"`)
}

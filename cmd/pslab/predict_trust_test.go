package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"pslab/engine/dataset"
	"pslab/engine/predict"
)

// TestPredictTrust: -trust reads accuracy tables; a default one that is
// absent is said in the output, a named one that is absent or malformed
// is an error naming the file, and none turns the bands off.
func TestPredictTrust(t *testing.T) {
	t.Parallel()
	dir, profile, _, _ := toyInputs(t)
	args := append([]string{profile, "-bandwidth", "1Gbps", "-models", "simulator,cynthia"}, fast...)

	// Run from a test's working directory: the default tables (under
	// figures/beyond of the repository root) are absent.
	text, err := runPredict(t, args...)
	require.NoError(t, err)
	require.Contains(t, text, "trust: no trust band (no accuracy tables: figures/beyond/testbed-accuracy.accuracy.arrow, figures/beyond/tf-benchmarks.accuracy.arrow not found")
	require.NotContains(t, text, "[trust:")

	tab := dataset.NewTable(predict.AccuracySchema, dataset.Provenance{Origin: dataset.Derived})
	require.NoError(t, tab.Append("e", "c", "simulator", "asp", 2, 1.0, 1.0, 1.0, 0.05, 1))
	acc := filepath.Join(dir, "acc.arrow")
	require.NoError(t, dataset.Write(acc, tab, dataset.Allocator))
	text, err = runPredict(t, append(args, "-trust", acc)...)
	require.NoError(t, err)
	require.Contains(t, text, "trust: each model's measured |error| on the in-budget points of ["+acc+"]")
	require.Contains(t, text, "[trust: no comparable measurement]")
	out, err := runPredict(t, append(args, "-trust", acc, "-format", "csv")...)
	require.NoError(t, err)
	require.True(t, strings.HasSuffix(strings.SplitN(out, "\n", 2)[0], ",trust_mean_abs_err_pct,trust_max_abs_err_pct,trust_points,above_link_bound"))

	text, err = runPredict(t, append(args, "-trust", "none")...)
	require.NoError(t, err)
	require.NotContains(t, text, "trust")

	_, err = runPredict(t, append(args, "-trust", filepath.Join(dir, "absent.arrow"))...)
	require.ErrorContains(t, err, "absent.arrow")
	bad := filepath.Join(dir, "bad.arrow")
	require.NoError(t, os.WriteFile(bad, []byte("not arrow"), 0o644))
	_, err = runPredict(t, append(args, "-trust", bad)...)
	require.ErrorContains(t, err, "predict: -trust: "+bad)
	_, err = runPredict(t, append(args, "-trust", profile)...)
	require.ErrorContains(t, err, "predict: -trust: "+profile)
}

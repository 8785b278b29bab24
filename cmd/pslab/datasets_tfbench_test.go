package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"pslab/engine/dataset"
	"pslab/engine/importer"
)

// TestDatasetsBuildsTFBenchmarks rebuilds the TensorFlow benchmark table
// from the shared raw data and ResNet-152 from the resnet101 profile into
// a scratch root: both are the committed bytes, the table carries its
// provenance and units, and without shared data ResNet-152 is still
// derived from the committed profile.
func TestDatasetsBuildsTFBenchmarks(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("-short: rebuilds datasets from the shared raw data")
	}
	if _, err := os.Stat(sharedData); err != nil {
		t.Skipf("shared data not available: %v", err)
	}
	dir := filepath.Join(t.TempDir(), "repo")
	require.NoError(t, os.CopyFS(filepath.Join(dir, "datasets", "reported"), os.DirFS(filepath.Join(root, "datasets", "reported"))))
	var out, errb bytes.Buffer
	require.NoError(t, Run(context.Background(), []string{"datasets", "-root", dir}, &out, &errb), errb.String())
	require.Contains(t, out.String(), "TensorFlow benchmark table skipped")
	require.Contains(t, errb.String(), "resnet152.arrow NOT derived")

	require.NoError(t, Run(context.Background(), []string{"datasets", "-root", dir, "-shared", filepath.Join(sharedData, "..")}, &out, &errb), errb.String())
	require.Contains(t, out.String(), "127 TensorFlow benchmark rows built")
	require.Contains(t, out.String(), "1 derived zoo profile built (resnet152)")
	tab, err := dataset.Read(filepath.Join(dir, "datasets", "tf-benchmarks", "single-node.arrow"), importer.TFBenchmarksSchema, dataset.Allocator)
	require.NoError(t, err)
	require.Equal(t, dataset.Reported, tab.Provenance.Origin)
	require.Contains(t, tab.Provenance.Licence, "CC BY 4.0")
	for _, f := range []string{"tf-benchmarks/single-node.arrow", "zoo/resnet152.arrow"} {
		got, err := os.ReadFile(filepath.Join(dir, "datasets", f))
		require.NoError(t, err)
		committed, err := os.ReadFile(filepath.Join(root, "datasets", f))
		require.NoError(t, err)
		require.True(t, bytes.Equal(got, committed), "datasets/%s differs from a rebuild: run pslab datasets", f)
	}
	require.NoError(t, os.Remove(filepath.Join(dir, "datasets", "zoo", "resnet152.arrow")))
	require.NoError(t, Run(context.Background(), []string{"datasets", "-root", dir}, &out, &errb), errb.String())
	_, err = os.Stat(filepath.Join(dir, "datasets", "zoo", "resnet152.arrow"))
	require.NoError(t, err, "derived without shared data")
}

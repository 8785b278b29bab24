package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestCPUProfileWritesAReadableProfile: check -cpuprofile leaves a pprof
// profile that is a gzipped profile of CPU time, and nothing when the flag's file cannot be written.
func TestCPUProfileWritesAReadableProfile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "cpu.pgo")
	exp := filepath.Join(root, "experiments", "icpe20", "fig23.toml")
	var out, errb bytes.Buffer
	require.NoError(t, Run(context.Background(), []string{"check", "-root", root, "-cpuprofile", path, exp}, &out, &errb), errb.String())
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	zr, err := gzip.NewReader(bytes.NewReader(b)) // a pprof profile is gzipped protobuf
	require.NoError(t, err)
	raw, err := io.ReadAll(zr)
	require.NoError(t, err)
	require.Contains(t, string(raw), "nanoseconds", "the sample unit of a CPU profile")

	blocker := filepath.Join(dir, "file")
	require.NoError(t, os.WriteFile(blocker, nil, 0o644))
	bad := filepath.Join(blocker, "cpu.pgo") // its directory is a file
	err = Run(context.Background(), []string{"check", "-root", root, "-cpuprofile", bad, exp}, &out, &errb)
	require.ErrorContains(t, err, "-cpuprofile")
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.Len(t, entries, 2, "the first profile and the blocking file, no temporary file")
}

package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestExportStdoutAndGzip: `-o -` writes to standard output (no file named
// "-"), and an output name ending in .gz is gzip-compressed; both hold the
// bytes a plain export writes.
func TestExportStdoutAndGzip(t *testing.T) {
	t.Parallel()
	in := filepath.Join(root, "datasets", "zoo", "alexnet.arrow")
	dir := t.TempDir()
	plain := filepath.Join(dir, "a.csv")
	var out, errb bytes.Buffer
	require.NoError(t, Run(context.Background(), []string{"export", "-format", "csv", in, "-o", plain}, &out, &errb))
	want, err := os.ReadFile(plain)
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(string(want), "model,layer,"))

	out.Reset()
	require.NoError(t, Run(context.Background(), []string{"export", "-format", "csv", in, "-o", "-"}, &out, &errb))
	require.Equal(t, string(want), out.String())
	_, err = os.Stat("-")
	require.ErrorIs(t, err, os.ErrNotExist, "no file named -")

	gz := filepath.Join(dir, "a.csv.gz")
	out.Reset()
	require.NoError(t, Run(context.Background(), []string{"export", "-format", "csv", in, "-o", gz}, &out, &errb))
	require.Contains(t, out.String(), "(csv, gzip)")
	f, err := os.Open(gz)
	require.NoError(t, err)
	defer f.Close()
	zr, err := gzip.NewReader(f)
	require.NoError(t, err)
	got, err := io.ReadAll(zr)
	require.NoError(t, err)
	require.Equal(t, string(want), string(got))
}

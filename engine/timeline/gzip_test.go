package timeline

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"pslab/engine/trace"
)

// gz returns s gzip-compressed.
func gz(t testing.TB, s string) []byte {
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	_, err := w.Write([]byte(s))
	require.NoError(t, err)
	require.NoError(t, w.Close())
	return b.Bytes()
}

// TestReadGzip: a gzipped timeline (.json.gz, as pslab predict -h
// advertises) reads as the same trace as the plain one; it used to be
// refused as "not a Chrome trace ... got '\x1f'".
func TestReadGzip(t *testing.T) {
	t.Parallel()
	plain, _, err := Read(strings.NewReader(stockTF), "step0.json", trace.Meta{Model: "dense", Batch: 32})
	require.NoError(t, err)
	path := filepath.Join(t.TempDir(), "step0.json.gz")
	require.NoError(t, os.WriteFile(path, gz(t, stockTF), 0o644))
	zipped, _, err := ReadFiles([]string{path}, trace.Meta{Model: "dense", Batch: 32})
	require.NoError(t, err)
	require.Equal(t, plain.Steps, zipped.Steps)

	_, _, err = Read(bytes.NewReader([]byte{0x1f, 0x8b, 1}), "bad.json.gz", trace.Meta{})
	require.ErrorContains(t, err, "bad.json.gz: gzip:")
}

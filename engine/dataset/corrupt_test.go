package dataset

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v17/arrow/memory"
	"github.com/stretchr/testify/require"
)

// TestDecodeCorruptFooter is the library panic fuzzing found: a footer
// length pointing into garbage made the Arrow file reader panic.
func TestDecodeCorruptFooter(t *testing.T) {
	t.Parallel()
	b := []byte("00000000000000000000000000\x10\x00\x00\x00ARROW1")
	_, err := Decode(b, nil, memory.NewGoAllocator())
	require.Error(t, err)
	path := filepath.Join(t.TempDir(), "bad.arrow")
	require.NoError(t, os.WriteFile(path, b, 0o644))
	_, err = Read(path, ResultSchema, memory.NewGoAllocator())
	require.ErrorContains(t, err, path)
}

// TestDecodeDeletedBytes deletes 4 bytes at every position of a real
// reported table (fuzzing found string offsets read without a check):
// every damaged file is an error or a valid table, never a panic.
func TestDecodeDeletedBytes(t *testing.T) {
	t.Parallel()
	path := filepath.Join("..", "..", "datasets", "reported", "cynthia", "table1.arrow")
	orig, err := os.ReadFile(path)
	require.NoError(t, err)
	mem := memory.NewGoAllocator()
	for i := 0; i+4 <= len(orig); i++ {
		b := append(append([]byte(nil), orig[:i]...), orig[i+4:]...)
		tab, err := Decode(b, nil, mem)
		if err == nil {
			require.NoError(t, tab.Validate(), "deleted bytes %d..%d", i, i+4)
		}
	}
}

// TestDecodeFlippedBytes sets each byte of a real trace sample to 0xff in
// turn: offsets, lengths and buffer sizes all get damaged somewhere.
func TestDecodeFlippedBytes(t *testing.T) {
	t.Parallel()
	orig, err := os.ReadFile(filepath.Join("..", "..", "datasets", "reported", "cynthia", "table1.arrow"))
	require.NoError(t, err)
	mem := memory.NewGoAllocator()
	for i := range orig {
		for _, v := range []byte{0xff, 0x7f, 0x00, 0x80} {
			b := append([]byte(nil), orig...)
			b[i] = v
			_, err := Decode(b, nil, mem)
			if err != nil && strings.Contains(err.Error(), "panic") && !strings.Contains(err.Error(), "corrupt") {
				t.Fatalf("byte %d = %#x: %v", i, v, err)
			}
		}
	}
}

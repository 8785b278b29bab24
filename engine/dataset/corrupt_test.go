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
// length pointing into garbage made the Arrow file reader panic (with the
// start marker, too, so the bytes get past checkMagic to the reader).
func TestDecodeCorruptFooter(t *testing.T) {
	t.Parallel()
	_, err := Decode([]byte("00000000000000000000000000\x10\x00\x00\x00ARROW1"), nil, memory.NewGoAllocator())
	require.ErrorContains(t, err, "start marker")
	b := []byte("ARROW1\x0000000000000000000000\x10\x00\x00\x00ARROW1")
	_, err = Decode(b, nil, memory.NewGoAllocator())
	require.ErrorContains(t, err, "corrupt Arrow IPC")
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

// TestDecodeFlippedBytes sets each byte of a real trace sample to 0xff,
// 0x7f, 0x00 and 0x80 in turn (0xff only under -short): offsets, lengths
// and buffer sizes all get damaged somewhere.
func TestDecodeFlippedBytes(t *testing.T) {
	t.Parallel()
	orig, err := os.ReadFile(filepath.Join("..", "..", "datasets", "reported", "cynthia", "table1.arrow"))
	require.NoError(t, err)
	mem := memory.NewGoAllocator()
	values := []byte{0xff, 0x7f, 0x00, 0x80}
	if testing.Short() {
		values = values[:1]
	}
	for i := range orig {
		for _, v := range values {
			b := append([]byte(nil), orig...)
			b[i] = v
			_, err := Decode(b, nil, mem)
			if err != nil && strings.Contains(err.Error(), "panic") && !strings.Contains(err.Error(), "corrupt") {
				t.Fatalf("byte %d = %#x: %v", i, v, err)
			}
		}
	}
}

// TestDecodeMessages is issue 28 item 8: a damaged Arrow file does not
// show the Go runtime error the Arrow library panicked with, and a file
// of another format is named for what it is, with the command that
// converts it. Decode and DecodeArrow say the same.
func TestDecodeMessages(t *testing.T) {
	t.Parallel()
	// datasets/reported/cynthia/table4.arrow as issue 28 damaged it (before
	// units were field metadata): the offsets below are into these bytes.
	orig, err := os.ReadFile(filepath.Join("testdata", "issue28-table4.arrow"))
	require.NoError(t, err)
	// 20 flipped bytes the footer check lets through: the reader panics.
	flipped := append([]byte(nil), orig...)
	for _, o := range []int{539, 942, 1278, 1565, 1572, 1871, 2217, 2362, 2372, 2392, 2700, 3310, 3317, 3458, 3595, 3922, 4011, 4207, 4342, 4351} {
		flipped[o] ^= 0xff
	}
	cases := []struct {
		name string
		b    []byte
		want string
	}{
		{"flipped", flipped, "corrupt Arrow IPC file: an offset or length"},
		{"truncated", orig[:len(orig)/2], "truncated Arrow IPC file: 2225 bytes"},
		{"empty", nil, "not an Arrow IPC file: the file is empty"},
		{"parquet", []byte("PAR1\x15\x04\x15\x10PAR1"), "it is a Parquet file"},
		{"csv", []byte("\xef\xbb\xbfworkers,throughput[images/s]\r\n1,250\r\n"), `it is a CSV file (header "workers,throughput[images/s]"); a CSV of measurements converts with ` + "`pslab import measured-csv"},
		{"json", []byte("\n  {\"traceEvents\": []}"), "it looks like JSON"},
		{"gzip", []byte("\x1f\x8b\x08\x00\x00\x00"), "`pslab import kineto IN.json.gz"},
		{"binary", []byte("\x00\x01\x02\x03\x04\x05\x06\x07\x08\x09"), `not an Arrow IPC file (it starts with "\x00\x01`},
	}
	mem := memory.NewGoAllocator()
	for _, c := range cases {
		_, err := Decode(c.b, nil, mem)
		require.ErrorContains(t, err, c.want, c.name)
		require.NotContains(t, err.Error(), "runtime error", c.name)
		_, err = DecodeArrow(c.b, mem)
		require.ErrorContains(t, err, c.want, c.name)
	}
}

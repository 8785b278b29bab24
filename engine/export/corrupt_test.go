package export

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v17/arrow/memory"
	"github.com/stretchr/testify/require"

	"pslab/engine/dataset"
)

// corruptSource is the file issue 28 damaged to make pslab export panic,
// datasets/reported/cynthia/table4.arrow as it was then (before units were
// field metadata): the offsets of the cases are into these bytes.
const corruptSource = "testdata/issue28-table4.arrow"

// flip returns b with the bytes at offs inverted.
func flip(b []byte, offs ...int) []byte {
	b = bytes.Clone(b)
	for _, o := range offs {
		b[o] ^= 0xff
	}
	return b
}

// span returns the n offsets from start.
func span(start, n int) []int {
	offs := make([]int, n)
	for i := range offs {
		offs[i] = start + i
	}
	return offs
}

// TestConvertCorruptArrow is issue 28 item 4 and the messages of item 8:
// damaged Arrow files (20 flipped bytes at fixed offsets, a flipped
// footer, truncations) and Parquet or CSV given where Arrow is expected
// make export return an error naming the file, never panic, and never
// show a Go runtime error; Parquet and CSV are named as what they are,
// with the command that converts them.
func TestConvertCorruptArrow(t *testing.T) {
	t.Parallel()
	orig, err := os.ReadFile(corruptSource)
	require.NoError(t, err)
	n := len(orig)
	mem := memory.NewGoAllocator()
	// The file predates content digests, so it is refused as it is (and
	// every damaged copy with it, before or inside the Arrow reader); with
	// its digest added it reads.
	_, err = ReadArrow(orig, mem)
	require.ErrorContains(t, err, "-add-digest")
	fixed, err := dataset.AddDigest(orig, mem)
	require.NoError(t, err)
	tab, err := ReadArrow(fixed, mem)
	require.NoError(t, err)
	var pq, csv bytes.Buffer
	require.NoError(t, Parquet(&pq, tab, mem))
	require.NoError(t, CSV(&csv, tab))
	tab.Release()

	cases := []struct {
		name string
		b    []byte
		want []string // substrings of the error besides the file name
		// mayDecode: damage no reader can see (the file has no checksum):
		// an error or a valid table, never a panic.
		mayDecode bool
	}{
		// math/rand seeds 0 and 9 of the fuzzing that found the panic.
		{"flip20-a", flip(orig, 28, 398, 461, 617, 1252, 1256, 1424, 1764, 2015, 2076, 2109, 2577, 2597, 2750, 2846, 3088, 3403, 3718, 3900, 3944), nil, false},
		{"flip20-b", flip(orig, 539, 942, 1278, 1565, 1572, 1871, 2217, 2362, 2372, 2392, 2700, 3310, 3317, 3458, 3595, 3922, 4011, 4207, 4342, 4351), nil, false},
		{"flip20-footer", flip(orig, span(n-40, 20)...), nil, false},
		// Inside the schema message at the head, which the file reader
		// does not read (it takes the footer's copy).
		{"flip20-body", flip(orig, span(n/3, 20)...), nil, true},
		{"flip20-head", flip(orig, span(0, 20)...), nil, false},
		{"flip-footer-length", flip(orig, n-10, n-9), nil, false},
		{"flip20-batch", flip(orig, span(1840, 20)...), nil, true},
		{"empty", nil, []string{"empty"}, false},
		{"trunc5", orig[:5], nil, false},
		{"trunc6", orig[:6], nil, false},
		{"trunc100", orig[:100], []string{"truncated"}, false},
		{"trunc-half", orig[:n/2], []string{"truncated"}, false},
		{"trunc-footer", orig[:n-40], []string{"truncated"}, false},
		{"trunc-last-byte", orig[:n-1], []string{"truncated"}, false},
		{"parquet", pq.Bytes(), []string{"Parquet", "pyarrow"}, false},
		{"csv", csv.Bytes(), []string{"CSV", "pslab import measured-csv"}, false},
		{"csv-measured", []byte("workers,throughput[images/s]\n1,250\n2,480\n"), []string{"CSV", "pslab import measured-csv"}, false},
	}
	dir := t.TempDir()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			path := filepath.Join(dir, c.name+".arrow")
			require.NoError(t, os.WriteFile(path, c.b, 0o644))
			for _, format := range Formats {
				err := noPanic(func() error {
					_, err := Convert(format, path, memory.NewGoAllocator())
					return err
				})
				if c.mayDecode && err == nil {
					continue
				}
				require.Error(t, err, format)
				msg := err.Error()
				require.NotContains(t, msg, "panic", format)
				require.Contains(t, msg, path, format)
				require.NotContains(t, msg, "runtime error", format)
				for _, w := range c.want {
					require.Contains(t, msg, w, format)
				}
			}
			require.NoError(t, noPanic(func() error {
				if tab, err := ReadArrow(c.b, memory.NewGoAllocator()); err == nil {
					tab.Release()
				}
				return nil
			}))
		})
	}
}

// noPanic runs f, turning a panic into an error that says so.
func noPanic(f func() error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic: %v", p)
		}
	}()
	return f()
}

// TestConvertCorruptArrowNoOutput: a refused conversion writes nothing.
func TestConvertCorruptArrowNoOutput(t *testing.T) {
	t.Parallel()
	orig, err := os.ReadFile(corruptSource)
	require.NoError(t, err)
	dir := t.TempDir()
	in, out := filepath.Join(dir, "bad.arrow"), filepath.Join(dir, "bad.csv")
	require.NoError(t, os.WriteFile(in, flip(orig, span(len(orig)-40, 20)...), 0o644))
	err = noPanic(func() error { return File("csv", in, out, memory.NewGoAllocator()) })
	require.Error(t, err)
	require.True(t, strings.HasPrefix(err.Error(), in+": "), "%v", err)
	_, err = os.Stat(out)
	require.True(t, os.IsNotExist(err), "no output: %v", err)
}

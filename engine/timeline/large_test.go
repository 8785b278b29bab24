package timeline

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"pslab/engine/trace"
)

// chunkReader returns at most n bytes per Read, as a gzip reader (one
// 32 KiB window at a time) or a pipe does.
type chunkReader struct {
	r io.Reader
	n int
}

func (c *chunkReader) Read(p []byte) (int, error) { return c.r.Read(p[:min(len(p), c.n)]) }

// stringValue is a JSON string of size bytes, quotes included.
func stringValue(size int) []byte {
	b := bytes.Repeat([]byte("a"), size)
	b[0], b[size-1] = '"', '"'
	return b
}

// BenchmarkScanLargeValue reads one JSON string of 1, 4, 16 and 64 MiB
// through EventReader.value from a source returning 32 KiB per Read (as
// gzip does). ns/byte and cpu-ns/byte must not grow with the size.
func BenchmarkScanLargeValue(b *testing.B) {
	for _, mib := range []int{1, 4, 16, 64} {
		data := stringValue(mib << 20)
		b.Run(fmt.Sprintf("%dMiB", mib), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			cpu := cpuSeconds()
			for b.Loop() {
				r := NewEventReader(&chunkReader{bytes.NewReader(data), 32 << 10}, "big.json")
				v, _, err := r.value()
				if err != nil || len(v) != len(data) {
					b.Fatalf("read %d bytes of %d: %v", len(v), len(data), err)
				}
			}
			perByte := float64(b.N) * float64(len(data))
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/perByte, "ns/byte")
			if used := cpuSeconds() - cpu; used > 0 {
				b.ReportMetric(used*1e9/perByte, "cpu-ns/byte")
			}
		})
	}
}

// bigNameTrace is a gzipped bare-array trace of one event whose name is a
// string of size bytes.
func bigNameTrace(t testing.TB, size int) (gzipped []byte, plainLen int) {
	var plain bytes.Buffer
	plain.WriteString(`[{"ph":"X","name":`)
	plain.Write(stringValue(size))
	plain.WriteString(`,"ts":1,"dur":2}]`)
	var z bytes.Buffer
	w := gzip.NewWriter(&z)
	_, err := w.Write(plain.Bytes())
	require.NoError(t, err)
	require.NoError(t, w.Close())
	return z.Bytes(), plain.Len()
}

// TestLargeValueLinearWork: an event with a 32 MiB name, gzipped (so read
// 32 KiB at a time), is read with the scanner examining at most 3 bytes
// per input byte. The scanner used to rescan the event from its start
// after every read: about 16 GiB examined, 13 CPU-s (issue 28). Under
// -short the name is 4 MiB: rescanning would still examine about 256 MiB,
// 20 times the bound.
func TestLargeValueLinearWork(t *testing.T) {
	t.Parallel()
	size := 32 << 20
	if testing.Short() {
		size = 4 << 20
	}
	z, n := bigNameTrace(t, size)
	zr, err := gzip.NewReader(bytes.NewReader(z))
	require.NoError(t, err)
	r := NewEventReader(zr, "big.json.gz")
	e, err := r.Next()
	require.NoError(t, err)
	require.Len(t, e.Name, size-2)
	_, err = r.Next()
	require.ErrorIs(t, err, io.EOF)
	t.Logf("scanner examined %d bytes for %d of input", r.scanned, n)
	require.LessOrEqual(t, r.scanned, 3*int64(n), "scanner examined %d bytes (%.1f per input byte)",
		r.scanned, float64(r.scanned)/float64(n))
}

// bomb is a gzip stream, made of copies of one member, that inflates to
// head followed by n MiB of pad bytes: about 1 KiB per MiB.
func bomb(t testing.TB, head string, pad byte, n int) []byte {
	member := func(b []byte) []byte {
		var z bytes.Buffer
		w, err := gzip.NewWriterLevel(&z, gzip.BestCompression)
		require.NoError(t, err)
		_, err = w.Write(b)
		require.NoError(t, err)
		require.NoError(t, w.Close())
		return z.Bytes()
	}
	out := member([]byte(head))
	mib := member(bytes.Repeat([]byte{pad}, 1<<20))
	for range n {
		out = append(out, mib...)
	}
	return out
}

// TestValueCap: a 2 MB .json.gz holding a 2 GiB event name (issue 28) is
// refused once the event passes MaxValueBytes, naming the cap, the event
// and its offset; a value of exactly the cap is read, one byte more is
// refused. Under -short only the lowered cap is checked (the real one
// inflates 64 MiB).
func TestValueCap(t *testing.T) {
	t.Parallel()
	var le *LimitError
	if !testing.Short() {
		z := bomb(t, `[{"ph":"X","name":"`, 'a', 2048)
		require.Less(t, len(z), 3<<20)
		_, _, err := Read(bytes.NewReader(z), "name.json.gz", trace.Meta{})
		require.ErrorAs(t, err, &le)
		require.Equal(t, LimitError{Cap: "MaxValueBytes", Limit: MaxValueBytes, Offset: 1}, *le)
		require.EqualError(t, err, "name.json.gz: event 0: JSON value at byte 1 is longer than the 64 MiB cap (timeline.MaxValueBytes)")
	}

	for _, size := range []int{100, 101} {
		for _, val := range [][]byte{stringValue(size), bytes.Repeat([]byte("1"), size)} {
			in := append(append([]byte(`{"traceEvents":[], "k": `), val...), '}')
			r := NewEventReader(&chunkReader{bytes.NewReader(in), 7}, "cap.json")
			r.maxValue = 100
			_, err := r.Next()
			if size == 100 {
				require.ErrorIs(t, err, io.EOF)
				require.Equal(t, string(val), string(r.Top("k")))
				continue
			}
			require.ErrorAs(t, err, &le)
			require.EqualError(t, err, `top-level key "k": cap.json: JSON value at byte 24 is longer than the 100 bytes cap (timeline.MaxValueBytes)`)
		}
	}
}

// TestStreamCap: input of exactly the stream cap is read; one byte more,
// even white space, is refused with the cap and the offset. Lowered caps
// keep it fast; TestGzipBomb checks the real one.
func TestStreamCap(t *testing.T) {
	t.Parallel()
	for _, in := range []string{`{"traceEvents":[{"ph":"X"}]}`, `[{"ph":"X"}]`, `[{"ph":"X"}`} {
		for _, pad := range []int{0, 1} {
			r := NewEventReader(&chunkReader{strings.NewReader(in + strings.Repeat(" ", pad)), 5}, "s.json")
			r.maxStream = int64(len(in))
			_, err := r.Next()
			require.NoError(t, err)
			_, err = r.Next()
			if pad == 0 {
				require.ErrorIs(t, err, io.EOF, in)
				continue
			}
			var le *LimitError
			require.ErrorAs(t, err, &le, in)
			require.Equal(t, LimitError{Cap: "MaxStreamBytes", Limit: int64(len(in)), Offset: int64(len(in))}, *le)
			require.ErrorContains(t, err, fmt.Sprintf("input reaches the %d bytes cap (timeline.MaxStreamBytes) at byte %d", len(in), len(in)))
		}
	}
}

// TestGzipBomb: a 4 MB .json.gz inflating to more than MaxStreamBytes (4
// GiB of white space in the event array) is refused with the cap named,
// by Read and by EventReader. It inflates 4 GiB (seconds of CPU).
func TestGzipBomb(t *testing.T) {
	if testing.Short() {
		t.Skip("inflates 4 GiB")
	}
	t.Parallel()
	head := `{"traceEvents":[{"ph":"M"},`
	z := bomb(t, head, ' ', int(MaxStreamBytes>>20))
	require.Less(t, len(z), 5<<20)
	_, _, err := Read(bytes.NewReader(z), "bomb.json.gz", trace.Meta{})
	var le *LimitError
	require.ErrorAs(t, err, &le)
	require.Equal(t, LimitError{Cap: "MaxStreamBytes", Limit: MaxStreamBytes, Offset: MaxStreamBytes}, *le)
	require.EqualError(t, err, "bomb.json.gz: event 1: input reaches the 4 GiB cap (timeline.MaxStreamBytes) at byte 4294967296 (after decompression)")
}

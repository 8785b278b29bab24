package timeline

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"

	"pslab/engine/trace"
	"pslab/engine/zoo"
)

// chainStep is one synthesized step of a chain of n layers on 2 PS: n
// downlinks, 2n worker ops, n uplinks and n updates, about 1 KB of JSON
// per layer.
func chainStep(tb testing.TB, n int) (trace.Meta, trace.Step) {
	tb.Helper()
	p := &zoo.Profile{Model: fmt.Sprintf("chain%d", n), Source: "bench", Batch: 32}
	for i := 0; i < n; i++ {
		l := zoo.Layer{Name: fmt.Sprintf("block%03d/conv", i), Description: "Conv2d", Forward: 1e-3 + float64(i)*1e-6,
			Backward: 2e-3, ActivationBytes: 1 << 20, ParamBytes: int64(1000 + i*37)}
		if i > 0 {
			l.Inputs = []int{i - 1}
		}
		p.Layers = append(p.Layers, l)
	}
	tr, err := zoo.Synthesize(p, zoo.Options{Steps: 1, Servers: 2, Bandwidth: 1.25e9, Window: 28e6, Alpha: 1e-9, Beta: 5e-5})
	require.NoError(tb, err)
	return tr.Meta, tr.Steps[0]
}

// generate streams a timeline of at least size bytes, made of copies of
// one step, through a pipe: the JSON is produced while it is read and
// never stored.
func generate(tb testing.TB, size int64, layers int) io.ReadCloser {
	meta, step := chainStep(tb, layers)
	pr, pw := io.Pipe()
	go func() {
		cw := &countWriter{w: pw}
		wr, err := NewWriter(cw, meta)
		for err == nil && cw.n < size {
			err = wr.WriteStep(&step)
		}
		if err == nil {
			err = wr.Close()
		}
		pw.CloseWithError(err)
	}()
	return pr
}

type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// drain reads every step, sampling the live heap every 20 steps; it
// returns the steps read and the peak HeapAlloc in bytes.
func drain(tb testing.TB, r io.Reader) (steps int, peak uint64) {
	sr := NewStepReader(r, "generated.json")
	var ms runtime.MemStats
	for {
		_, err := sr.Next()
		if errors.Is(err, io.EOF) {
			return steps, peak
		}
		if err != nil {
			tb.Fatal(err)
		}
		steps++
		if steps%20 == 0 {
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapAlloc)
		}
	}
}

// TestStreamingHeapIsBounded reads 4 MB and then 24 MB streamed from a
// generator: the peak live heap must not grow with the input (slack 8 MB
// for GC timing; a reader that kept the file or the steps would hold
// more than 24 MB).
func TestStreamingHeapIsBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("reads 28 MB")
	}
	runtime.GC()
	small, peakSmall := drain(t, generate(t, 4<<20, 100))
	runtime.GC()
	large, peakLarge := drain(t, generate(t, 24<<20, 100))
	require.Greater(t, large, 5*small)
	require.Less(t, peakLarge, peakSmall+8<<20, "peak heap %d MB after 24 MB vs %d MB after 4 MB", peakLarge>>20, peakSmall>>20)
}

// BenchmarkStepReader parses a 64 MB in-memory timeline (400-layer chain
// steps, 2 PS) step by step, discarding steps.
func BenchmarkStepReader(b *testing.B) {
	data := readAll(b, generate(b, 64<<20, 400))
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	cpu := cpuSeconds()
	for b.Loop() {
		drain(b, bytes.NewReader(data))
	}
	reportCPU(b, len(data), cpu)
}

// reportCPU reports MB per CPU second of the loop.
func reportCPU(b *testing.B, size int, since float64) {
	if used := cpuSeconds() - since; used > 0 {
		b.ReportMetric(float64(size)*float64(b.N)/1e6/used, "MB/cpu-s")
	}
}

// BenchmarkRead imports the same 64 MB timeline into a validated trace
// (all steps kept).
func BenchmarkRead(b *testing.B) {
	data := readAll(b, generate(b, 64<<20, 400))
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	cpu := cpuSeconds()
	for b.Loop() {
		if _, _, err := Read(bytes.NewReader(data), "bench.json", trace.Meta{}); err != nil {
			b.Fatal(err)
		}
	}
	reportCPU(b, len(data), cpu)
}

// BenchmarkStepReaderBoundedHeap streams a 500 MB timeline from the
// generator through StepReader and reports the peak live heap
// (runtime.MemStats.HeapAlloc sampled every 20 steps).
func BenchmarkStepReaderBoundedHeap(b *testing.B) {
	for b.Loop() {
		runtime.GC()
		steps, peak := drain(b, generate(b, 500<<20, 400))
		b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MiB")
		b.ReportMetric(float64(steps), "steps")
	}
	b.SetBytes(500 << 20)
}

func readAll(tb testing.TB, r io.ReadCloser) []byte {
	data, err := io.ReadAll(r)
	require.NoError(tb, err)
	return data
}

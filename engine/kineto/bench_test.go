package kineto

import (
	"bytes"
	"os"
	"testing"
)

// BenchmarkReadRealTrace derives the profile of the rank-0 sample trace
// (124 KB gzip, 1.76 MB JSON, 4,855 events) from memory.
func BenchmarkReadRealTrace(b *testing.B) {
	data, err := os.ReadFile("../../../shared/datasets/traces/kineto-hta-sampled_rank-0.json.gz")
	if err != nil {
		b.Skipf("trace not available: %v", err)
	}
	b.SetBytes(1759570) // uncompressed JSON bytes
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := Read(bytes.NewReader(data), "rank0.json.gz", Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

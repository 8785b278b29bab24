package analysis

import (
	"testing"
)

// BenchmarkThroughput7x100 computes one 7-worker run's throughput.
func BenchmarkThroughput7x100(b *testing.B) {
	ws := make([]StepTimes, 7)
	for w := range ws {
		for s := range 100 {
			ws[w].Start = append(ws[w].Start, int64(s*1000+w))
			ws[w].End = append(ws[w].End, int64((s+1)*1000+w))
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Throughput(ws, 32, 50); err != nil {
			b.Fatal(err)
		}
	}
}

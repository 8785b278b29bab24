package zoo

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkSynthesizeInception: 100 steps of Inception-v3 (326 layers, 194
// with parameters), 1 PS, WIN = 28 MB, 10 Gb/s, jitter on.
func BenchmarkSynthesizeInception(b *testing.B) {
	p := loadProfile(b, "inception_v3")
	o := Options{Steps: 100, Bandwidth: 1.25e9, Window: 28e6, Alpha: 1e-10, Beta: 5e-5, Jitter: 0.05, Seed: 1}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Synthesize(p, o); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkParseInception parses the 687-line Inception-v3 profile.
func BenchmarkParseInception(b *testing.B) {
	loadProfile(b, "inception_v3") // skip when absent
	data, err := os.ReadFile(filepath.Join(profileDir, "inception_v3.graph.txt"))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(bytes.NewReader(data), "inception_v3.graph.txt"); err != nil {
			b.Fatal(err)
		}
	}
}

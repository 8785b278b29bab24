package syncps

import "testing"

// benchConfig is 3 workers, 1 PS, 1 Gbps, a 50-layer ResNet-50-like profile.
func benchConfig(iterations int) Config {
	c := DefaultConfig()
	c.Workers, c.Servers, c.Bandwidth, c.Iterations = 3, 1, 1.25e8, iterations
	c.Layers = resNet50Like()[:50]
	return c
}

func BenchmarkPredict50Layers(b *testing.B) {
	for _, m := range []struct {
		name string
		iter int
	}{{"M=1", 1}, {"M=100", 100}, {"M=5000", 5000}} {
		b.Run(m.name, func(b *testing.B) {
			c := benchConfig(m.iter)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Predict(c); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkExpectedMaxNormal(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ExpectedMaxNormal(16, 0, 1); err != nil {
			b.Fatal(err)
		}
	}
}

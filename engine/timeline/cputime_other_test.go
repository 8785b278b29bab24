//go:build !unix

package timeline

// cpuSeconds is unavailable: benchmarks report wall-time throughput only.
func cpuSeconds() float64 { return 0 }

//go:build !unix

package sim

// cpuSeconds is 0 where getrusage is missing: benchmarks then report no
// events/cpu-s.
func cpuSeconds() float64 { return 0 }

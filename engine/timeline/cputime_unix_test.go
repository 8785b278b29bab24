//go:build unix

package timeline

import "syscall"

// cpuSeconds is the CPU time (user + system, all threads) the process has
// used, in seconds: benchmarks report throughput per CPU second, which a
// busy shared machine does not distort the way wall time is.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}

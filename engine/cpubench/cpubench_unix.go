//go:build unix

package cpubench

import (
	"syscall"
	"testing"
	"time"
)

// Report runs f and reports the process CPU time (user + system, GC
// threads included) per op as "cpu-ns/op". On a shared machine wall time
// per op mostly measures the other tenants; CPU time measures this code.
func Report(b *testing.B, f func()) {
	d := Time(f)
	b.ReportMetric(float64(d.Nanoseconds())/float64(b.N), "cpu-ns/op")
}

// Time runs f and returns the process CPU time it took (user + system).
func Time(f func()) time.Duration {
	var r0, r1 syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &r0)
	f()
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &r1)
	return time.Duration(r1.Utime.Nano()-r0.Utime.Nano()) + time.Duration(r1.Stime.Nano()-r0.Stime.Nano())
}

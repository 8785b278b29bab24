//go:build !unix

package cpubench

import (
	"testing"
	"time"
)

// Report runs f; CPU time is only reported on unix.
func Report(_ *testing.B, f func()) { f() }

// Time runs f and returns its wall time: CPU time is only measured on
// unix.
func Time(f func()) time.Duration {
	t0 := time.Now()
	f()
	return time.Since(t0)
}

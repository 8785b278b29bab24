//go:build !unix

package sched

import "testing"

// reportCPU runs f; CPU time is only reported on unix.
func reportCPU(_ *testing.B, f func()) { f() }

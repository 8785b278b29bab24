//go:build !unix

package mva

import "testing"

// reportCPU runs f; CPU time is only reported on unix.
func reportCPU(_ *testing.B, f func()) { f() }

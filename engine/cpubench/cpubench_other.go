//go:build !unix

package cpubench

import "testing"

// Report runs f; CPU time is only reported on unix.
func Report(_ *testing.B, f func()) { f() }

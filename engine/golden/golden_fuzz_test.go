package golden

import (
	"math"
	"strings"
	"testing"
)

// FuzzParse: no golden text panics; an error names the file; an accepted
// file has checks with a valid op, tolerance kind, finite expected value
// and non-negative tolerance, and Holds never panics. Seeds:
// testdata/fuzz/FuzzParse (real golden files).
func FuzzParse(f *testing.F) {
	f.Add([]byte("[[check]]\nmetric = \"m\"\nexpected = 1\ntol = 0.1\nsource = \"regression\"\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 16<<10 {
			return // bounded work per input
		}
		const path = "golden/beyond/toy.toml"
		g, err := Parse(path, data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), path) {
				t.Fatalf("error does not name the file: %v", err)
			}
			return
		}
		if len(g.Checks) == 0 {
			t.Fatal("accepted a file without checks")
		}
		for _, c := range g.Checks {
			if !oneOf(c.Op, "approx", "le", "ge", "lt", "gt") || !oneOf(c.TolKind, "abs", "rel") ||
				!(c.Tol >= 0) || math.IsInf(c.Expected, 0) || math.IsNaN(c.Expected) {
				t.Fatalf("accepted check %+v", c)
			}
			_ = c.Holds(c.Expected)
		}
	})
}

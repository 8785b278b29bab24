package zoo

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestParseOverlappingSeparators is the crash fuzzing found: in "0 -- -- "
// the two " -- " separators share a space, and slicing the description
// between them panicked (slice bounds [5:4]).
func TestParseOverlappingSeparators(t *testing.T) {
	t.Parallel()
	for _, g := range []string{"0 -- -- ", "0 -- -- forward_compute_time=1", "a -- --"} {
		_, err := Parse(strings.NewReader(g), "bad.graph.txt")
		require.ErrorContains(t, err, "bad.graph.txt:1: malformed node line", "input %q", g)
	}
}

// FuzzParse: no input panics, and an accepted graph is a valid profile
// with at least one layer. Seeds: testdata/fuzz/FuzzParse (the PipeDream
// AlexNet and VGG-16 graphs and the crash above).
func FuzzParse(f *testing.F) {
	f.Add([]byte(tiny))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 64<<10 {
			return // bounded work per input
		}
		p, err := Parse(bytes.NewReader(data), "fuzz.graph.txt")
		if err != nil {
			return
		}
		if len(p.Layers) == 0 || p.Batch <= 0 {
			t.Fatalf("accepted a graph with %d layers and batch %d", len(p.Layers), p.Batch)
		}
		if err := p.Validate(); err != nil {
			t.Fatalf("accepted an invalid profile: %v", err)
		}
	})
}

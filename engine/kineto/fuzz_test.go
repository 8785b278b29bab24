package kineto

import (
	"bytes"
	"testing"
)

// FuzzRead: no input panics; an accepted trace gives a valid profile.
// Seeds: testdata/fuzz/FuzzRead (hand traces and the first events of
// step 551 of the HTA sample trace, plain and gzipped).
func FuzzRead(f *testing.F) {
	f.Add([]byte(handTrace()))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 32<<10 {
			return // bounded work per input
		}
		p, _, err := Read(bytes.NewReader(data), "fuzz.json", Options{})
		if err != nil {
			return
		}
		if err := p.Validate(); err != nil {
			t.Fatalf("accepted an invalid profile: %v", err)
		}
		if p.Batch <= 0 || len(p.Layers) == 0 {
			t.Fatalf("accepted a profile with batch %d and %d layers", p.Batch, len(p.Layers))
		}
	})
}

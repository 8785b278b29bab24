package experiment

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzParseRunFile: no bytes make ParseRunFile panic, every refusal names
// the file, and a run file it accepts has an id and a run time that is
// finite and ≥ 0, and reads back the same after it is written again
// (metrics ±Inf and NaN included). Seeds: a committed run file and one
// with non-finite metrics.
func FuzzParseRunFile(f *testing.F) {
	b, err := os.ReadFile(filepath.Join("..", "..", "figures", "icpe20", "fig14.run.json"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(b)
	f.Add([]byte(`{"id": "beyond-toy", "elapsed_s": 1.2, "metrics": {"a": "+Inf", "b": 1.5, "c": "NaN"}}`))
	const path = "figures/beyond/toy.run.json"
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := ParseRunFile(path, b)
		if err != nil {
			if !strings.HasPrefix(err.Error(), path+": ") {
				t.Fatalf("error does not name the file: %v", err)
			}
			return
		}
		if r.ID == "" || !(r.ElapsedS >= 0) || math.IsInf(r.ElapsedS, 0) {
			t.Fatalf("accepted %+v", r)
		}
		out, err := json.Marshal(r)
		if err != nil {
			t.Fatalf("cannot write an accepted run file: %v", err)
		}
		again, err := ParseRunFile(path, out)
		if err != nil {
			t.Fatalf("cannot read back %s: %v", out, err)
		}
		if out2, _ := json.Marshal(again); !bytes.Equal(out, out2) {
			t.Fatalf("read back %s as %s", out, out2)
		}
	})
}

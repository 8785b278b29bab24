package experiment

import (
	"path"
	"strings"
	"testing"
)

// FuzzParse: no spec text panics; an error is one line naming the file;
// an accepted spec has an id and a known paper, and when CheckInputs
// accepts it, only inputs that stay inside the repository. Seeds: testdata/fuzz/FuzzParse (real experiment
// files) and the unit tests' spec.
func FuzzParse(f *testing.F) {
	f.Add([]byte(goodSpec))
	root := f.TempDir() // an empty repository: no input exists, none is a link
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 16<<10 {
			return // bounded work per input
		}
		const file = "experiments/beyond/toy.toml"
		s, err := Parse(file, data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), file) {
				t.Fatalf("error does not name the file: %v", err)
			}
			return
		}
		if s.ID != "beyond-toy" || s.Paper != "beyond" {
			t.Fatalf("accepted id %q paper %q", s.ID, s.Paper)
		}
		if s.CheckInputs(root) != nil {
			return
		}
		for name, p := range s.Inputs {
			if c := path.Clean(p); path.IsAbs(p) || c == ".." || strings.HasPrefix(c, "../") {
				t.Fatalf("accepted input %s = %q outside the repository", name, p)
			}
		}
		_ = s.Sweep.Points()
	})
}

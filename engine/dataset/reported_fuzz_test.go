package dataset

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzParseReported: no source makes ParseReported (a paper's table, added
// by hand under datasets/reported/) panic, every error names the file,
// and an accepted source is a valid table with the declared columns plus
// section and quote. Seeds: every committed reported table.
func FuzzParseReported(f *testing.F) {
	seeds, err := filepath.Glob(filepath.Join("..", "..", "datasets", "reported", "*", "*.toml"))
	if err != nil || len(seeds) == 0 {
		f.Fatalf("no reported tables to seed from (%v)", err)
	}
	for _, p := range seeds {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	const path = "datasets/reported/icpe20/fuzz.toml"
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) > 64<<10 {
			return // bounded work per input
		}
		tab, err := ParseReported(path, b)
		if err != nil {
			if !strings.Contains(err.Error(), path) {
				t.Fatalf("error does not name the file: %v", err)
			}
			return
		}
		if err := tab.Validate(); err != nil {
			t.Fatalf("accepted an invalid table: %v", err)
		}
		n := len(tab.Schema.Columns)
		if n < 2 || tab.Schema.Columns[n-2].Name != "section" || tab.Schema.Columns[n-1].Name != "quote" {
			t.Fatalf("columns %v: want the declared ones, then section and quote", tab.Schema.Columns)
		}
	})
}

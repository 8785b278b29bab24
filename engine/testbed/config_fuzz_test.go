package testbed

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzLoadConfigs: no configuration file panics; an error names the file;
// every accepted configuration validates. Seeds:
// testdata/fuzz/FuzzLoadConfigs (datasets/testbed/configs.toml).
func FuzzLoadConfigs(f *testing.F) {
	f.Add([]byte("[[config]]\nname = \"a\"\nmodel = \"alexnet\"\nbatch = 8\nbandwidth_mbit = 100\nworkers = [1]\n"))
	path := filepath.Join(f.TempDir(), "configs.toml")
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 16<<10 {
			return // bounded work per input
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		cfgs, err := LoadConfigs(path)
		if err != nil {
			if !strings.Contains(err.Error(), path) {
				t.Fatalf("error does not name the file: %v", err)
			}
			return
		}
		for i := range cfgs {
			if err := cfgs[i].Validate(); err != nil {
				t.Fatalf("accepted config %d that does not validate: %v", i, err)
			}
		}
	})
}

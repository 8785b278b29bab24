package testbed

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pslab/engine/confine"
	"pslab/engine/testbed/config"
)

// FuzzLoadConfigs: no configuration file panics; an error names the file;
// every accepted configuration validates and its profile_dir stays inside
// the root. Seeds:
// testdata/fuzz/FuzzLoadConfigs (datasets/testbed/configs.toml).
func FuzzLoadConfigs(f *testing.F) {
	f.Add([]byte("[[config]]\nname = \"a\"\nmodel = \"alexnet\"\nbatch = 8\nbandwidth_mbit = 100\nworkers = [1]\n"))
	root := f.TempDir()
	realRoot, err := confine.RealPath(root)
	if err != nil {
		f.Fatal(err)
	}
	path := filepath.Join(root, "configs.toml")
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 16<<10 {
			return // bounded work per input
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		cfgs, err := config.LoadConfigs(path, root)
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
			dir := cfgs[i].ProfileDir
			if !filepath.IsAbs(dir) {
				dir = filepath.Join(root, dir)
			}
			if p, err := confine.RealPath(dir); err != nil || !confine.Within(realRoot, p) {
				t.Fatalf("accepted config %d whose profile_dir %q leaves the root (%q, %v)", i, cfgs[i].ProfileDir, p, err)
			}
		}
	})
}

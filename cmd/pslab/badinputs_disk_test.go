package main

// "Nothing left on disk": snapshots of the directories a case could write
// to, before and after it.

import (
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// badSnapshots records every entry under the directories: "dir" for a
// directory, else its type, size and modification time.
func badSnapshots(t *testing.T, dirs []string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, dir := range dirs {
		err := filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
			if err != nil {
				if os.IsNotExist(err) && p == dir {
					return nil
				}
				return err
			}
			if e.IsDir() {
				if p != dir && e.Name() == ".git" {
					return fs.SkipDir
				}
				out[p] = "dir"
				return nil
			}
			info, err := e.Info()
			if err != nil {
				return err
			}
			out[p] = fmt.Sprintf("%v %d %d", info.Mode().Type(), info.Size(), info.ModTime().UnixNano())
			return nil
		})
		if err != nil {
			t.Fatalf("snapshot %s: %v", dir, err)
		}
	}
	return out
}

// badEntries lists the names in dir (the repository root: only new
// entries matter there).
func badEntries(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		out = append(out, e.Name())
	}
	return out
}

// badDiff names the entries that are new, changed or gone.
func badDiff(before, after map[string]string, d string) []string {
	var out []string
	for _, p := range slices.Sorted(maps.Keys(after)) {
		switch b, ok := before[p]; {
		case !ok:
			out = append(out, "output left: "+p+" (new)")
		case b != after[p]:
			out = append(out, "output left: "+p+" (changed: "+b+" -> "+after[p]+")")
		}
	}
	for _, p := range slices.Sorted(maps.Keys(before)) {
		if _, ok := after[p]; !ok {
			out = append(out, "removed: "+p)
		}
	}
	return out
}

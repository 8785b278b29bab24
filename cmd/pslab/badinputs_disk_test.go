package main

// "Nothing left on disk": what a case changes in the repository, and in
// its own directory.
//
// The repository's directories are watched with fsnotify for the whole
// corpus rather than walked before and after every case: go test hashes
// every file and directory a test opens or stats (its test cache key), so
// two walks of figures/ and datasets/ per case cost the go command about
// 4 CPU-s under -short (57 cases) and about 30 in the full corpus,
// measured 2026-11-28. A watch also sees a write that leaves size and
// modification time as they were. Where no watch can be set up (the
// inotify limits), the walks are the fallback, once per case.

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fsnotify/fsnotify"
)

// badSyncTimeout bounds the wait for a watch's own marker event.
const badSyncTimeout = 20 * time.Second

// badRepoWatch reports what changes under the watched directories from
// one call of changes to the next.
type badRepoWatch struct {
	dirs []string // watched recursively
	root string   // watched for its own entries only
	// watcher is nil when no watch could be set up; before is then the
	// last snapshot of dirs and root's entries.
	watcher *fsnotify.Watcher
	before  map[string]string
	// marker is a directory outside the repository, watched too: after a
	// case, a file created there marks the end of the case's events.
	marker string
	n      int
}

// badWatchRepo starts watching dirs (recursively) and root (its entries).
func badWatchRepo(t *testing.T, dirs []string, root string) *badRepoWatch {
	t.Helper()
	w := &badRepoWatch{dirs: dirs, root: root, marker: t.TempDir()}
	watcher, err := fsnotify.NewWatcher()
	if err == nil {
		if err = watcher.Add(root); err == nil {
			err = badAddTree(watcher, append([]string{w.marker}, dirs...))
		}
		if err != nil {
			watcher.Close()
		}
	}
	if err != nil {
		t.Logf("no watch on the repository (%v): snapshots after every case instead", err)
		w.before = w.snapshot(t)
		return w
	}
	w.watcher = watcher
	t.Cleanup(func() { watcher.Close() })
	return w
}

// badAddTree watches every directory under dirs, skipping .git.
func badAddTree(watcher *fsnotify.Watcher, dirs []string) error {
	for _, dir := range dirs {
		err := filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
			switch {
			case err != nil:
				return err
			case !e.IsDir():
				return nil
			case e.Name() == ".git":
				return fs.SkipDir
			}
			return watcher.Add(p)
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// changes lists what changed since the last call: "output left: <path>
// (<operations>)" for each path, or for the fallback the snapshot
// difference.
func (w *badRepoWatch) changes(t *testing.T) []string {
	t.Helper()
	if w.watcher == nil {
		after := w.snapshot(t)
		diff := badDiff(w.before, after)
		w.before = after
		return diff
	}
	w.n++
	mark := filepath.Join(w.marker, fmt.Sprintf("case-%d", w.n))
	if err := os.WriteFile(mark, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	ops := map[string]fsnotify.Op{}
	timeout := time.After(badSyncTimeout)
	for {
		select {
		case e, ok := <-w.watcher.Events:
			switch {
			case !ok:
				t.Fatal("the repository watch closed")
			case e.Name == mark:
				var out []string
				for _, p := range slices.Sorted(maps.Keys(ops)) {
					out = append(out, fmt.Sprintf("output left: %s (%s)", p, strings.ToLower(ops[p].String())))
				}
				return out
			case strings.HasPrefix(e.Name, w.marker+string(filepath.Separator)):
				// a marker's other events (its write)
			default:
				ops[e.Name] |= e.Op
			}
		case err := <-w.watcher.Errors:
			if errors.Is(err, fsnotify.ErrEventOverflow) {
				t.Fatalf("the repository watch lost events (%v): too much written under %v", err, w.dirs)
			}
			t.Fatalf("the repository watch: %v", err)
		case <-timeout:
			t.Fatalf("the repository watch did not report its marker %s within %v", mark, badSyncTimeout)
		}
	}
}

// snapshot records dirs recursively and root's entries (fallback mode).
func (w *badRepoWatch) snapshot(t *testing.T) map[string]string {
	t.Helper()
	out := badSnapshots(t, w.dirs)
	ents, err := os.ReadDir(w.root)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if p := filepath.Join(w.root, e.Name()); out[p] == "" {
			out[p] = "entry"
		}
	}
	return out
}

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

// badDiff names the entries that are new, changed or gone.
func badDiff(before, after map[string]string) []string {
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

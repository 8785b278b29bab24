package shard

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"

	"pslab/engine/atomicfile"
)

// Reset removes what a previous attempt of the shard left in dir: its
// shard.json and the output trees subdirs (relative to dir). It removes
// nothing else, so a shard directory can hold a rerun (a requeued array
// task) without stale files.
func Reset(dir string, subdirs ...string) error {
	if err := os.Remove(filepath.Join(dir, MetaName)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	for _, s := range subdirs {
		if err := os.RemoveAll(filepath.Join(dir, s)); err != nil {
			return err
		}
	}
	return nil
}

// ListFiles returns the regular files under dir/sub (skipping names that
// start with ".", atomicfile's temporaries), with size and SHA-256, paths
// relative to dir, sorted. A missing dir/sub has no files.
func ListFiles(dir, sub string) ([]File, error) {
	var out []File
	err := filepath.WalkDir(filepath.Join(dir, sub), func(p string, d fs.DirEntry, err error) error {
		if errors.Is(err, fs.ErrNotExist) && p == filepath.Join(dir, sub) {
			return fs.SkipDir
		}
		if err != nil || d.IsDir() || strings.HasPrefix(d.Name(), ".") || !d.Type().IsRegular() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(b)
		out = append(out, File{Path: filepath.ToSlash(rel), Size: int64(len(b)), SHA256: hex.EncodeToString(sum[:])})
		return nil
	})
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, err
}

// CopyFiles copies every file of the shards to the same relative path
// under dest, each written atomically after its size and SHA-256 are
// checked against the shard's record. It copies GOMAXPROCS files at once
// and returns every error, each naming the shard.
func CopyFiles(shards []*Meta, dest string) error {
	type job struct {
		m *Meta
		f File
	}
	jobs := make(chan job)
	var mu sync.Mutex
	var errs []error
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				if err := copyOne(j.m, j.f, dest); err != nil {
					mu.Lock()
					errs = append(errs, err)
					mu.Unlock()
				}
			}
		}()
	}
	for _, m := range shards {
		for _, f := range m.Files {
			jobs <- job{m, f}
		}
	}
	close(jobs)
	wg.Wait()
	sort.Slice(errs, func(i, j int) bool { return errs[i].Error() < errs[j].Error() })
	return errors.Join(errs...)
}

func copyOne(m *Meta, f File, dest string) error {
	rel := filepath.FromSlash(f.Path)
	if !filepath.IsLocal(rel) {
		return fmt.Errorf("%s: output path %q leaves the shard directory", m.Name(), f.Path)
	}
	b, err := os.ReadFile(filepath.Join(m.Dir, rel))
	if err != nil {
		return fmt.Errorf("%s: %w", m.Name(), err)
	}
	sum := sha256.Sum256(b)
	if int64(len(b)) != f.Size || hex.EncodeToString(sum[:]) != f.SHA256 {
		return fmt.Errorf("%s: %s changed after the shard finished (size %d, recorded %d, or its SHA-256 differs)", m.Name(), f.Path, len(b), f.Size)
	}
	return atomicfile.Write(filepath.Join(dest, rel), b)
}

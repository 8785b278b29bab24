package shard

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
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

// ListFiles returns the regular files under dir/sub (skipping files and
// directories whose names start with ".", such as atomicfile's
// temporaries, and symbolic links), with size and SHA-256, paths relative
// to dir, slash-separated, sorted. A missing dir/sub has no files.
func ListFiles(dir, sub string) ([]File, error) {
	var out []File
	err := filepath.WalkDir(filepath.Join(dir, sub), func(p string, d fs.DirEntry, err error) error {
		if errors.Is(err, fs.ErrNotExist) && p == filepath.Join(dir, sub) {
			return fs.SkipDir
		}
		if err == nil && d.IsDir() && p != filepath.Join(dir, sub) && strings.HasPrefix(d.Name(), ".") {
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

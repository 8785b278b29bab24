package shard

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
)

// listing is one output file of one shard.
type listing struct {
	m *Meta
	f File
}

// listings returns every file of every shard, shard by shard.
func listings(shards []*Meta) []listing {
	var out []listing
	for _, m := range shards {
		for _, f := range m.Files {
			out = append(out, listing{m, f})
		}
	}
	return out
}

// Verify checks every file every shard lists, reading it within the
// shard's directory (os.Root): its path is one CheckPath accepts, it is
// there, it is a regular file reached through no symbolic link, and it
// has the size and SHA-256 shard.json records. It only reads, and returns
// every problem (sorted, joined), each naming the shard and the file.
func Verify(shards []*Meta) error {
	roots, err := openRoots(shards)
	if err != nil {
		return err
	}
	defer closeRoots(roots)
	jobs := listings(shards)
	return joinSorted(parallel(len(jobs), func(i int) error {
		j := jobs[i]
		src, err := openListed(roots[j.m], j.m, j.f)
		if err != nil {
			return err
		}
		defer src.Close()
		if err := hashCopy(io.Discard, src, j.f); err != nil {
			return fmt.Errorf("%s: %s %w", j.m.Name(), j.f.Path, err)
		}
		return nil
	}))
}

// MergeFiles copies the files of the shards into out, the merge's figures
// directory, which the caller chooses: figures/<p> in a shard goes to
// out/<p>, and nothing is written anywhere else. shard.json chooses no
// destination.
//
// Nothing is written until every shard passed Validate, their paths
// collide nowhere (Check's rules) and Verify found every file intact.
// Then each file is copied to a temporary file next to its destination,
// its size and SHA-256 checked again on the bytes copied (a shard changed
// since Verify is caught), and only when every file is staged are they
// renamed into place. A refusal or a failure before the renames leaves
// the disk as it was: the temporaries and the directories MergeFiles
// created are removed. Only a failing rename, after everything was
// staged, can leave some files replaced and the others not; each file is
// still the old one or the new one, never partial. Errors name the shard
// and the file.
func MergeFiles(shards []*Meta, out string) error {
	for _, m := range shards {
		if err := m.Validate(); err != nil {
			return fmt.Errorf("%s: %w", m.Name(), err)
		}
	}
	if err := checkFiles(shards); err != nil {
		return err
	}
	if err := Verify(shards); err != nil {
		return err
	}
	jobs := listings(shards)
	dsts := make([]string, len(jobs))
	dirSet := map[string]bool{}
	for i, j := range jobs {
		dsts[i] = filepath.Join(out, filepath.FromSlash(strings.TrimPrefix(j.f.Path, FiguresDir+"/")))
		if err := checkDest(dsts[i]); err != nil {
			return fmt.Errorf("%s: %s: %w", j.m.Name(), j.f.Path, err)
		}
		dirSet[filepath.Dir(dsts[i])] = true
	}
	dirs := make([]string, 0, len(dirSet))
	for d := range dirSet {
		dirs = append(dirs, d)
	}
	sort.Strings(dirs)

	// From here on MergeFiles writes; undo removes what it wrote.
	var created []string
	tmps := make([]string, len(jobs))
	undo := func() {
		for _, t := range tmps {
			if t != "" {
				os.Remove(t)
			}
		}
		for i := len(created) - 1; i >= 0; i-- {
			os.Remove(created[i]) // fails, as it should, on a directory not empty
		}
	}
	for _, d := range dirs {
		if err := mkdirs(d, &created); err != nil {
			undo()
			return fmt.Errorf("merge into %s: %w", out, err)
		}
	}
	roots, err := openRoots(shards)
	if err != nil {
		undo()
		return err
	}
	defer closeRoots(roots)
	err = joinSorted(parallel(len(jobs), func(i int) error {
		var err error
		tmps[i], err = stage(roots[jobs[i].m], jobs[i].m, jobs[i].f, dsts[i])
		return err
	}))
	if err != nil {
		undo()
		return err
	}
	for i := range jobs {
		if err := os.Rename(tmps[i], dsts[i]); err != nil {
			undo()
			return fmt.Errorf("%s: %s: %w (%d of %d files were replaced before it)", jobs[i].m.Name(), jobs[i].f.Path, err, i, len(jobs))
		}
		tmps[i] = ""
	}
	for _, c := range created {
		dirs = append(dirs, filepath.Dir(c)) // the new directory's entry
	}
	for _, d := range dirs {
		if err := syncDir(d); err != nil {
			return fmt.Errorf("merge into %s: %w", out, err)
		}
	}
	return nil
}

// openListed opens the file f of shard m for reading within root (m.Dir):
// a path CheckPath refuses, a missing file, a symbolic link anywhere on
// the path or a file that is not regular is an error naming the shard and
// the file.
func openListed(root *os.Root, m *Meta, f File) (*os.File, error) {
	if err := CheckPath(f.Path); err != nil {
		return nil, fmt.Errorf("%s: %s: %w", m.Name(), f.Path, err)
	}
	elems := strings.Split(f.Path, "/")
	for k := range elems {
		sub := filepath.Join(elems[:k+1]...)
		info, err := root.Lstat(sub)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return nil, fmt.Errorf("%s: %s: listed in %s but missing", m.Name(), f.Path, MetaName)
		case err != nil:
			return nil, fmt.Errorf("%s: %s: %w", m.Name(), f.Path, err)
		case info.Mode()&fs.ModeSymlink != 0:
			return nil, fmt.Errorf("%s: %s: %s is a symbolic link (a shard's outputs are regular files in its directory)", m.Name(), f.Path, filepath.ToSlash(sub))
		case k == len(elems)-1 && !info.Mode().IsRegular():
			return nil, fmt.Errorf("%s: %s: not a regular file (%v)", m.Name(), f.Path, info.Mode().Type())
		}
	}
	src, err := root.Open(filepath.FromSlash(f.Path))
	if err != nil {
		return nil, fmt.Errorf("%s: %s: %w", m.Name(), f.Path, err)
	}
	return src, nil
}

// hashCopy copies src to dst, at most f.Size+1 bytes, and reports whether
// what it copied has f's size and SHA-256. Its errors read after the
// file's name: "figures/x.svg changed after the shard finished: ...".
func hashCopy(dst io.Writer, src io.Reader, f File) error {
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(dst, h), io.LimitReader(src, f.Size+1))
	switch {
	case err != nil:
		return fmt.Errorf("could not be copied: %w", err)
	case n > f.Size:
		return fmt.Errorf("changed after the shard finished: more than the %d bytes recorded", f.Size)
	case n != f.Size:
		return fmt.Errorf("changed after the shard finished: %d bytes, %d recorded", n, f.Size)
	case hex.EncodeToString(h.Sum(nil)) != f.SHA256:
		return fmt.Errorf("changed after the shard finished: SHA-256 %x, %s recorded", h.Sum(nil), f.SHA256)
	}
	return nil
}

// stage copies file f of shard m to a new temporary file next to dst
// (".<name>.tmp*", which ListFiles skips), synced, mode 0o644, checking
// the bytes copied (hashCopy), and returns its name. On error it leaves
// no temporary file.
func stage(root *os.Root, m *Meta, f File, dst string) (string, error) {
	src, err := openListed(root, m, f)
	if err != nil {
		return "", err
	}
	defer src.Close()
	t, err := os.CreateTemp(filepath.Dir(dst), "."+filepath.Base(dst)+".tmp*")
	if err != nil {
		return "", fmt.Errorf("%s: %s: %w", m.Name(), f.Path, err)
	}
	err = hashCopy(t, src, f)
	if err == nil {
		err = t.Sync()
	}
	if err == nil {
		err = t.Chmod(0o644)
	}
	if cerr := t.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(t.Name())
		return "", fmt.Errorf("%s: %s %w", m.Name(), f.Path, err)
	}
	return t.Name(), nil
}

// checkDest reports why a regular file cannot be renamed to dst: dst is
// a directory, or its nearest existing ancestor is not one.
func checkDest(dst string) error {
	if info, err := os.Stat(dst); err == nil && info.IsDir() {
		return fmt.Errorf("its destination %s is a directory", dst)
	}
	for d := filepath.Dir(dst); ; d = filepath.Dir(d) {
		info, err := os.Stat(d)
		switch {
		case err == nil && !info.IsDir():
			return fmt.Errorf("%s, on the way to its destination %s, is not a directory", d, dst)
		case err == nil:
			return nil
		case !errors.Is(err, fs.ErrNotExist):
			return err
		case filepath.Dir(d) == d:
			return nil
		}
	}
}

// mkdirs makes dir and its missing parents (mode 0o755), appending each
// directory it made to created, parents first.
func mkdirs(dir string, created *[]string) error {
	info, err := os.Stat(dir)
	switch {
	case err == nil && info.IsDir():
		return nil
	case err == nil:
		return fmt.Errorf("%s is not a directory", dir)
	case !errors.Is(err, fs.ErrNotExist):
		return err
	}
	if parent := filepath.Dir(dir); parent != dir {
		if err := mkdirs(parent, created); err != nil {
			return err
		}
	}
	if err := os.Mkdir(dir, 0o755); err != nil {
		return err
	}
	*created = append(*created, dir)
	return nil
}

// syncDir flushes dir's entries (the renames into it) to stable storage.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	return err
}

// openRoots opens each shard's directory as an os.Root, which no path
// opened within it can leave (not through "..", not by a symbolic link).
func openRoots(shards []*Meta) (map[*Meta]*os.Root, error) {
	roots := map[*Meta]*os.Root{}
	for _, m := range shards {
		r, err := os.OpenRoot(m.Dir)
		if err != nil {
			closeRoots(roots)
			return nil, fmt.Errorf("%s: %w", m.Name(), err)
		}
		roots[m] = r
	}
	return roots, nil
}

func closeRoots(roots map[*Meta]*os.Root) {
	for _, r := range roots {
		r.Close()
	}
}

// parallel calls fn(0..n-1), GOMAXPROCS at a time, and returns the
// errors by index.
func parallel(n int, fn func(i int) error) []error {
	errs := make([]error, n)
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(n, runtime.GOMAXPROCS(0)) {
		wg.Go(func() {
			for i := range next {
				errs[i] = fn(i)
			}
		})
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
	return errs
}

// joinSorted joins the non-nil errors, sorted by message (nil for none).
func joinSorted(errs []error) error {
	var out []error
	for _, err := range errs {
		if err != nil {
			out = append(out, err)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Error() < out[j].Error() })
	return errors.Join(out...)
}

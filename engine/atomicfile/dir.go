package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// A directory is replaced as a whole by building the new one beside it
// and renaming it into place:
//
//	parent/.NAME.tmp-123        the new directory being filled
//	parent/.NAME.tmp-123.old    the previous NAME, moved aside, being removed
//	parent/.NAME.tmp-123.lock   held (flock) by the writer while either exists
//
// A writer killed (kill -9, power loss) leaves the temporary directory or
// the .old one behind. NewDir removes such leftovers of the same target
// before it starts: every entry of parent named .NAME.tmp-<digits>,
// .NAME.tmp-<digits>.old or .NAME.tmp-<digits>.lock whose lock it can
// take. The lock is an flock(2) on the .lock file, not a PID file: the
// kernel drops it the moment its holder exits, however it exits, so a
// held lock always means a live writer and a free one a dead writer, with
// no PID reuse, PID namespaces or clock to guess about. Entries that are
// symbolic links are never followed nor removed, and nothing outside
// parent or without the target's exact prefix is touched. (A writer of an
// older pslab, which took no lock, is not protected from a concurrent
// newer one: its directory looks abandoned.)

const (
	tmpInfix   = ".tmp-"
	oldSuffix  = ".old"
	lockSuffix = ".lock"
)

// TempDir is a directory being built to replace Target as a whole.
type TempDir struct {
	// Path is the temporary directory (mode 0o755) to fill.
	Path string
	// Target is the directory Commit replaces.
	Target string
	lock   *os.File
	done   bool
}

// tmpPrefix is the name every temporary entry of target starts with.
func tmpPrefix(target string) string { return "." + filepath.Base(target) + tmpInfix }

// stalePattern matches the temporary entries of the targets with prefix.
func stalePattern(prefix string) *regexp.Regexp {
	return regexp.MustCompile(`^` + regexp.QuoteMeta(prefix) + `[0-9]+(` +
		regexp.QuoteMeta(oldSuffix) + `|` + regexp.QuoteMeta(lockSuffix) + `)?$`)
}

// NewDir removes the stale temporary directories of target (RemoveStale;
// failing to remove one does not stop the new write) and creates a new
// one beside target, locked until Commit or Abort. The parent directory
// is created if missing.
func NewDir(target string) (*TempDir, error) {
	target = filepath.Clean(target)
	parent := filepath.Dir(target)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return nil, err
	}
	RemoveStale(target)
	for try := 0; try < 100; try++ {
		f, err := os.CreateTemp(parent, tmpPrefix(target)+"*"+lockSuffix)
		if err != nil {
			return nil, err
		}
		stem := strings.TrimSuffix(f.Name(), lockSuffix)
		// A cleaner that opened the new lock file first removes it: take
		// another name. So does a leftover directory of the same name. A
		// file system without flock(2) gives another error: go on without
		// the lock, which no cleaner can take there either.
		if err := tryLock(f); isLocked(err) || !isFileAt(f, f.Name()) {
			f.Close()
			continue
		}
		err = os.Mkdir(stem, 0o755)
		if errors.Is(err, fs.ErrExist) {
			unlock(f)
			continue
		}
		if err == nil {
			err = os.Chmod(stem, 0o755) // whatever the umask
		}
		if err != nil {
			os.Remove(stem)
			unlock(f)
			return nil, fmt.Errorf("write %s: %w", target, err)
		}
		return &TempDir{Path: stem, Target: target, lock: f}, nil
	}
	return nil, fmt.Errorf("write %s: no free temporary name in %s", target, parent)
}

// isFileAt reports whether the open file f is the file at path, without
// following a symbolic link at path.
func isFileAt(f *os.File, path string) bool {
	a, err := f.Stat()
	if err != nil {
		return false
	}
	b, err := os.Lstat(path)
	return err == nil && b.Mode().IsRegular() && os.SameFile(a, b)
}

// unlock removes the lock file f, then releases the lock.
func unlock(f *os.File) {
	os.Remove(f.Name())
	f.Close()
}

// Commit renames the temporary directory to Target, replacing a previous
// Target (moved aside to Path.old, then removed), and releases the lock.
// If the rename fails the previous Target is put back.
func (d *TempDir) Commit() error {
	if d.done {
		return fmt.Errorf("write %s: temporary directory already committed or aborted", d.Target)
	}
	old := ""
	if _, err := os.Lstat(d.Target); err == nil {
		old = d.Path + oldSuffix
		if err := os.Rename(d.Target, old); err != nil {
			d.Abort()
			return fmt.Errorf("write %s: %w", d.Target, err)
		}
	}
	if err := os.Rename(d.Path, d.Target); err != nil {
		if old != "" {
			if perr := os.Rename(old, d.Target); perr != nil {
				err = fmt.Errorf("%w; the previous one is in %s (%v)", err, old, perr)
			}
		}
		d.Abort()
		return fmt.Errorf("write %s: %w", d.Target, err)
	}
	d.done = true
	defer unlock(d.lock)
	if old != "" {
		if err := os.RemoveAll(old); err != nil {
			return fmt.Errorf("write %s: removing the previous one: %w", d.Target, err)
		}
	}
	return nil
}

// Abort removes the temporary directory and releases the lock. It does
// nothing after Commit or a first Abort, so it can be deferred.
func (d *TempDir) Abort() error {
	if d.done {
		return nil
	}
	d.done = true
	defer unlock(d.lock)
	return removeDir(d.Path)
}

// RemoveStale removes the temporary entries that writers of target killed
// before they finished left beside it, skipping those whose writer still
// holds its lock. It returns the names removed and the errors met.
// On systems without flock(2) it removes nothing.
func RemoveStale(target string) ([]string, error) {
	if !canLock {
		return nil, nil
	}
	target = filepath.Clean(target)
	parent := filepath.Dir(target)
	ents, err := os.ReadDir(parent)
	if err != nil {
		return nil, err
	}
	re := stalePattern(tmpPrefix(target))
	stems := map[string]bool{}
	for _, e := range ents {
		if m := re.FindStringSubmatch(e.Name()); m != nil {
			stems[strings.TrimSuffix(e.Name(), m[1])] = true
		}
	}
	var names []string
	for s := range stems {
		names = append(names, s)
	}
	sort.Strings(names)
	var removed []string
	var errs []error
	for _, s := range names {
		r, err := removeStem(filepath.Join(parent, s))
		removed = append(removed, r...)
		if err != nil {
			errs = append(errs, err)
		}
	}
	return removed, errors.Join(errs...)
}

// removeStem removes stem, stem.old and stem.lock if it can take the lock
// on stem.lock (creating it if missing: a writer creates its lock file
// exclusively, so none can claim stem meanwhile). A lock file that is a
// symbolic link or not a regular file leaves all three alone.
func removeStem(stem string) ([]string, error) {
	lockPath := stem + lockSuffix
	f, err := openLock(lockPath)
	if err != nil {
		return nil, nil // a link, a directory, or no permission: not ours to judge
	}
	defer f.Close()
	if tryLock(f) != nil || !isFileAt(f, lockPath) {
		return nil, nil // in use, or taken over since it was opened
	}
	var removed []string
	var errs []error
	for _, p := range []string{stem, stem + oldSuffix} {
		if st, err := os.Lstat(p); err == nil && st.IsDir() {
			if err := os.RemoveAll(p); err != nil {
				errs = append(errs, fmt.Errorf("remove stale %s: %w", p, err))
				continue
			}
			removed = append(removed, filepath.Base(p))
		}
	}
	if len(errs) == 0 {
		os.Remove(lockPath)
	}
	return removed, errors.Join(errs...)
}

// removeDir removes the directory at path and its contents, if path is a
// directory (a symbolic link is left alone).
func removeDir(path string) error {
	st, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil || !st.IsDir() {
		return err
	}
	return os.RemoveAll(path)
}

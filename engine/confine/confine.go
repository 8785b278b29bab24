// Package confine keeps paths named by untrusted input inside a root
// directory by where they really lead: every symbolic link resolved
// (RealPath), then compared with the root's own real path (Within). A
// lexical check (filepath.IsLocal) is not enough: a link inside the root
// can lead anywhere.
package confine

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// RealPath returns the absolute path p with every symbolic link resolved
// (filepath.EvalSymlinks). A tail of p that does not exist is kept as
// written after its last existing directory is resolved (it holds no link
// and, p being clean, no ".."). An entry that exists but cannot be
// resolved is an error, so that no link is left unresolved: a dangling
// link (named with its target), a looping one, a file used as a directory,
// a directory without permission.
func RealPath(p string) (string, error) {
	p, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	var tail []string
	for {
		r, err := filepath.EvalSymlinks(p)
		if err == nil {
			return filepath.Join(append([]string{r}, tail...)...), nil
		}
		st, lerr := os.Lstat(p)
		if lerr == nil && st.Mode()&fs.ModeSymlink != 0 && errors.Is(err, fs.ErrNotExist) {
			target, _ := os.Readlink(p)
			return "", fmt.Errorf("%s is a dangling symbolic link (to %s)", p, target)
		}
		if !errors.Is(lerr, fs.ErrNotExist) {
			return "", err
		}
		parent := filepath.Dir(p)
		if parent == p {
			return "", err
		}
		tail = append([]string{filepath.Base(p)}, tail...)
		p = parent
	}
}

// Within reports whether the resolved path p is root or below it (both
// results of RealPath).
func Within(root, p string) bool {
	rel, err := filepath.Rel(root, p)
	return err == nil && filepath.IsLocal(rel)
}

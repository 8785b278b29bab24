//go:build !unix

package atomicfile

import (
	"errors"
	"os"
)

// canLock: without flock(2) a stale temporary directory cannot be told
// from one in use, so RemoveStale removes nothing.
const canLock = false

// tryLock does nothing: writers still create their lock files, which a
// later run on a system with flock(2) can judge.
func tryLock(*os.File) error { return nil }

// isLocked is false: tryLock never fails.
func isLocked(error) bool { return false }

// openLock is not used without flock(2).
func openLock(string) (*os.File, error) {
	return nil, errors.ErrUnsupported
}

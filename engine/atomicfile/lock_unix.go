//go:build unix

package atomicfile

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// canLock: flock(2) is available, so stale temporary directories can be
// told from ones in use.
const canLock = true

// tryLock takes an exclusive flock(2) on f without waiting; it fails if
// another open file (of any process) holds one.
func tryLock(f *os.File) error {
	for {
		err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB)
		if err != unix.EINTR {
			return err
		}
	}
}

// isLocked reports whether err is tryLock's for a lock held elsewhere.
func isLocked(err error) bool { return errors.Is(err, unix.EWOULDBLOCK) }

// openLock opens (creating it if missing) the lock file at path, refusing
// a symbolic link.
func openLock(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDWR|os.O_CREATE|unix.O_NOFOLLOW, 0o600)
}

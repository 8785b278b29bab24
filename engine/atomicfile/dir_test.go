package atomicfile

import (
	"bufio"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// names lists the entries of dir.
func names(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	require.NoError(t, err)
	var out []string
	for _, e := range ents {
		out = append(out, e.Name())
	}
	sort.Strings(out)
	return out
}

// mkdirWith creates dir holding one file, and returns dir.
func mkdirWith(t *testing.T, dir string) string {
	t.Helper()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "sub"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "sub", "f"), []byte("x"), 0o644))
	return dir
}

// TestDirReplacesAndLeavesNothing: Commit puts the new directory in place
// of the old one and leaves no temporary, .old or lock entry; Abort
// leaves nothing either, and the old directory as it was.
func TestDirReplacesAndLeavesNothing(t *testing.T) {
	t.Parallel()
	parent := t.TempDir()
	out := filepath.Join(parent, "site")
	for _, content := range []string{"first", "second"} {
		d, err := NewDir(out)
		require.NoError(t, err)
		require.Equal(t, parent, filepath.Dir(d.Path))
		require.NoError(t, os.WriteFile(filepath.Join(d.Path, "index.html"), []byte(content), 0o644))
		require.NoError(t, d.Commit())
		require.NoError(t, d.Abort(), "Abort after Commit does nothing")
		b, err := os.ReadFile(filepath.Join(out, "index.html"))
		require.NoError(t, err)
		require.Equal(t, content, string(b))
		require.Equal(t, []string{"site"}, names(t, parent))
		st, err := os.Stat(out)
		require.NoError(t, err)
		require.Equal(t, os.FileMode(0o755), st.Mode().Perm())
	}
	d, err := NewDir(out)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(d.Path, "index.html"), []byte("third"), 0o644))
	require.NoError(t, d.Abort())
	require.Error(t, d.Commit())
	require.Equal(t, []string{"site"}, names(t, parent))
	b, err := os.ReadFile(filepath.Join(out, "index.html"))
	require.NoError(t, err)
	require.Equal(t, "second", string(b))
}

// TestRemoveStale is issue 28 item 6: the temporary directories a killed
// writer left (.NAME.tmp-N, .NAME.tmp-N.old, a lock file alone) are
// removed by the next NewDir; one whose writer is alive (its lock held),
// symbolic links (and what they point to), other targets' entries and
// names that only look alike are not.
func TestRemoveStale(t *testing.T) {
	t.Parallel()
	if !canLock {
		t.Skip("no flock(2): stale directories are kept")
	}
	parent, outside := t.TempDir(), t.TempDir()
	out := filepath.Join(parent, "report")
	mkdirWith(t, filepath.Join(parent, ".report.tmp-123"))
	mkdirWith(t, filepath.Join(parent, ".report.tmp-456.old"))
	require.NoError(t, os.WriteFile(filepath.Join(parent, ".report.tmp-42.lock"), nil, 0o600))
	keep := []string{"unrelated", ".other.tmp-789", ".report.tmp-12x", "report.tmp-5", ".report.tmp-", ".report.tmp-7.new", ".report.tmp-1.old.old"}
	for _, k := range keep {
		mkdirWith(t, filepath.Join(parent, k))
	}
	// A live writer: its lock held by another open file.
	live := mkdirWith(t, filepath.Join(parent, ".report.tmp-555"))
	mkdirWith(t, live+oldSuffix)
	lf, err := openLock(live + lockSuffix)
	require.NoError(t, err)
	require.NoError(t, tryLock(lf))
	// Links: a stale-looking name that is a link to a directory elsewhere,
	// and a stale directory whose lock file is a link.
	mkdirWith(t, filepath.Join(outside, "victim"))
	require.NoError(t, os.Symlink(filepath.Join(outside, "victim"), filepath.Join(parent, ".report.tmp-999")))
	mkdirWith(t, filepath.Join(parent, ".report.tmp-888"))
	require.NoError(t, os.WriteFile(filepath.Join(outside, "lock"), nil, 0o600))
	require.NoError(t, os.Symlink(filepath.Join(outside, "lock"), filepath.Join(parent, ".report.tmp-888.lock")))
	keep = append(keep, ".report.tmp-555", ".report.tmp-555.lock", ".report.tmp-555.old",
		".report.tmp-999", ".report.tmp-888", ".report.tmp-888.lock")

	d, err := NewDir(out)
	require.NoError(t, err)
	got := names(t, parent)
	for _, k := range keep {
		require.Contains(t, got, k)
	}
	for _, gone := range []string{".report.tmp-123", ".report.tmp-456.old", ".report.tmp-42.lock", ".report.tmp-123.lock", ".report.tmp-456.lock"} {
		require.NotContains(t, got, gone)
	}
	require.FileExists(t, filepath.Join(outside, "victim", "sub", "f"), "a link is not followed")
	require.FileExists(t, filepath.Join(live, "sub", "f"), "a live writer's directory is kept")
	require.NoError(t, d.Commit())

	// The live writer dies (its lock is released): the next run cleans up.
	require.NoError(t, lf.Close())
	removed, err := RemoveStale(out)
	require.NoError(t, err)
	require.Equal(t, []string{".report.tmp-555", ".report.tmp-555.old"}, removed)
	require.NoFileExists(t, live+lockSuffix)
	require.FileExists(t, filepath.Join(outside, "victim", "sub", "f"))
	require.FileExists(t, filepath.Join(outside, "lock"))
}

// TestNewDirKeepsConcurrentWriter: a second writer of the same target
// does not remove the first one's directory.
func TestNewDirKeepsConcurrentWriter(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "report")
	a, err := NewDir(out)
	require.NoError(t, err)
	mkdirWith(t, a.Path)
	b, err := NewDir(out)
	require.NoError(t, err)
	require.NotEqual(t, a.Path, b.Path)
	require.FileExists(t, filepath.Join(a.Path, "sub", "f"))
	require.NoError(t, b.Commit())
	require.NoError(t, a.Commit(), "the first writer replaces the second's result")
	require.FileExists(t, filepath.Join(out, "sub", "f"))
	require.Equal(t, []string{"report"}, names(t, filepath.Dir(out)))
}

// TestRemoveStaleAfterKill runs a writer in another process, checks that
// its directory survives RemoveStale while it lives, kills it with
// SIGKILL and checks that the next RemoveStale removes what it left.
// Not parallel: a child between fork and exec holds a copy of every open
// file of this process, so a lock another test closes meanwhile would
// stay held a moment longer.
func TestRemoveStaleAfterKill(t *testing.T) {
	if !canLock {
		t.Skip("no flock(2): stale directories are kept")
	}
	if os.Getenv("ATOMICFILE_WRITER") != "" {
		d, err := NewDir(os.Getenv("ATOMICFILE_WRITER"))
		if err != nil {
			os.Exit(2)
		}
		mkdirWith(t, d.Path)
		os.Stdout.WriteString(d.Path + "\n")
		io.Copy(io.Discard, os.Stdin) // until killed (or the test ends)
		os.Exit(0)
	}
	out := filepath.Join(t.TempDir(), "report")
	cmd := exec.Command(os.Args[0], "-test.run=^TestRemoveStaleAfterKill$")
	cmd.Env = append(os.Environ(), "ATOMICFILE_WRITER="+out)
	stdin, err := cmd.StdinPipe()
	require.NoError(t, err)
	defer stdin.Close()
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	defer cmd.Process.Kill()
	tmp := ""
	for sc := bufio.NewScanner(stdout); tmp == "" && sc.Scan(); {
		if strings.HasPrefix(sc.Text(), filepath.Dir(out)) {
			tmp = sc.Text()
		}
	}
	require.NotEmpty(t, tmp, "the writer printed its directory")
	removed, err := RemoveStale(out)
	require.NoError(t, err)
	require.Empty(t, removed, "the writer is alive")
	require.FileExists(t, filepath.Join(tmp, "sub", "f"))
	require.NoError(t, cmd.Process.Kill())
	cmd.Wait()
	removed, err = RemoveStale(out)
	require.NoError(t, err)
	require.Equal(t, []string{filepath.Base(tmp)}, removed)
	require.Empty(t, names(t, filepath.Dir(out)))
}

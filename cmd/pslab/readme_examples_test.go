//go:build unix

package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// readmeCommandTimeout bounds one pslab or make command of an example
// (through timeout(1)); readmeBlockTimeout one block, as a backstop.
const (
	readmeCommandTimeout = 3 * time.Minute
	readmeBlockTimeout   = 6 * time.Minute
)

// readmeSlowAll runs the blocks marked slow too: PSLAB_README_SLOW=1.
var readmeSlowAll = os.Getenv("PSLAB_README_SLOW") != ""

// TestReadmeExamples runs every runnable sh block of README.md (see
// readme_test.go), in README order, each as `bash -euo pipefail -c` in
// the root of a fresh clone: the repository's files as they are on disk
// (tracked ones and untracked ones not ignored, so uncommitted work is
// tested), committed into a new Git repository in a temporary directory
// with nothing beside it (no ../shared). `go run ./cmd/pslab` and `pslab`
// are a pslab built once from this tree, `make` gets PSLAB= that binary;
// any other `go` command is refused (it would cost a build). Every block
// must exit 0, and afterwards `git status` must be empty: whatever the
// examples write is ignored (.gitignore) or, for the datasets and figures
// they rebuild, byte-identical to what is committed. Skipped under -short
// (about 10 CPU-s beyond the build).
func TestReadmeExamples(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the README examples cost about 10 CPU-s and a build of pslab")
	}
	blocks := readReadme(t)
	for _, tool := range []string{"bash", "git", "go", "make"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not found: %v", tool, err)
		}
	}
	repo, err := filepath.Abs(root)
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	bin := filepath.Join(tmp, "bin", "pslab")
	readmeExec(t, repo, nil, "go", "build", "-o", bin, "./cmd/pslab")
	clone := filepath.Join(tmp, "clone", "main")
	n := readmeClone(t, repo, clone)
	t.Logf("fresh clone of %d files in %s", n, clone)

	prelude := readmePrelude(bin)
	var cpu time.Duration
	for _, b := range blocks {
		switch {
		case b.mode == readmeNone:
			continue
		case b.mode == readmeSkip:
			t.Logf("README.md:%d: skipped: %s", b.line, b.reason)
			continue
		case b.mode == readmeSlow && !readmeSlowAll:
			t.Logf("README.md:%d: not run (slow; PSLAB_README_SLOW=1 runs it): %s", b.line, b.reason)
			continue
		}
		used, out, err := readmeRunBlock(clone, prelude+b.text)
		cpu += used
		if err != nil {
			t.Fatalf("README.md:%d: %v\n--- block ---\n%s--- output (last 40 lines) ---\n%s", b.line, err, b.text, readmeTail(out, 40))
		}
		t.Logf("README.md:%d: ok, %.2f CPU-s", b.line, used.Seconds())
	}
	status := readmeExec(t, clone, nil, "git", "status", "--porcelain", "--untracked-files=all")
	if strings.TrimSpace(status) != "" {
		t.Errorf("the examples left files that are neither ignored nor as committed (add them to .gitignore, "+
			"or find why a rebuilt file differs):\n%s", status)
	}
	t.Logf("examples: %.1f CPU-s in all", cpu.Seconds())
}

// readmePrelude defines pslab, go and make for a block: the built
// binary under a per-command timeout.
func readmePrelude(bin string) string {
	to, mk := "", "command make" // command: not this function again
	if _, err := exec.LookPath("timeout"); err == nil {
		to = fmt.Sprintf("timeout -k 5 %d ", int(readmeCommandTimeout.Seconds()))
		mk = to + "make" // timeout(1) runs the make program
	}
	return fmt.Sprintf(`PSLAB_README_BIN=%[1]q
pslab() { %[2]s"$PSLAB_README_BIN" "$@"; }
go() {
  if [ "${1-}" = run ] && [ "${2-}" = ./cmd/pslab ]; then shift 2; pslab "$@"; return; fi
  echo "README test: only 'go run ./cmd/pslab' runs in an example, not: go $*" >&2; return 1
}
make() { %[3]s --no-print-directory PSLAB="$PSLAB_README_BIN" "$@"; }
`, bin, to, mk)
}

// readmeRunBlock runs script with bash -euo pipefail in dir, in a
// process group of its own that is killed on timeout; it returns the CPU
// time of bash and the commands it waited for, and the combined output.
func readmeRunBlock(dir, script string) (time.Duration, string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), readmeBlockTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "-euo", "pipefail", "-c", script)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PWD="+dir)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 10 * time.Second
	err := cmd.Run()
	var used time.Duration
	if cmd.ProcessState != nil {
		used = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	}
	if ctx.Err() != nil {
		err = fmt.Errorf("still running after %v (killed): %w", readmeBlockTimeout, err)
	}
	return used, out.String(), err
}

// readmeClone copies the files of repo that Git sees (tracked, and
// untracked but not ignored; tracked files deleted on disk are left out)
// to dst, as they are on disk, and commits them into a new repository
// there. It returns the number of files.
func readmeClone(t *testing.T, repo, dst string) int {
	t.Helper()
	list := readmeExec(t, repo, nil, "git", "ls-files", "-z", "--cached", "--others", "--exclude-standard")
	seen := map[string]bool{}
	n := 0
	for _, rel := range strings.Split(list, "\x00") {
		if rel == "" || seen[rel] {
			continue
		}
		seen[rel] = true
		ok, err := readmeCopy(filepath.Join(repo, rel), filepath.Join(dst, rel))
		if err != nil {
			t.Fatalf("fresh clone: %v", err)
		}
		if ok {
			n++
		}
	}
	git := []string{"-c", "user.name=pslab readme test", "-c", "user.email=readme@pslab.invalid", "-c", "commit.gpgsign=false"}
	env := []string{"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null"}
	readmeExec(t, dst, env, "git", "init", "-q")
	readmeExec(t, dst, env, "git", "add", "-A", "-f")
	readmeExec(t, dst, env, "git", append(git, "commit", "-q", "--no-verify", "-m", "the tree under test")...)
	return n
}

// readmeCopy copies one file (or symbolic link) with its permission
// bits; a file missing on disk is not copied (false).
func readmeCopy(src, dst string) (bool, error) {
	fi, err := os.Lstat(src)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return false, err
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		target, err := os.Readlink(src)
		if err != nil {
			return false, err
		}
		return true, os.Symlink(target, dst)
	}
	if !fi.Mode().IsRegular() {
		return false, nil
	}
	in, err := os.Open(src)
	if err != nil {
		return false, err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, fi.Mode().Perm())
	if err != nil {
		return false, err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return false, err
	}
	return true, out.Close()
}

// readmeExec runs a helper command in dir and returns its stdout,
// failing t with its output on error.
func readmeExec(t *testing.T, dir string, env []string, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %s (in %s): %v\n%s", name, strings.Join(args, " "), dir, err, stderr.String())
	}
	return stdout.String()
}

// readmeTail is the last n lines of s.
func readmeTail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n") + "\n"
}

package main

// The hostile-input corpus (issue 28): every input kind pslab reads, fed
// to the CLI in-process through Run, as a user would. Each case must end
// with a non-zero exit, an error message that names the file, line, key or
// flag at fault, no panic, no hang, and nothing new or changed on disk.
// The cases are in badinputs_*_test.go, the text fixtures under
// scripts/badinputs/ (README.md there says what each group tests).

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"slices"
	"strings"
	"testing"
	"time"
)

// badCase is one hostile input: the files it needs, the command line and
// what the message must contain.
type badCase struct {
	// name is "<kind>/<case>"; its fixture, if any, is
	// scripts/badinputs/<kind>/<case>.<ext>.
	name string
	// files are written under the case's directory $D before it runs:
	// relative path → content, or badFixture for the case's fixture.
	files map[string]string
	// gen writes generated inputs under d (binary, large or derived ones).
	gen func(t *testing.T, d string)
	// args is the command line; "$D" stands for the case's directory.
	args []string
	// want are substrings the message must all contain ("$D" expanded):
	// they name the file (and line) or the key or flag at fault.
	want []string
	// code is the exit status required (0: any non-zero).
	code int
}

// badFixture in badCase.files stands for the case's fixture file.
const badFixture = "\x00fixture"

// badTimeout bounds one case; a case still running after it has hung.
const badTimeout = 20 * time.Second

// badMinCases is the size of the corpus the issue asks for.
const badMinCases = 130

// badShortStride: under go test -short only every badShortStride-th case
// of each input kind runs (the first of every kind among them), so each
// kind's refusal path still runs once or more in a quick loop.
const badShortStride = 8

// badInputsAll runs the known hangs too: PSLAB_BADINPUTS_ALL=1.
var badInputsAll = os.Getenv("PSLAB_BADINPUTS_ALL") != ""

// badInputsDump logs every case's message: PSLAB_BADINPUTS_DUMP=1.
var badInputsDump = os.Getenv("PSLAB_BADINPUTS_DUMP") != ""

// badCorpus is every case of the corpus.
func badCorpus() []badCase {
	var all []badCase
	for _, group := range [][]badCase{badExperimentCases(), badGoldenCases(), badArrowCases(), badTimelineCases(),
		badKinetoCases(), badMeasuredCases(), badPipeDreamCases(), badTestbedCases(), badShardCases(), badFlagCases()} {
		all = append(all, group...)
	}
	return all
}

// badKind is the input kind of a case: the part of its name before "/".
func badKind(name string) string {
	k, _, _ := strings.Cut(name, "/")
	return k
}

func TestBadInputs(t *testing.T) {
	start := time.Now()
	cases := badCorpus()
	names := map[string]bool{}
	perKind := map[string]int{}
	for _, c := range cases {
		if names[c.name] {
			t.Fatalf("case %s listed twice", c.name)
		}
		names[c.name] = true
		perKind[badKind(c.name)]++
	}
	if len(cases) < badMinCases {
		t.Fatalf("%d cases, the corpus needs at least %d", len(cases), badMinCases)
	}
	for name := range knownFailures {
		if !names[name] {
			t.Errorf("knownFailures lists %s, which is no case", name)
		}
	}
	badCheckFixturesUsed(t, cases)
	repo, err := filepath.Abs(root)
	if err != nil {
		t.Fatal(err)
	}
	cwd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	watch := badWatchRepo(t, []string{filepath.Join(repo, "figures"), filepath.Join(repo, "datasets"), cwd}, repo)
	var skipped, fixed []string
	nth := map[string]int{} // index of each case within its kind
	notShort := 0           // cases -short leaves out
	for _, c := range cases {
		i := nth[badKind(c.name)]
		nth[badKind(c.name)]++
		t.Run(c.name, func(t *testing.T) {
			if testing.Short() && i%badShortStride != 0 {
				notShort++
				t.Skipf("-short: one case in %d of each input kind runs", badShortStride)
			}
			why, known := knownFailures[c.name]
			if known && strings.HasPrefix(why, "hang") && !badInputsAll {
				skipped = append(skipped, c.name)
				t.Skipf("known failure, not run (PSLAB_BADINPUTS_ALL=1 runs it): %s", why)
			}
			problems := badRun(t, c, watch)
			switch {
			case known && len(problems) > 0:
				skipped = append(skipped, c.name)
				t.Skipf("known failure: %s\nobserved now:\n  %s", why, strings.Join(problems, "\n  "))
			case known:
				fixed = append(fixed, c.name)
				t.Skipf("known failure no longer reproduces: remove %q from knownFailures (was: %s)", c.name, why)
			case len(problems) > 0:
				t.Errorf("%s:\n  %s", c.name, strings.Join(problems, "\n  "))
			}
		})
	}
	kinds := slices.Sorted(maps.Keys(perKind))
	var counts []string
	for _, k := range kinds {
		counts = append(counts, fmt.Sprintf("%s %d", k, perKind[k]))
	}
	t.Logf("%d hostile inputs (%s); %d left out by -short; %d known failures skipped, %d known failures that now pass; %v",
		len(cases), strings.Join(counts, ", "), notShort, len(skipped), len(fixed), time.Since(start).Round(time.Millisecond))
	if len(fixed) > 0 {
		t.Logf("known failures that now pass (remove them from knownFailures): %s", strings.Join(fixed, ", "))
	}
}

// badOutcome is what one run of the CLI did.
type badOutcome struct {
	err            error
	stdout, stderr string
	panicked       any
	stack          []byte
}

// badRun runs case c and returns what is wrong with its outcome (nil: it
// was refused as it should be), what it changed in the repository (as
// watch saw it) or left in its own directory among it.
func badRun(t *testing.T, c badCase, watch *badRepoWatch) []string {
	d := badTempDir(t)
	for rel, content := range c.files {
		if content == badFixture {
			content = badReadFixture(t, c.name)
		}
		badWrite(t, filepath.Join(d, rel), []byte(content))
	}
	if c.gen != nil {
		c.gen(t, d)
	}
	expand := func(s string) string { return strings.ReplaceAll(s, "$D", d) }
	args := make([]string, len(c.args))
	for i, a := range c.args {
		args[i] = expand(a)
	}
	before := badSnapshots(t, []string{d})

	out, hung := badCall(args)
	var problems []string
	switch {
	case hung:
		problems = append(problems, fmt.Sprintf("hang: no return within %v (ctx cancelled at the timeout)", badTimeout))
	case out.panicked != nil:
		problems = append(problems, fmt.Sprintf("panic: %v\n%s", out.panicked, badStackHead(out.stack)))
	case out.err == nil:
		problems = append(problems, "exit 0: the input was accepted; stdout: "+badHead(out.stdout))
	default:
		if got := exitCode(out.err); c.code != 0 && got != c.code {
			problems = append(problems, fmt.Sprintf("exit %d, want %d", got, c.code))
		}
		msg := out.err.Error() + "\n" + out.stdout
		for _, w := range c.want {
			if w = expand(w); !badContains(msg, w) {
				problems = append(problems, fmt.Sprintf("message does not name %q: %s", w, badHead(msg)))
			}
		}
	}
	if badInputsDump {
		m := ""
		if out.err != nil {
			m = out.err.Error()
		}
		t.Logf("args %q\nerr: %s\nstdout: %s", args, m, out.stdout)
	}
	// Drained even after a hang, so that what the case wrote so far is not
	// the next case's; a hung case may still be writing, so it is not judged.
	repoChanges := watch.changes(t)
	if !hung {
		problems = append(problems, repoChanges...)
		problems = append(problems, badDiff(before, badSnapshots(t, []string{d}))...)
	}
	return problems
}

// badCall runs the CLI in a goroutine with a deadline, recovering a panic.
// hung reports that it did not return within badTimeout (plus a grace
// period for the context's cancellation to be seen).
func badCall(args []string) (out badOutcome, hung bool) {
	ctx, cancel := context.WithTimeout(context.Background(), badTimeout)
	defer cancel()
	done := make(chan badOutcome, 1)
	go func() {
		var o badOutcome
		var stdout, stderr bytes.Buffer
		defer func() {
			if r := recover(); r != nil {
				o.panicked, o.stack = r, debug.Stack()
			}
			o.stdout, o.stderr = stdout.String(), stderr.String()
			done <- o
		}()
		o.err = Run(ctx, args, &stdout, &stderr)
	}()
	select {
	case o := <-done:
		return o, false
	case <-time.After(badTimeout + 2*time.Second):
		return badOutcome{}, true
	}
}

// badWrapped undoes run/check's wrapping of result lines at maxColumns
// (a path can be cut mid-word), joining continuation lines with and
// without a space.
var badWrapped = regexp.MustCompile(`\n +`)

func badContains(msg, want string) bool {
	return strings.Contains(msg, want) || strings.Contains(badWrapped.ReplaceAllString(msg, " "), want) ||
		strings.Contains(badWrapped.ReplaceAllString(msg, ""), want)
}

// badTempDir is a short temporary directory (run/check wrap long result
// lines, so short paths keep messages whole), removed after the case.
func badTempDir(t *testing.T) string {
	t.Helper()
	d, err := os.MkdirTemp("", "bi")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(d) })
	return d
}

// badWrite writes b to path, creating its directories.
func badWrite(t *testing.T, path string, b []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// badFixtureDir holds the text fixtures of the corpus.
var badFixtureDir = filepath.Join(root, "scripts", "badinputs")

// badFixturePath returns the fixture of case name: the one file
// scripts/badinputs/<kind>/<case>.*.
func badFixturePath(t *testing.T, name string) string {
	t.Helper()
	kind, base, _ := strings.Cut(name, "/")
	matches, err := filepath.Glob(filepath.Join(badFixtureDir, kind, base+".*"))
	if err != nil || len(matches) != 1 {
		t.Fatalf("case %s: want one fixture %s/%s.*, found %v (%v)", name, kind, base, matches, err)
	}
	return matches[0]
}

func badReadFixture(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(badFixturePath(t, name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// badCheckFixturesUsed fails on a fixture no case reads: every file of
// the corpus directory must be a case.
func badCheckFixturesUsed(t *testing.T, cases []badCase) {
	t.Helper()
	used := map[string]bool{}
	for _, c := range cases {
		for _, content := range c.files {
			if content == badFixture {
				used[badFixturePath(t, c.name)] = true
			}
		}
	}
	err := filepath.WalkDir(badFixtureDir, func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() || filepath.Dir(p) == badFixtureDir {
			return err
		}
		if !used[p] {
			t.Errorf("fixture %s is used by no case", p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// badHead is the start of s, for messages.
func badHead(s string) string {
	if len(s) > 600 {
		return s[:600] + "…"
	}
	return s
}

// badStackHead keeps the frames of a panic's stack below the recover.
func badStackHead(stack []byte) string {
	lines := strings.Split(string(stack), "\n")
	if len(lines) > 40 {
		lines = lines[:40]
	}
	return strings.Join(lines, "\n")
}

package main

// The README's examples as a test (issue 27): every fenced block of
// README.md is classified here, and TestReadmeExamples
// (readme_examples_test.go) runs the runnable ones in a fresh clone.
//
// A fence's info string says what it holds: "sh" is commands, run in
// README order unless the line right before the fence is a marker
//
//	<!-- readme-test: skip: <reason> -->   never run (needs root, hours, a cluster, your own files)
//	<!-- readme-test: slow: <reason> -->   run only with PSLAB_README_SLOW=1 (correct, but costly)
//
// "text", "csv", "toml" and "json" are output, layouts and file contents,
// never run; a line in them that looks like a command is an error (make
// the block sh, marked skip if it cannot run). A fence without an info
// string, a marker without a reason or not right before an sh fence, and
// a runnable block that reaches outside the repository ("../") are errors.

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// readmeMode is what TestReadmeExamples does with a block.
type readmeMode int

const (
	readmeNone readmeMode = iota // not commands (text, csv, ...)
	readmeRun                    // run
	readmeSkip                   // never run, with a reason
	readmeSlow                   // run with PSLAB_README_SLOW=1, with a reason
)

// readmeBlock is one fenced block of the README.
type readmeBlock struct {
	line   int    // 1-based line of the opening fence
	info   string // the info string's first word
	text   string // the block's lines, newline-terminated
	mode   readmeMode
	reason string // of a skip or slow marker
}

// readmeInfos are the info strings a fence may have, with whether the
// block holds commands.
var readmeInfos = map[string]bool{"sh": true, "text": false, "csv": false, "toml": false, "json": false}

// readmeCommandWords are first words that make a line of a non-sh block
// look like a command.
var readmeCommandWords = map[string]bool{"pslab": true, "go": true, "make": true, "kubectl": true, "sbatch": true,
	"srun": true, "git": true, "bash": true, "sh": true, "docker": true, "curl": true}

var (
	readmeFence  = regexp.MustCompile("^(```+)[ \t]*([^ \t`]*)")
	readmeMarker = regexp.MustCompile(`^<!--\s*readme-test:\s*([a-z]+):\s*(.*?)\s*-->\s*$`)
)

// parseReadme splits a Markdown text into its fenced blocks and
// classifies them; the errors name the line of every rule broken.
func parseReadme(md string) ([]readmeBlock, []error) {
	lines := strings.Split(md, "\n")
	var blocks []readmeBlock
	var errs []error
	bad := func(i int, format string, a ...any) {
		errs = append(errs, fmt.Errorf("README.md:%d: "+format, append([]any{i + 1}, a...)...))
	}
	markers := map[int]bool{} // line index → consumed by a fence
	lastText := -1            // index of the last non-blank line outside a fence
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if strings.HasPrefix(strings.TrimSpace(l), "<!--") && strings.Contains(l, "readme-test") {
			markers[i] = false
		}
		if !strings.HasPrefix(l, "```") {
			if strings.HasPrefix(strings.TrimSpace(l), "```") {
				bad(i, "indented fence: put fences at the start of the line")
			}
			if strings.TrimSpace(l) != "" {
				lastText = i
			}
			continue
		}
		m := readmeFence.FindStringSubmatch(l)
		b := readmeBlock{line: i + 1, info: m[2]}
		var body []string
		j := i + 1
		for ; j < len(lines) && strings.TrimSpace(lines[j]) != m[1]; j++ {
			body = append(body, lines[j])
		}
		if j == len(lines) {
			bad(i, "fence never closed")
		}
		b.text = strings.Join(body, "\n") + "\n"
		commands, known := readmeInfos[b.info]
		switch {
		case b.info == "":
			bad(i, "fence without an info string: sh for commands, text for output or layouts")
		case !known:
			bad(i, "fence info string %q: want one of sh, text, csv, toml, json", b.info)
		case commands:
			b.mode = readmeRun
		}
		if mark, ok := markers[lastText]; ok && !mark {
			markers[lastText] = true
			mm := readmeMarker.FindStringSubmatch(lines[lastText])
			switch {
			case mm == nil:
				bad(lastText, "malformed marker: want <!-- readme-test: skip|slow: reason -->")
			case !commands:
				bad(lastText, "marker before a %q block: only sh blocks run", b.info)
			case mm[1] != "skip" && mm[1] != "slow":
				bad(lastText, "marker %q: want skip or slow", mm[1])
			case len(strings.Fields(mm[2])) < 3:
				bad(lastText, "marker %q without a reason (a few words: why it cannot run here)", mm[1])
			case mm[1] == "skip":
				b.mode, b.reason = readmeSkip, mm[2]
			default:
				b.mode, b.reason = readmeSlow, mm[2]
			}
		}
		for k, bl := range body {
			if !commands && readmeLooksLikeCommand(bl) {
				bad(i+1+k, "%q block line looks like a command: make the block sh (marked skip if it cannot run)", b.info)
			}
			if (b.mode == readmeRun || b.mode == readmeSlow) && strings.Contains(bl, "../") {
				bad(i+1+k, "runnable example reads outside the repository (../): ship the input or mark the block skip")
			}
		}
		blocks = append(blocks, b)
		i = j
		lastText = -1
	}
	for i, used := range markers {
		if !used {
			bad(i, "readme-test marker not right before a fence")
		}
	}
	return blocks, errs
}

// readmeLooksLikeCommand: a shell prompt, or a first word that is a
// command pslab's README uses, a script or ./program.
func readmeLooksLikeCommand(line string) bool {
	l := strings.TrimSpace(line)
	if strings.HasPrefix(l, "$ ") {
		return true
	}
	f := strings.Fields(l)
	if len(f) == 0 {
		return false
	}
	w := f[0]
	return readmeCommandWords[w] || strings.HasPrefix(w, "./") || (strings.HasPrefix(w, "scripts/") && strings.HasSuffix(w, ".sh"))
}

// readReadme parses the repository's README.md, failing t on any error.
func readReadme(t *testing.T) []readmeBlock {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	blocks, errs := parseReadme(string(b))
	for _, e := range errs {
		t.Error(e)
	}
	if len(errs) > 0 {
		t.FailNow()
	}
	return blocks
}

// TestReadmeFences: every fenced block of README.md is classified, every
// skip has a reason, and no runnable example reads outside the clone.
// Cheap; runs under -short too.
func TestReadmeFences(t *testing.T) {
	t.Parallel()
	blocks := readReadme(t)
	count := map[readmeMode]int{}
	for _, b := range blocks {
		count[b.mode]++
	}
	if count[readmeRun] < 8 {
		t.Errorf("only %d runnable sh blocks in README.md; the examples should run (found %d blocks)", count[readmeRun], len(blocks))
	}
	t.Logf("%d blocks: %d run, %d slow, %d skipped, %d not commands",
		len(blocks), count[readmeRun], count[readmeSlow], count[readmeSkip], count[readmeNone])
}

// TestParseReadmeRules: the rules parseReadme enforces, one case each.
func TestParseReadmeRules(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, md, want string // want: "" for no error, else in the error
	}{
		{"runnable", "x\n```sh\npslab list\n```\n", ""},
		{"skip", "<!-- readme-test: skip: needs a real cluster -->\n```sh\nkubectl apply\n```\n", ""},
		{"text output", "```text\nshard 0/3: 19 of 56\n```\n", ""},
		{"no info string", "```\npslab list\n```\n", "without an info string"},
		{"unknown info", "```console\n$ pslab list\n```\n", `"console"`},
		{"command in text", "```text\npslab list\n```\n", "looks like a command"},
		{"skip without reason", "<!-- readme-test: skip: -->\n```sh\npslab list\n```\n", "without a reason"},
		{"unknown marker", "<!-- readme-test: maybe: for some reason -->\n```sh\npslab list\n```\n", `"maybe"`},
		{"orphan marker", "<!-- readme-test: skip: a reason given here -->\n\ntext\n```sh\npslab list\n```\n", "not right before"},
		{"marker on text", "<!-- readme-test: skip: a reason given here -->\n```text\nout\n```\n", "only sh blocks run"},
		{"outside the repo", "```sh\npslab import kineto ../shared/x.json\n```\n", "outside the repository"},
		{"unclosed", "```sh\npslab list\n", "never closed"},
		{"indented", "  ```sh\n  pslab list\n  ```\n", "indented fence"},
	}
	for _, c := range cases {
		blocks, errs := parseReadme(c.md)
		msg := fmt.Sprint(errs)
		if c.want == "" && len(errs) > 0 {
			t.Errorf("%s: unexpected errors %v", c.name, errs)
		}
		if c.want != "" && !strings.Contains(msg, c.want) {
			t.Errorf("%s: errors %v, want one containing %q", c.name, errs, c.want)
		}
		if c.name == "skip" && (len(blocks) != 1 || blocks[0].mode != readmeSkip || blocks[0].reason != "needs a real cluster") {
			t.Errorf("skip: got %+v", blocks)
		}
	}
}

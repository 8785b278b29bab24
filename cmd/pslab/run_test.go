package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/require"
)

const root = "../.."

// TestCheck runs one experiment through the CLI (every experiment runs in
// engine/kinds' TestExperiments).
func TestCheck(t *testing.T) {
	var out, errb bytes.Buffer
	err := Run(context.Background(), []string{"check", "-root", root, "-v", filepath.Join(root, "experiments", "icpe20", "fig23.toml")}, &out, &errb)
	require.NoError(t, err, errb.String())
	require.Contains(t, out.String(), "1 experiments, 4 checks, 0 recorded deviations, 0 inconclusive, 0 failed")
	require.Contains(t, out.String(), "pass: total_MiB.ps1", "results go to stdout")
	require.Contains(t, out.String(), "icpe20\n  ok   icpe20-fig23", "grouped by paper")
	require.Empty(t, errb.String(), "no progress when stderr is not a terminal")
	for _, l := range strings.Split(out.String(), "\n") {
		require.LessOrEqual(t, utf8.RuneCountInString(l), maxColumns, l)
	}
}

// TestWrap: long check messages wrap at maxColumns with the text indented.
func TestWrap(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	wrap(&b, "       deviation: ", strings.Repeat("word ", 60)+strings.Repeat("x", 300))
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	require.Greater(t, len(lines), 3)
	for _, l := range lines {
		require.LessOrEqual(t, utf8.RuneCountInString(l), maxColumns, l)
	}
	require.True(t, strings.HasPrefix(lines[1], strings.Repeat(" ", 18)+"word"), lines[1])
	require.Equal(t, 60, strings.Count(b.String(), "word"), "no word lost")
	require.Equal(t, 300, strings.Count(b.String(), "x"), "a long word is cut, not lost")
}

func TestMalformedExperimentGetsFileLine(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "experiments", "icpe20", "bad.toml")
	require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
	require.NoError(t, os.WriteFile(p, []byte("id = \"icpe20-bad\"\ntitel = \"x\"\n"), 0o644))
	var out, errb bytes.Buffer
	err := Run(context.Background(), []string{"check", "-root", dir}, &out, &errb)
	require.Error(t, err)
	// The message is wrapped to the terminal width, where it breaks depends
	// on the temporary directory's path: compare it unwrapped.
	require.Contains(t, strings.Join(strings.Fields(out.String()), " "), "bad.toml:2: unknown field \"titel\"")
}

func TestUsageAndUnknownCommand(t *testing.T) {
	var out, errb bytes.Buffer
	require.Error(t, Run(context.Background(), nil, &out, &errb))
	require.Contains(t, errb.String(), "usage: pslab")
	require.ErrorContains(t, Run(context.Background(), []string{"frobnicate"}, &out, &errb), `unknown command "frobnicate"`)
	require.NoError(t, Run(context.Background(), []string{"list", "-root", root}, &out, &errb))
	require.Contains(t, out.String(), "cynthia-fig6")
}

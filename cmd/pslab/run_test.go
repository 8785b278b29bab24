package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

const root = "../.."

// TestCheck runs one experiment through the CLI (every experiment runs in
// engine/kinds' TestExperiments).
func TestCheck(t *testing.T) {
	var out, errb bytes.Buffer
	err := Run(context.Background(), []string{"check", "-root", root, "-v", filepath.Join(root, "experiments", "icpe20", "fig23.toml")}, &out, &errb)
	require.NoError(t, err, errb.String())
	require.Contains(t, out.String(), "1 experiments, 4 checks, 0 recorded deviations, 0 failed")
	require.Contains(t, errb.String(), "pass: total_MiB.ps1")
}

func TestMalformedExperimentGetsFileLine(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "experiments", "icpe20", "bad.toml")
	require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
	require.NoError(t, os.WriteFile(p, []byte("id = \"icpe20-bad\"\ntitel = \"x\"\n"), 0o644))
	var out, errb bytes.Buffer
	err := Run(context.Background(), []string{"check", "-root", dir}, &out, &errb)
	require.Error(t, err)
	require.Contains(t, errb.String(), "bad.toml:2: unknown field \"titel\"")
}

func TestUsageAndUnknownCommand(t *testing.T) {
	var out, errb bytes.Buffer
	require.Error(t, Run(context.Background(), nil, &out, &errb))
	require.Contains(t, errb.String(), "usage: pslab")
	require.ErrorContains(t, Run(context.Background(), []string{"frobnicate"}, &out, &errb), `unknown command "frobnicate"`)
	require.NoError(t, Run(context.Background(), []string{"list", "-root", root}, &out, &errb))
	require.Contains(t, out.String(), "cynthia-fig6")
}

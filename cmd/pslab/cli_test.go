package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestHelpGoesToStdout: every subcommand's -h prints its usage to stdout
// and succeeds (it used to exit 1 with "flag: help requested").
func TestHelpGoesToStdout(t *testing.T) {
	t.Parallel()
	cases := [][]string{{"import", "tf-timeline", "-h"}, {"testbed", "worker", "-h"}}
	for name := range commands() {
		cases = append(cases, []string{name, "-h"})
	}
	for _, args := range cases {
		name := strings.Join(args, " ")
		var out, errb bytes.Buffer
		err := Run(context.Background(), args, &out, &errb)
		require.NoError(t, err, name)
		require.Equal(t, 0, exitCode(err))
		require.NotEmpty(t, out.String(), "%s -h prints nothing on stdout", name)
		require.Empty(t, errb.String(), "%s -h writes to stderr", name)
		require.NotContains(t, out.String(), "help requested")
	}
}

// TestUnknownFlagExits2: an unknown flag is a usage error (exit status 2)
// and the usage goes to stderr.
func TestUnknownFlagExits2(t *testing.T) {
	t.Parallel()
	for name := range commands() {
		args := []string{name, "-no-such-flag"}
		switch name {
		case "import":
			args = []string{name, "tf-timeline", "-no-such-flag"}
		case "testbed":
			args = []string{name, "worker", "-no-such-flag"}
		}
		var out, errb bytes.Buffer
		err := Run(context.Background(), args, &out, &errb)
		require.Error(t, err, name)
		require.Equal(t, 2, exitCode(err), "%s: %v", name, err)
		require.Contains(t, errb.String(), "-no-such-flag", name)
		require.Empty(t, out.String(), name)
	}
	require.Equal(t, 2, exitCode(Run(context.Background(), []string{"frobnicate"}, &bytes.Buffer{}, &bytes.Buffer{})))
}

func TestVersion(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	require.NoError(t, Run(context.Background(), []string{"version"}, &out, &bytes.Buffer{}))
	require.True(t, strings.HasPrefix(out.String(), "pslab "), out.String())
	require.Contains(t, out.String(), "revision ")
}

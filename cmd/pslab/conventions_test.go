package main

import (
	"bytes"
	"context"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// runCLI runs pslab in-process and returns stdout, stderr and the exit
// status main would give.
func runCLI(args ...string) (stdout, stderr string, code int, err error) {
	var out, errb bytes.Buffer
	err = Run(context.Background(), args, &out, &errb)
	return out.String(), errb.String(), exitCode(err), err
}

// TestUsageErrorsExit2: every usage error exits 2, as main.go's doc and
// the README promise: a required input or flag missing, a flag value out
// of range or unknown, flags that contradict each other, an experiment
// named twice. Errors of the data read exit 1. Several used to exit 1
// (issue 27).
func TestUsageErrorsExit2(t *testing.T) {
	t.Parallel()
	d := t.TempDir()
	toy := filepath.Join(d, "toy.arrow")
	badProfile(t, toy)
	exp := filepath.Join(d, "experiments", "mascots18", "twice.toml")
	badWrite(t, exp, []byte(badExperimentText("twice")))
	predict := func(flags ...string) []string {
		return append([]string{"predict", toy, "-bandwidth", "1Gbps", "-models", "mva-exact", "-workers", "1..2"}, flags...)
	}
	provision := func(flags ...string) []string {
		return append([]string{"provision", "-root", root, "-workload", "cifar10", "-loss", "0.8", "-time", "90"}, flags...)
	}
	cases := []struct {
		name string
		args []string
		code int
		want string // in the message
	}{
		{"predict without input", []string{"predict", "-bandwidth", "1Gbps"}, 2, "no input file"},
		{"predict profile without bandwidth", []string{"predict", toy}, 2, "-bandwidth is required"},
		{"predict unknown model", predict("-models", "oracle"), 2, "-models"},
		{"predict zero workers", predict("-workers", "0"), 2, "-workers"},
		{"predict negative workers", predict("-workers", "-5..3"), 2, "-workers"},
		{"predict negative ps", predict("-ps", "-1"), 2, "-ps"},
		{"predict zero gpus per node", predict("-gpus-per-node", "0"), 2, "-gpus-per-node"},
		{"predict negative gpus per node", predict("-gpus-per-node", "-2"), 2, "-gpus-per-node"},
		{"predict unknown format", predict("-format", "xml"), 2, "-format"},
		{"predict tiny bandwidth", predict("-bandwidth", "1e-300bps"), 2, "-bandwidth"},
		{"predict missing input file", []string{"predict", filepath.Join(d, "none.arrow"), "-bandwidth", "1Gbps"}, 1, "none.arrow"},
		{"export without arguments", []string{"export"}, 2, "want one Arrow file and -o OUT"},
		{"export unknown format", []string{"export", "-format", "xlsx", toy, "-o", filepath.Join(d, "x.xlsx")}, 2, "-format"},
		{"provision without loss", []string{"provision", "-root", root, "-workload", "cifar10", "-time", "90"}, 2, "-loss is required"},
		{"provision without workload", []string{"provision", "-root", root, "-loss", "0.8", "-time", "90"}, 2, "-workload"},
		{"provision negative max workers", provision("-max_workers", "-5"), 2, "-max_workers"},
		{"provision unknown format", provision("-format", "xml"), 2, "-format"},
		{"provision unknown workload", provision("-workload", "gpt-5"), 2, "-workload"},
		{"provision missing catalogue", provision("-instances", filepath.Join(d, "none.arrow")), 1, "none.arrow"},
		{"import without -o", []string{"import", "kineto", toy}, 2, "-o"},
		{"import negative step", []string{"import", "kineto", toy, "-o", filepath.Join(d, "o.arrow"), "-step", "-1"}, 2, "-step"},
		{"list unknown format", []string{"list", "-root", root, "-format", "xml"}, 2, "-format"},
		{"check unknown format", []string{"check", "-root", root, "-format", "xml"}, 2, "-format"},
		{"run negative -j", []string{"run", "-root", d, "-j", "-1", exp}, 2, "-j"},
		{"run the same file twice", []string{"check", "-root", d, exp, exp}, 2, "given twice"},
		{"report with an argument", []string{"report", "-root", d, "-o", filepath.Join(d, "report"), "x"}, 2, "unexpected arguments"},
		{"datasets with an argument", []string{"datasets", "-root", d, "x"}, 2, "no arguments"},
		{"help unknown command", []string{"help", "frobnicate"}, 2, "frobnicate"},
		{"version with an argument", []string{"version", "x"}, 2, "no arguments"},
		{"unknown flag", []string{"list", "-no-such-flag"}, 2, "-no-such-flag"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			_, _, code, err := runCLI(c.args...)
			require.Error(t, err)
			require.Equal(t, c.code, code, "%v", err)
			require.ErrorContains(t, err, c.want)
		})
	}
}

// TestVersionSpellings: pslab --version and -version print what pslab
// version prints (they were unknown commands).
func TestVersionSpellings(t *testing.T) {
	t.Parallel()
	want, _, code, err := runCLI("version")
	require.NoError(t, err)
	require.Equal(t, 0, code)
	for _, args := range [][]string{{"--version"}, {"-version"}} {
		got, _, code, err := runCLI(args...)
		require.NoError(t, err, "%v", args)
		require.Equal(t, 0, code)
		require.Equal(t, want, got, "%v", args)
	}
}

// TestHelpCommand: pslab help CMD prints what pslab CMD -h prints, the
// command's usage and flags, on stdout (it printed the general usage).
func TestHelpCommand(t *testing.T) {
	t.Parallel()
	cases := [][]string{{"import", "kineto"}, {"testbed", "worker"}}
	for name := range commands() {
		cases = append(cases, []string{name})
	}
	general, _, _, err := runCLI("help")
	require.NoError(t, err)
	for _, args := range cases {
		name := strings.Join(args, " ")
		want, _, _, err := runCLI(append(append([]string(nil), args...), "-h")...)
		require.NoError(t, err, name)
		got, errOut, code, err := runCLI(append([]string{"help"}, args...)...)
		require.NoError(t, err, name)
		require.Equal(t, 0, code, name)
		require.Empty(t, errOut, name)
		require.Equal(t, want, got, "pslab help %s differs from pslab %s -h", name, name)
		if name != "version" {
			require.NotEqual(t, general, got, "pslab help %s prints the general usage", name)
		}
	}
}

// TestVersionString: the version line from the build information, with
// a VCS stamp, a link-time stamp, or neither (GOFLAGS=-buildvcs=false),
// which used to print "(devel) revision unknown" and nothing else.
func TestVersionString(t *testing.T) {
	t.Parallel()
	set := func(kv ...string) []debug.BuildSetting {
		var out []debug.BuildSetting
		for i := 0; i < len(kv); i += 2 {
			out = append(out, debug.BuildSetting{Key: kv[i], Value: kv[i+1]})
		}
		return out
	}
	bi := func(settings []debug.BuildSetting) *debug.BuildInfo {
		return &debug.BuildInfo{GoVersion: "go1.23.0", Main: debug.Module{Path: "pslab", Version: "(devel)"}, Settings: settings}
	}
	cases := []struct {
		name  string
		bi    *debug.BuildInfo
		stamp string
		want  []string
		not   []string
	}{
		{"vcs", bi(set("vcs.revision", "abc123", "vcs.time", "2024-01-02T03:04:05Z")), "",
			[]string{"pslab (devel) revision abc123 2024-01-02T03:04:05Z go1.23.0"}, []string{"+modified", "unknown"}},
		{"vcs modified", bi(set("vcs.revision", "abc123", "vcs.modified", "true")), "",
			[]string{"revision abc123+modified"}, nil},
		{"vcs wins over the stamp", bi(set("vcs.revision", "abc123")), "v1.0-3-gdef",
			[]string{"revision abc123"}, []string{"v1.0-3-gdef"}},
		{"link-time stamp", bi(set("-buildvcs", "false")), "v1.0-3-gdef",
			[]string{"pslab (devel) revision v1.0-3-gdef (stamped at link time) go1.23.0"}, []string{"unknown"}},
		{"buildvcs false", bi(set("-buildvcs", "false")), "",
			[]string{"revision unknown", "built with -buildvcs=false", "git describe", "go build ./cmd/pslab"}, nil},
		{"no vcs at all", bi(nil), "",
			[]string{"revision unknown", "no VCS information", "git describe"}, []string{"-buildvcs=false"}},
		{"no build information", nil, "", []string{"pslab (no build information) revision unknown", "git describe"}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			got := versionString(c.bi, c.bi != nil, c.stamp)
			require.True(t, strings.HasPrefix(got, "pslab "), got)
			require.NotContains(t, got, "\n")
			for _, w := range c.want {
				require.Contains(t, got, w)
			}
			for _, n := range c.not {
				require.NotContains(t, got, n)
			}
		})
	}
}

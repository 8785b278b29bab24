package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"runtime/debug"
	"strings"
)

// usageError is a command line the command cannot parse: an unknown flag,
// a bad flag value or an unknown command. The flag package has already
// printed the problem and the usage to stderr; pslab exits with status 2.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

// exitCode is the process exit status for the error Run returned: 0 for
// none, 2 for a usage error, 1 otherwise.
func exitCode(err error) int {
	var ue usageError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ue):
		return 2
	}
	return 1
}

// wantsHelp reports whether args ask for help (-h, -help, --help) before
// a "--" terminator.
func wantsHelp(args []string) bool {
	for _, a := range args {
		switch a {
		case "--":
			return false
		case "-h", "-help", "--help", "--h":
			return true
		}
	}
	return false
}

// flagErrors are the messages the flag package gives to a bad command line.
var flagErrors = []string{"flag provided but not defined", "invalid value", "invalid boolean value",
	"bad flag syntax", "flag needs an argument"}

// isFlagError reports whether err is the flag package's parse error.
func isFlagError(err error) bool {
	if err == nil {
		return false
	}
	msg := err.Error()
	for _, p := range flagErrors {
		if strings.HasPrefix(msg, p) {
			return true
		}
	}
	return false
}

// runCommand runs one subcommand with Go's command-line conventions: with
// -h its usage goes to stdout and it succeeds; a command line the flag
// package cannot parse is a usageError.
func runCommand(ctx context.Context, c command, args []string, stdout, stderr io.Writer) error {
	if wantsHelp(args) {
		stderr = stdout // the flag package prints the usage to the flag set's output
	}
	err := c.run(ctx, args, stdout, stderr)
	switch {
	case errors.Is(err, flag.ErrHelp):
		return nil
	case isFlagError(err):
		return usageError{err}
	}
	return err
}

// version prints the module version and the VCS revision pslab was built
// from (runtime/debug.ReadBuildInfo).
func version(_ context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("version", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: pslab version\n\nprints the module version and VCS revision of this binary")
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	fmt.Fprintln(stdout, versionString())
	return nil
}

// versionString is "pslab <module version> <revision>[+modified] <go version>";
// "unknown" stands for what the build did not record (go run, -buildvcs=false).
func versionString() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "pslab unknown (no build information)"
	}
	ver, rev, dirty, when := bi.Main.Version, "unknown", "", ""
	if ver == "" {
		ver = "unknown"
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				dirty = "+modified"
			}
		case "vcs.time":
			when = " " + s.Value
		}
	}
	return fmt.Sprintf("pslab %s revision %s%s%s %s", ver, rev, dirty, when, bi.GoVersion)
}

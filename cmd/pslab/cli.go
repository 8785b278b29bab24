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

// usageError is a command line the command cannot use: an unknown
// command or flag, a flag value it cannot parse or that is out of range
// (-workers 0, -format xml, -max_workers -5), a required input or flag
// missing (predict with no input file, export without -o, provision
// without -loss) or flags that contradict each other. pslab exits with
// status 2 (main prints the message; for the flag package's own parse
// errors it has already printed it with the usage). Errors of the data a
// command reads, and of the work it does, exit 1.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

// usagef is a usageError with a formatted message (%w wraps as in
// fmt.Errorf).
func usagef(format string, args ...any) error { return usageError{fmt.Errorf(format, args...)} }

// asUsage makes err, if not nil, a usageError: every error of a step that
// only checks the command line.
func asUsage(err error) error {
	var ue usageError
	if err == nil || errors.As(err, &ue) {
		return err
	}
	return usageError{err}
}

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

// setUsage makes fs print "usage: pslab <synopsis>", what the command
// does (its summary in commands) and its flags: what `pslab help <cmd>`
// and `pslab <cmd> -h` show.
func setUsage(fs *flag.FlagSet, cmd, synopsis string) {
	fs.Usage = func() {
		w := fs.Output()
		fmt.Fprintf(w, "usage: pslab %s\n\n", synopsis)
		if c, ok := commands()[cmd]; ok {
			fmt.Fprintf(w, "%s\n\n", c.summary)
		}
		fmt.Fprintln(w, "flags:")
		fs.PrintDefaults()
	}
}

// version prints the module version and the VCS revision pslab was built
// from (runtime/debug.ReadBuildInfo); also `pslab --version` and
// `pslab -version`.
func version(_ context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("version", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: pslab version (or pslab --version)\n\nprints the module version and VCS revision of this binary")
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("version takes no arguments, got %v", fs.Args())
	}
	bi, ok := debug.ReadBuildInfo()
	fmt.Fprintln(stdout, versionString(bi, ok, buildRevision))
	return nil
}

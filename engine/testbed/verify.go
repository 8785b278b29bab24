package testbed

import (
	"flag"
	"fmt"
	"io"

	"pslab/engine/testbed/collection"
)

// verifyMain is `pslab testbed verify [-rejudge] [dir]`: judge and print
// every point of every committed configuration in dir (default
// datasets/testbed) and fail unless every point holds (collection.Verify;
// doc.go, "Judging a point"). -rejudge first writes the configurations'
// points and modes tables again from their runs (collection.RejudgeAll).
func verifyMain(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("testbed verify", flag.ContinueOnError)
	fs.SetOutput(stderr)
	rejudge := fs.Bool("rejudge", false, "first rewrite each configuration's points.arrow and modes.arrow from its committed runs under the current judging rules")
	if err := fs.Parse(args); err != nil {
		return err
	}
	dir := "datasets/testbed"
	switch fs.NArg() {
	case 0:
	case 1:
		dir = fs.Arg(0)
	default:
		return fmt.Errorf("testbed verify: want at most one directory, got %v", fs.Args())
	}
	if *rejudge {
		if err := collection.RejudgeAll(dir, stdout); err != nil {
			return fmt.Errorf("testbed verify -rejudge: %w", err)
		}
	}
	return collection.Verify(dir, stdout)
}

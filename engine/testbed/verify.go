package testbed

import (
	"flag"
	"fmt"
	"io"

	"pslab/engine/testbed/collection"
)

// verifyMain is `pslab testbed verify [dir]`: judge and print every point
// of every committed configuration in dir (default datasets/testbed) and
// fail unless every point holds (collection.Verify; doc.go, "Judging a
// point").
func verifyMain(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("testbed verify", flag.ContinueOnError)
	fs.SetOutput(stderr)
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
	return collection.Verify(dir, stdout)
}

package testbed

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"

	"pslab/engine/testbed/collection"
)

// timelineMain is `pslab testbed timeline dir...`: write each dataset
// directory's collection.TimelineFile from its collection.TraceFile,
// atomically (collection.WriteTimeline).
func timelineMain(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("testbed timeline", flag.ContinueOnError)
	fs.SetOutput(stderr)
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return errors.New("testbed timeline: want one or more dataset directories (each holding trace.arrow)")
	}
	for _, dir := range fs.Args() {
		if err := collection.WriteTimeline(dir); err != nil {
			return err
		}
		fmt.Fprintln(stdout, filepath.Join(dir, collection.TimelineFile))
	}
	return nil
}

package main

import (
	"flag"
	"io"
	"os"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// quietFlag registers -q on fs: no progress on stderr (results and errors
// still print).
func quietFlag(fs *flag.FlagSet) *bool {
	return fs.Bool("q", false, "quiet: no progress bar on stderr (results and errors still print)")
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// newBar returns a progress bar of total items on stderr, with count, rate,
// elapsed time and ETA, or nil (show nothing) under -q or when stderr is
// not a terminal: logs and pipes get no escape codes. unit names the items
// ("experiments", "events"). The bar clears itself when it finishes.
func newBar(stderr io.Writer, quiet bool, total int64, desc, unit string) *progressbar.ProgressBar {
	if quiet || !isTerminal(stderr) {
		return nil
	}
	return progressbar.NewOptions64(max(total, 1), progressbar.OptionSetWriter(stderr), progressbar.OptionSetDescription(desc),
		progressbar.OptionShowCount(), progressbar.OptionSetPredictTime(true), progressbar.OptionSetElapsedTime(true),
		progressbar.OptionShowElapsedTimeOnFinish(), progressbar.OptionSetItsString(unit), progressbar.OptionShowIts(),
		progressbar.OptionThrottle(200*time.Millisecond), progressbar.OptionClearOnFinish())
}

package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"time"

	"pslab/engine/report"
)

// reportMemoryLimit is the soft memory limit of `pslab report` (Go's
// runtime/debug.SetMemoryLimit; GOMEMLIMIT overrides it): the report holds
// its pages and one large dataset's conversion at a time, about 30 MB
// live, and without a limit Go's heap grows to twice that before it
// collects. The limit makes the collector run sooner instead, for a few
// percent more CPU; a larger live heap (a user's much larger dataset) is
// never refused, only collected more often.
const reportMemoryLimit = 64 << 20

// buildReport is `pslab report -o report/`: the static HTML notebook of
// every experiment, dataset and model, from the results `pslab run` wrote.
func buildReport(_ context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("report", flag.ContinueOnError)
	fs.SetOutput(stderr)
	setUsage(fs, "report", "report [-root dir] [-o dir] [-no-data] [-q]")
	root := fs.String("root", ".", "repository root (experiments/, golden/, figures/, datasets/)")
	out := fs.String("o", "report", "output directory, replaced as a whole")
	quiet := quietFlag(fs)
	noData := fs.Bool("no-data", false, "leave out the dataset downloads (Parquet and gzip'd CSV; pages link each Arrow file in the repository either way)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("report: unexpected arguments %v", fs.Args())
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		defer debug.SetMemoryLimit(debug.SetMemoryLimit(reportMemoryLimit))
	}
	start := time.Now()
	opt := report.Options{Root: *root, Out: *out, NoData: *noData}
	if bar := newBar(stderr, *quiet, 1, "report: dataset downloads", "datasets"); bar != nil {
		opt.Progress = func(done, total int) {
			bar.ChangeMax(total)
			_ = bar.Set(done)
		}
		defer bar.Close()
	}
	site, err := report.Build(opt)
	if err != nil {
		return err
	}
	t := site.Total
	fmt.Fprintf(stdout, "wrote %s: %d experiments (%d reproduced, %d partial, %d deviate), %d checks, %d missed claims, %d failed, %d datasets; %d files, %.1f MB\n",
		filepath.Join(*out, "index.html"), t.Experiments, t.Reproduced, t.Partial, t.Deviates, t.Counts.Total(), t.Counts.Missed, t.Counts.Failed, len(site.Datasets),
		site.Files, float64(site.Bytes)/1e6)
	if !*quiet {
		fmt.Fprintf(stderr, "report built in %v\n", time.Since(start).Round(time.Millisecond))
	}
	return nil
}

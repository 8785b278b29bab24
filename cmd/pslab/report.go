package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"time"

	"pslab/engine/report"
)

// buildReport is `pslab report -o report/`: the static HTML notebook of
// every experiment, dataset and model, from the results `pslab run` wrote.
func buildReport(_ context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("report", flag.ContinueOnError)
	fs.SetOutput(stderr)
	setUsage(fs, "report", "report [-root dir] [-o dir] [-no-data]")
	root := fs.String("root", ".", "repository root (experiments/, golden/, figures/, datasets/)")
	out := fs.String("o", "report", "output directory, replaced as a whole")
	noData := fs.Bool("no-data", false, "leave out the dataset downloads (Arrow copies, Parquet and CSV exports)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("report: unexpected arguments %v", fs.Args())
	}
	start := time.Now()
	site, err := report.Build(report.Options{Root: *root, Out: *out, NoData: *noData})
	if err != nil {
		return err
	}
	t := site.Total
	fmt.Fprintf(stdout, "wrote %s: %d experiments (%d reproduced, %d partial, %d deviate), %d checks, %d missed claims, %d failed, %d datasets\n",
		filepath.Join(*out, "index.html"), t.Experiments, t.Reproduced, t.Partial, t.Deviates, t.Counts.Total(), t.Counts.Missed, t.Counts.Failed, len(site.Datasets))
	fmt.Fprintf(stderr, "report built in %v\n", time.Since(start).Round(time.Millisecond))
	return nil
}

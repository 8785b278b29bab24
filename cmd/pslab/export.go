package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"pslab/engine/dataset"
	"pslab/engine/export"
)

// exportData is `pslab export -format parquet|csv FILE.arrow -o OUT`: an
// Arrow dataset as Parquet (units and provenance as key-value metadata) or
// CSV (units in the header as name[unit]).
func exportData(_ context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("export", flag.ContinueOnError)
	fs.SetOutput(stderr)
	format := fs.String("format", "parquet", "output format: "+strings.Join(export.Formats, " or "))
	out := fs.String("o", "", "output file (required; - is standard output; a name ending in .gz is gzip-compressed)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: pslab export -format parquet|csv FILE.arrow -o OUT")
		fs.PrintDefaults()
	}
	// Flags may follow the file: parse what comes after it too.
	if err := fs.Parse(args); err != nil {
		return err
	}
	var files []string
	for fs.NArg() > 0 {
		files = append(files, fs.Arg(0))
		if err := fs.Parse(fs.Args()[1:]); err != nil {
			return err
		}
	}
	if len(files) != 1 || *out == "" {
		fs.Usage()
		return usagef("export: want one Arrow file and -o OUT, got %d files%s", len(files), map[bool]string{true: " and no -o"}[*out == ""])
	}
	if !slices.Contains(export.Formats, *format) {
		return usagef("export: -format %q: want %s", *format, strings.Join(export.Formats, " or "))
	}
	if *out == "-" { // standard output
		b, err := export.Convert(*format, files[0], dataset.Allocator)
		if err != nil {
			return err
		}
		_, err = stdout.Write(b)
		return err
	}
	if err := export.File(*format, files[0], *out, dataset.Allocator); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %s (%s%s)\n", *out, *format, map[bool]string{true: ", gzip"}[strings.HasSuffix(*out, ".gz")])
	return nil
}

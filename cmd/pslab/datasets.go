package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"pslab/engine/dataset"
)

// buildDatasets rebuilds every Arrow dataset from its source: the reported
// paper tables from datasets/reported/<paper>/<name>.toml.
func buildDatasets(_ context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("datasets", flag.ContinueOnError)
	fs.SetOutput(stderr)
	root := fs.String("root", ".", "repository root")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("datasets takes no arguments, got %v", fs.Args())
	}
	n, err := buildReported(*root, stderr)
	fmt.Fprintf(stdout, "%d reported tables built\n", n)
	return err
}

func buildReported(root string, stderr io.Writer) (int, error) {
	srcs, err := filepath.Glob(filepath.Join(root, "datasets", "reported", "*", "*.toml"))
	if err != nil {
		return 0, err
	}
	if len(srcs) == 0 {
		return 0, fmt.Errorf("no reported sources in %s", filepath.Join(root, "datasets", "reported"))
	}
	for _, src := range srcs {
		t, err := dataset.ReadReported(src)
		if err != nil {
			return 0, err
		}
		rel, _ := filepath.Rel(root, src)
		t.Provenance.Command = "pslab datasets (from " + filepath.ToSlash(rel) + ")"
		out := strings.TrimSuffix(src, ".toml") + ".arrow"
		if err := dataset.Write(out, t, dataset.Allocator); err != nil {
			return 0, err
		}
		fmt.Fprintf(stderr, "built %s (%d rows)\n", strings.TrimSuffix(rel, ".toml")+".arrow", t.Len())
	}
	return len(srcs), nil
}

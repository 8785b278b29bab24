package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"
	"text/tabwriter"

	"pslab/engine/experiment"
	"pslab/engine/kinds"
)

// listEntry is one experiment of `pslab list` (-format json and csv).
type listEntry struct {
	ID     string  `json:"id"` // "" when the file cannot be read
	Paper  string  `json:"paper"`
	Kind   string  `json:"kind"`
	Status string  `json:"status"`
	File   string  `json:"file"`  // relative to -root
	Error  *string `json:"error"` // null when the file reads
}

// listKind is one experiment kind of `pslab list -format json`.
type listKind struct {
	Name   string   `json:"name"`
	Doc    string   `json:"doc"`
	Models []string `json:"models"`
}

// listDoc is the document of `pslab list -format json`.
type listDoc struct {
	Experiments []listEntry `json:"experiments"`
	Kinds       []listKind  `json:"kinds"`
}

// list is `pslab list`: the experiments (id, kind, status, file) and the
// experiment kinds with their models. -format json gives both as one
// document, -format csv the experiments (one row each). A file that
// cannot be read is listed with its error, and the command then fails.
func list(_ context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("list", flag.ContinueOnError)
	fs.SetOutput(stderr)
	setUsage(fs, "list", "list [-root dir] [-format text|json|csv] [experiment files or dirs]")
	root := fs.String("root", ".", "repository root")
	format := registerFormat(fs, "csv: the experiments, one row each; json: experiments and kinds")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if err := checkFormat("list", *format); err != nil {
		return err
	}
	paths, err := experiment.Find(*root, fs.Args())
	if err != nil {
		return err
	}
	var doc listDoc
	var errs []error
	for _, p := range paths {
		rel, relErr := filepath.Rel(*root, p)
		if relErr != nil {
			rel = p
		}
		s, err := experiment.Load(p)
		if err != nil {
			errs = append(errs, err)
			msg := err.Error()
			doc.Experiments = append(doc.Experiments, listEntry{File: rel, Error: &msg})
			continue
		}
		doc.Experiments = append(doc.Experiments, listEntry{ID: s.ID, Paper: s.Paper, Kind: s.Kind, Status: s.Status, File: rel})
	}
	reg := kinds.Registry()
	names := reg.Names()
	sort.Strings(names)
	for _, n := range names {
		doc.Kinds = append(doc.Kinds, listKind{Name: n, Doc: reg[n].Doc, Models: append([]string{}, reg[n].Models...)})
	}
	if err := writeList(stdout, *format, doc); err != nil {
		return err
	}
	return errors.Join(errs...)
}

// writeList prints the list in format.
func writeList(w io.Writer, format string, doc listDoc) error {
	switch format {
	case "json":
		return writeJSON(w, doc)
	case "csv":
		rows := make([][]string, len(doc.Experiments))
		for i, e := range doc.Experiments {
			msg := ""
			if e.Error != nil {
				msg = *e.Error
			}
			rows[i] = []string{e.ID, e.Paper, e.Kind, e.Status, filepath.ToSlash(e.File), msg}
		}
		return writeCSV(w, []string{"id", "paper", "kind", "status", "file", "error"}, rows)
	}
	tw := tabwriter.NewWriter(w, 2, 8, 2, ' ', 0)
	fmt.Fprintln(tw, "EXPERIMENT\tKIND\tSTATUS\tFILE")
	for _, e := range doc.Experiments {
		if e.Error == nil {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", e.ID, e.Kind, e.Status, e.File)
		}
	}
	tw.Flush()
	fmt.Fprintln(w, "\nKINDS")
	for _, k := range doc.Kinds {
		fmt.Fprintf(w, "  %-28s %s (models: %s)\n", k.Name, k.Doc, strings.Join(k.Models, ", "))
	}
	return nil
}

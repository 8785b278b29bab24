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

	"pslab/engine/shard"
)

// mergeShards joins the shards of one sharded run or sweep:
//
//	pslab merge [-root dir] DIR...
//
// Each DIR is a shard directory (shard-<i>-of-<N>, holding shard.json) or
// the -shard-dir holding them. The shards must be all N of one command
// line and one revision (engine/shard Check). The shards of pslab run are
// verified completely, then copied to figures/ under -root (default: the
// current directory; never a directory a shard names, see mergeRun);
// those of pslab predict are joined and written where the command line
// says (-o, -figure, or stdout), as the unsharded command would.
func mergeShards(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("merge", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: pslab merge [-root dir] DIR...\n\n"+
			"DIR: a shard directory of 'pslab run -shard i/N' or 'pslab predict -shard i/N' (shard-<i>-of-<N>),\n"+
			"or the -shard-dir that holds them. Every shard of one command line and revision must be there.\n\nflags:")
		fs.PrintDefaults()
	}
	root := fs.String("root", "", "pslab run shards: write figures/ under this directory (default: the current directory, whatever root the shards ran with)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return usageError{errors.New("merge: no shard directories")}
	}
	dirs, err := shard.Find(fs.Args())
	if err != nil {
		return fmt.Errorf("merge: %w", err)
	}
	var metas []*shard.Meta
	for _, d := range dirs {
		m, err := shard.ReadMeta(d)
		if err != nil {
			return fmt.Errorf("merge: %w", err)
		}
		metas = append(metas, m)
	}
	if err := shard.Check(metas); err != nil {
		return fmt.Errorf("merge: %w", err)
	}
	sort.Slice(metas, func(i, j int) bool { return metas[i].Index < metas[j].Index })
	ref := metas[0]
	switch {
	case ref.Revision == "unknown":
		fmt.Fprintf(stderr, "merge: warning: the shards record no VCS revision (set $%s when the binary has none): cannot tell whether they ran the same code\n", shard.RevisionEnv)
	case ref.Modified:
		fmt.Fprintf(stderr, "merge: warning: the shards were built from a modified tree at %s: cannot tell whether they ran the same code\n", ref.Revision)
	}
	switch ref.Command[0] {
	case "run":
		return mergeRun(metas, *root, stdout, stderr)
	case "predict":
		if *root != "" {
			return usageError{fmt.Errorf("merge: -root applies to shards of pslab run; %s writes where its command line says", ref.CommandLine())}
		}
		if err := shard.Verify(metas); err != nil {
			return fmt.Errorf("merge: %w", err)
		}
		var parts []shard.Part
		for _, m := range metas {
			p, err := shard.ReadParts(m)
			if err != nil {
				return fmt.Errorf("merge: %w", err)
			}
			parts = append(parts, p...)
		}
		return predictThroughput(withParts(ctx, parts), ref.Command[1:], stdout, stderr)
	}
	return fmt.Errorf("merge: %s ran %q, which has no shards to merge", ref.Name(), ref.CommandLine())
}

// mergeRun copies the figures of pslab run's shards to figures/ under
// root (the current directory for ""), and nowhere else: the root a shard
// records (its -root on another machine) is reported when it differs but
// never used, and every listed path must lie inside figures/. It writes
// nothing unless every shard verifies (engine/shard MergeFiles); a refused
// merge leaves the disk as it was.
func mergeRun(metas []*shard.Meta, root string, stdout, stderr io.Writer) error {
	if root == "" {
		root = "."
	}
	out := filepath.Join(root, "figures")
	if rec := metas[0].Root; rec != "" && filepath.Clean(rec) != filepath.Clean(root) {
		fmt.Fprintf(stderr, "merge: note: the shards ran with -root %q; merging into %s (merge -root chooses where)\n", rec, out)
	}
	if err := shard.MergeFiles(metas, out); err != nil {
		return fmt.Errorf("merge: %w", err)
	}
	items, files := 0, 0
	var failed []string
	for _, m := range metas {
		items += len(m.Items)
		files += len(m.Files)
		failed = append(failed, m.Failed...)
	}
	fmt.Fprintf(stdout, "merged %d shards: %d experiments, %d files into %s\n", len(metas), items, files, out)
	if len(failed) > 0 {
		sort.Strings(failed)
		return fmt.Errorf("%d of %d experiments failed in their shards: %s", len(failed), items, strings.Join(failed, ", "))
	}
	return nil
}

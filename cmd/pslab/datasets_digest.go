package main

import (
	"fmt"
	"io"
	"os"

	"pslab/engine/atomicfile"
	"pslab/engine/dataset"
)

// addDigests rewrites each pslab Arrow file in paths with its content
// digest (dataset.AddDigest), for files written before digests existed,
// which reads refuse. Every file is read and checked before any is
// written; each is replaced atomically. A file that already carries a
// valid digest is left as it is.
func addDigests(paths []string, stdout io.Writer) error {
	if len(paths) == 0 {
		return usagef("-add-digest needs the Arrow files to give a digest")
	}
	type rewrite struct {
		path string
		b    []byte
	}
	var todo []rewrite
	for _, p := range paths {
		old, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		b, err := dataset.AddDigest(old, dataset.Allocator)
		if err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
		if _, err := dataset.Decode(old, nil, dataset.Allocator); err == nil {
			fmt.Fprintf(stdout, "%s: already has a valid digest, left as it is\n", p)
			continue
		}
		todo = append(todo, rewrite{p, b})
	}
	for _, w := range todo {
		if err := atomicfile.Write(w.path, w.b); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%s: digest added\n", w.path)
	}
	return nil
}

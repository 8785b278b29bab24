package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"pslab/engine/dataset"
	"pslab/engine/importer"
	"pslab/engine/zoo"
)

// Provenance of the PipeDream profiles in ../shared/datasets.
const (
	pipedreamRepo    = "github.com/msr-fiddle/pipedream"
	pipedreamCommit  = "7db6a1c3e64996d5b319faec6ca38cb31bfea1c4"
	pipedreamLicence = "MIT, Copyright (c) 2015 - present Microsoft Corporation (pipedream-profiles/LICENSE.txt)"
	pipedreamNotes   = "PipeDream profiler per-layer measurements. forward_s and backward_s converted from the file's " +
		"milliseconds to seconds; sizes in bytes; batch inferred from the Input node's activation size " +
		"(batch·3·side²·4 bytes, zoo.InferBatch); the Input row's forward time is data loading, not compute; " +
		"the GPU is not recorded in the files (PipeDream's experiments used NVIDIA V100s)."
)

// buildDatasets rebuilds every Arrow dataset from its source: the reported
// paper tables from datasets/reported/<paper>/<name>.toml, the PipeDream
// zoo profiles into datasets/zoo/<model>.arrow, the Philly trace into
// datasets/philly/jobs.arrow and TensorFlow's benchmark table into
// datasets/tf-benchmarks/single-node.arrow, from the shared raw data, and
// the derived datasets/zoo/resnet152.arrow from the resnet101 profile.
func buildDatasets(_ context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("datasets", flag.ContinueOnError)
	fs.SetOutput(stderr)
	setUsage(fs, "datasets", "datasets [-root dir] [-shared dir]\n       pslab datasets -add-digest FILE.arrow...")
	root := fs.String("root", ".", "repository root")
	shared := fs.String("shared", "", "shared raw data directory holding datasets/ (default: ../shared relative to -root)")
	digest := fs.Bool("add-digest", false, "instead: give each pslab Arrow FILE written before content digests its digest (check the files first)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *digest {
		return addDigests(fs.Args(), stdout)
	}
	if fs.NArg() > 0 {
		return usagef("datasets takes no arguments, got %v", fs.Args())
	}
	if _, err := buildInstances(*root, stderr); err != nil { // datasets/cynthia/instances.toml
		return err
	}
	n, err := buildReported(*root, stderr)
	fmt.Fprintf(stdout, "%d reported tables built\n", n)
	if err != nil {
		return err
	}
	dir, explicit := *shared, *shared != ""
	if !explicit {
		dir = filepath.Join(*root, "..", "shared")
	}
	raw := filepath.Join(dir, "datasets")
	if _, err := os.Stat(raw); err != nil {
		if explicit {
			return fmt.Errorf("-shared %s: %w", dir, err)
		}
		fmt.Fprintf(stderr, "shared raw data not found at %s: zoo profiles, the Philly trace and the TensorFlow benchmark "+
			"table NOT rebuilt (the committed datasets/zoo, datasets/philly and datasets/tf-benchmarks files are kept; "+
			"pass -shared <dir>)\n", raw)
		fmt.Fprintln(stdout, "zoo profiles and Philly trace skipped: no shared raw data")
		fmt.Fprintln(stdout, "TensorFlow benchmark table skipped: no shared raw data")
		return buildDerivedZoo(*root, stderr) // from the committed resnet101 profile
	}
	nz, err := buildZoo(*root, raw, stderr)
	fmt.Fprintf(stdout, "%d zoo profiles built\n", nz)
	if err != nil {
		return err
	}
	if err := buildDerivedZoo(*root, stderr); err != nil {
		return err
	}
	fmt.Fprintln(stdout, "1 derived zoo profile built (resnet152)")
	nt, err := buildTFBench(*root, raw, stderr)
	fmt.Fprintf(stdout, "%d TensorFlow benchmark rows built\n", nt)
	if err != nil {
		return err
	}
	jobs, err := buildPhilly(*root, raw, stderr)
	fmt.Fprintf(stdout, "%d Philly jobs built\n", jobs)
	if err != nil {
		return err
	}
	nb, err := buildBYO(*root, raw, stderr) // datasets/byo (cmd/pslab/predict.go)
	fmt.Fprintf(stdout, "%d bring-your-own-hardware profiles built\n", nb)
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
	return len(srcs), buildSources(root, srcs, dataset.ReadReported, "rows", stderr)
}

// buildSources converts each TOML source into the Arrow file next to it
// (x.toml → x.arrow), recording the command in the provenance; what names
// the rows in the progress lines.
func buildSources(root string, srcs []string, read func(path string) (*dataset.Table, error), what string, stderr io.Writer) error {
	for _, src := range srcs {
		t, err := read(src)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, src)
		rel = filepath.ToSlash(rel)
		t.Provenance.Command = "pslab datasets (from " + rel + ")"
		out := strings.TrimSuffix(src, ".toml") + ".arrow"
		if err := dataset.Write(out, t, dataset.Allocator); err != nil {
			return err
		}
		fmt.Fprintf(stderr, "built %s (%d %s)\n", strings.TrimSuffix(rel, ".toml")+".arrow", t.Len(), what)
	}
	return nil
}

// buildZoo converts every PipeDream graph in raw/pipedream-profiles to
// datasets/zoo/<model>.arrow.
func buildZoo(root, raw string, stderr io.Writer) (int, error) {
	srcs, err := filepath.Glob(filepath.Join(raw, "pipedream-profiles", "*.graph.txt"))
	if err != nil {
		return 0, err
	}
	if len(srcs) == 0 {
		return 0, fmt.Errorf("no PipeDream profiles (*.graph.txt) in %s", filepath.Join(raw, "pipedream-profiles"))
	}
	for i, src := range srcs {
		p, err := parseProfile(src)
		if err != nil {
			return i, err
		}
		prov := dataset.Provenance{
			Origin: dataset.Measured,
			Source: fmt.Sprintf("PipeDream profiler, %s, profiler/image_classification/profiles/%s/graph.txt, commit %s",
				pipedreamRepo, p.Model, pipedreamCommit),
			Licence: pipedreamLicence,
			Command: "pslab datasets (zoo.Parse of ../shared/datasets/pipedream-profiles/" + filepath.Base(src) + ")",
			Notes:   pipedreamNotes,
		}
		t, err := zoo.ProfileTable(p, prov)
		if err != nil {
			return i, fmt.Errorf("%s: %w", src, err)
		}
		out := filepath.Join(root, "datasets", "zoo", p.Model+".arrow")
		if err := dataset.Write(out, t, dataset.Allocator); err != nil {
			return i, err
		}
		fmt.Fprintf(stderr, "built datasets/zoo/%s.arrow (%d layers, batch %d)\n", p.Model, t.Len(), p.Batch)
	}
	return len(srcs), nil
}

func parseProfile(path string) (*zoo.Profile, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return zoo.Parse(f, filepath.Base(path))
}

// buildPhilly converts raw/philly/philly.csv to datasets/philly/jobs.arrow.
func buildPhilly(root, raw string, stderr io.Writer) (int, error) {
	src := filepath.Join(raw, "philly", "philly.csv")
	f, err := os.Open(src)
	if errors.Is(err, os.ErrNotExist) {
		return 0, fmt.Errorf("philly trace missing: %w", err)
	}
	if err != nil {
		return 0, err
	}
	defer f.Close()
	prov := dataset.Provenance{
		Origin:  dataset.Measured,
		Source:  importer.PhillySource,
		Licence: importer.PhillyLicence,
		Command: "pslab datasets (importer.ReadPhilly of ../shared/datasets/philly/philly.csv)",
		Notes: "one row per job in file order; timestamp is the submission time read as UTC, in seconds since 1970; " +
			"duration in seconds; gpu_time = duration × num_gpus in GPU·s",
	}
	t, err := importer.ReadPhilly(f, "philly.csv", prov)
	if err != nil {
		return 0, err
	}
	if err := dataset.Write(filepath.Join(root, "datasets", "philly", "jobs.arrow"), t, dataset.Allocator); err != nil {
		return 0, err
	}
	fmt.Fprintf(stderr, "built datasets/philly/jobs.arrow (%d jobs)\n", t.Len())
	return t.Len(), nil
}

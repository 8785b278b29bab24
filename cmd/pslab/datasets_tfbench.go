package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"pslab/engine/dataset"
	"pslab/engine/importer"
	"pslab/engine/zoo"
)

// Where the TensorFlow benchmark table comes from and goes.
const (
	tfBenchRaw = "tf-benchmarks-2017/tf-cnn-benchmarks-single-node.csv"
	tfBenchOut = "datasets/tf-benchmarks/single-node.arrow"
)

// buildTFBench converts raw/<tfBenchRaw> to <tfBenchOut>.
func buildTFBench(root, raw string, stderr io.Writer) (int, error) {
	src := filepath.Join(raw, filepath.FromSlash(tfBenchRaw))
	f, err := os.Open(src)
	if errors.Is(err, os.ErrNotExist) {
		return 0, fmt.Errorf("TensorFlow benchmark table missing: %w", err)
	}
	if err != nil {
		return 0, err
	}
	defer f.Close()
	prov := dataset.Provenance{
		Origin:  dataset.Reported,
		Source:  importer.TFBenchmarksSource,
		Licence: importer.TFBenchmarksLicence,
		Command: "pslab datasets (importer.ReadTFBenchmarks of ../shared/datasets/" + tfBenchRaw + ")",
		Notes: "reported: measured on real hardware by the TensorFlow team (test date May 2017; each run 5 times and " +
			"averaged, 10 warm-up steps then 100 steps averaged, optimizer sgd, K80s with GPU Boost on), copied from the " +
			"page's tables; nothing measured by pslab. One row per table cell in file order; throughput is the whole " +
			"node's images/s (the source's images_per_s); N/A cells are absent rows. Platforms: nvidia-dgx1 (8x Tesla " +
			"P100 NVLink, Ubuntu 16.04 in Docker, CUDA 8.0, cuDNN 5.1, TensorFlow b1e174e, tf_cnn_benchmarks 9165a70); " +
			"gce-n1-standard-32-k80x8 (8 Tesla K80 GPUs on 4 boards of 2, same software)",
	}
	t, err := importer.ReadTFBenchmarks(f, filepath.Base(src), prov)
	if err != nil {
		return 0, err
	}
	if err := dataset.Write(filepath.Join(root, filepath.FromSlash(tfBenchOut)), t, dataset.Allocator); err != nil {
		return 0, err
	}
	fmt.Fprintf(stderr, "built %s (%d rows)\n", tfBenchOut, t.Len())
	return t.Len(), nil
}

// buildDerivedZoo writes datasets/zoo/resnet152.arrow, derived from the
// committed datasets/zoo/resnet101.arrow (zoo.DeriveResNet152), so it is
// rebuilt with or without the shared raw data; without a resnet101
// profile it says so and builds nothing.
func buildDerivedZoo(root string, stderr io.Writer) error {
	src := filepath.Join(root, "datasets", "zoo", "resnet101.arrow")
	if _, err := os.Stat(src); errors.Is(err, os.ErrNotExist) {
		fmt.Fprintf(stderr, "datasets/zoo/resnet152.arrow NOT derived: no %s\n", src)
		return nil
	}
	t, err := dataset.Read(src, zoo.ProfileSchema, dataset.Allocator)
	if err != nil {
		return err
	}
	p, err := zoo.ProfileFromTable(t)
	if err != nil {
		return fmt.Errorf("%s: %w", src, err)
	}
	q, err := zoo.DeriveResNet152(p)
	if err != nil {
		return fmt.Errorf("%s: %w", src, err)
	}
	prov := dataset.Provenance{
		Origin: dataset.Derived,
		Source: "derived from datasets/zoo/resnet101.arrow (" + t.Provenance.Source + ") and ResNet-152's architecture " +
			"(He, Zhang, Ren, Sun, CVPR 2016, Table 1: [3, 8, 36, 3] bottleneck blocks; torchvision resnet152, 60,192,808 parameters)",
		Licence: t.Provenance.Licence,
		Command: "pslab datasets (zoo.DeriveResNet152 of datasets/zoo/resnet101.arrow)",
		Notes: "no public per-layer profile of ResNet-152 exists in the PipeDream profiles; this one is ResNet-101's " +
			"measured profile plus 4 identity bottleneck blocks in stage 2 and 13 in stage 3, each a copy of that " +
			"stage's last measured identity block (layers <name>.copy<k>): the same layer shapes, so the same FLOPs, " +
			"and with compute scaled by FLOPs the same times and parameters. Derived, not measured. " + t.Provenance.Notes,
		Extra: t.Provenance.Extra,
	}
	out, err := zoo.ProfileTable(q, prov)
	if err != nil {
		return err
	}
	if err := dataset.Write(filepath.Join(root, "datasets", "zoo", "resnet152.arrow"), out, dataset.Allocator); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "built datasets/zoo/resnet152.arrow (%d layers, batch %d, derived from resnet101)\n", out.Len(), q.Batch)
	return nil
}

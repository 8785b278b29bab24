package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"pslab/engine/dataset"
	"pslab/engine/predict"
)

// defaultTrust are the accuracy tables the trust bands come from: the
// per-point errors of the experiments that judge every model on measured
// data (pslab's testbed, TensorFlow's published tables), as committed
// under figures/ and read relative to the working directory.
const defaultTrust = "figures/beyond/testbed-accuracy.accuracy.arrow,figures/beyond/tf-benchmarks.accuracy.arrow"

// loadTrust reads -trust into f.trust. "none" turns the bands off. A
// default table that is absent (a clone without figures/, or a run from
// another directory) is reported in the output, not an error; a table
// named on the command line must exist; a malformed table is an error
// naming the file.
func (f *predictFlags) loadTrust() error {
	if f.trustFiles == "none" {
		return nil
	}
	d := &predict.TrustData{Rule: predict.DefaultTrustRule}
	var absent []string
	for _, path := range strings.Split(f.trustFiles, ",") {
		path = strings.TrimSpace(path)
		if path == "" {
			continue
		}
		if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) && !f.set["trust"] {
			absent = append(absent, path)
			continue
		}
		t, err := dataset.Read(path, predict.AccuracySchema, dataset.Allocator)
		if err != nil {
			return fmt.Errorf("predict: -trust: %w", err)
		}
		pts, err := predict.TrustPoints(t)
		if err != nil {
			return fmt.Errorf("predict: -trust: %s: %w", path, err)
		}
		d.Points, d.Sources = append(d.Points, pts...), append(d.Sources, path)
	}
	if len(d.Sources) == 0 {
		d.Missing = fmt.Sprintf("no accuracy tables: %s not found; run from the repository root, or write them with "+
			"pslab run experiments/beyond/testbed-accuracy.toml experiments/beyond/tf-benchmarks.toml", strings.Join(absent, ", "))
	}
	f.trust = d
	return nil
}

package main

import (
	"io"
	"path/filepath"

	"pslab/engine/dataset"
)

// The Kineto sample of datasets/byo ("Bring your own hardware"): rank 0 of
// HolisticTraceAnalysis's sampled test trace, imported as `pslab import
// kineto` would with the provenance below.
const (
	byoKinetoFile    = "kineto-hta-sampled_rank-0.json.gz"
	byoKinetoOut     = "datasets/byo/kineto-hta-rank0.arrow"
	byoKinetoModel   = "hta-sample-rank0"
	byoKinetoSource  = "PyTorch Kineto trace of rank 0 of a 128-rank NCCL training job (events sampled), github.com/facebookresearch/HolisticTraceAnalysis, tests/data/trace_filter/, commit f4d0062c382f42bd8a74838bcdad1916c7d5d2da"
	byoKinetoLicence = "MIT, Copyright (c) Meta Platforms, Inc. and affiliates (traces/LICENSE-HolisticTraceAnalysis.txt)"
)

// buildBYO imports raw/traces/<byoKinetoFile> into datasets/byo, as
// `pslab import kineto` does (called by `pslab datasets`).
func buildBYO(root, raw string, stderr io.Writer) (int, error) {
	src := filepath.Join(raw, "traces", byoKinetoFile)
	f := &importFlags{out: filepath.Join(root, byoKinetoOut), source: byoKinetoSource, licence: byoKinetoLicence,
		origin: dataset.Measured, model: byoKinetoModel,
		command: "pslab datasets (pslab import kineto -model " + byoKinetoModel + " ../shared/datasets/traces/" + byoKinetoFile + " -o " + byoKinetoOut + ")"}
	if err := importKineto(f, []string{src}, stderr); err != nil {
		return 0, err
	}
	return 1, nil
}

package sched

import (
	"fmt"
	"math"
)

// ModelSpec is one row of mascots18 Table III (numbers reported by the
// paper, taken from its reference [35]).
type ModelSpec struct {
	Name string
	// Examples is |D|, training examples per epoch.
	Examples float64
	// ModelBytes is the model size in bytes (the paper's MB read as 10⁶ B,
	// CATALOGUE M-12), sent once per step in each direction.
	ModelBytes float64
	// TFLOPPerBatch is the forward+backward work of one mini-batch of 1024
	// examples in TFLOP (10¹² FLOP; the table's "TFLOPS/batch", M-12).
	TFLOPPerBatch float64
	// Epochs is the mean number of epochs of a job.
	Epochs float64
}

// Platform is the simulated hardware of mascots18 §V-B.
type Platform struct {
	// FLOPS is the compute rate of one node in FLOP/s, used at 100%
	// efficiency (M-12: the efficiency is not given).
	FLOPS float64
	// LinkBytesPerSec is the network interface rate of a node in bytes/s.
	LinkBytesPerSec float64
	// Batch is the mini-batch size in examples.
	Batch int
	// ServerSeconds is S^S, the PS update time per step in seconds (not
	// given by the paper, M-12; PaperPlatform assumes 0).
	ServerSeconds float64
}

// PaperPlatform is the mascots18 scheduling platform: one NVIDIA Grid K520 at
// 1229 GFLOPS (1.229·10¹² FLOP/s) and a 1 Gbps interface (1.25·10⁸ bytes/s)
// per node, mini-batches of 1024 examples, and S^S = 0 (assumed).
func PaperPlatform() Platform {
	return Platform{FLOPS: 1229e9, LinkBytesPerSec: 1e9 / 8, Batch: 1024}
}

// TableIIISpecs returns the four rows of mascots18 Table III (reported).
func TableIIISpecs() []ModelSpec {
	return []ModelSpec{
		{Name: "NiN", Examples: 50_000, ModelBytes: 30e6, TFLOPPerBatch: 6.7, Epochs: 200},
		{Name: "GoogLeNet", Examples: 1.2e6, ModelBytes: 54e6, TFLOPPerBatch: 9.7, Epochs: 200},
		{Name: "AlexNet", Examples: 1.2e6, ModelBytes: 249e6, TFLOPPerBatch: 7.0, Epochs: 90},
		{Name: "VGG19", Examples: 1.2e6, ModelBytes: 575e6, TFLOPPerBatch: 120, Epochs: 74},
	}
}

// Phases derives the per-step service times of m on platform p (DERIVED,
// not in the paper): S^W = TFLOPPerBatch·10¹²·(Batch/1024)/FLOPS,
// S^U = S^D = ModelBytes/LinkBytesPerSec, S^S = ServerSeconds. For AlexNet
// on PaperPlatform: S^W = 5.696 s, S^U = S^D = 1.992 s.
func (m ModelSpec) Phases(p Platform) (Phases, error) {
	for _, f := range []struct {
		name string
		v    float64
	}{{"FLOPS", p.FLOPS}, {"LinkBytesPerSec", p.LinkBytesPerSec}} {
		if !(f.v > 0) || math.IsInf(f.v, 0) {
			return Phases{}, fmt.Errorf("sched: platform %s %v, need finite > 0", f.name, f.v)
		}
	}
	if p.Batch < 1 {
		return Phases{}, fmt.Errorf("sched: platform Batch %d, need ≥ 1", p.Batch)
	}
	if !(p.ServerSeconds >= 0) || math.IsInf(p.ServerSeconds, 0) {
		return Phases{}, fmt.Errorf("sched: platform ServerSeconds %v, need finite ≥ 0", p.ServerSeconds)
	}
	if !(m.TFLOPPerBatch >= 0) || !(m.ModelBytes >= 0) {
		return Phases{}, fmt.Errorf("sched: model %q: negative TFLOPPerBatch %v or ModelBytes %v", m.Name, m.TFLOPPerBatch, m.ModelBytes)
	}
	link := m.ModelBytes / p.LinkBytesPerSec
	return Phases{
		Worker:   m.TFLOPPerBatch * 1e12 * float64(p.Batch) / 1024 / p.FLOPS,
		Uplink:   link,
		Downlink: link,
		Server:   p.ServerSeconds,
	}, nil
}

// Steps is the mean number of SGD steps of a job, Epochs·Examples/batch.
func (m ModelSpec) Steps(batch int) float64 { return m.Epochs * m.Examples / float64(batch) }

// NewWorkload builds a workload of equally likely job types from specs on
// platform p, with the given epochs variance (epochs²). The types' X is nil:
// the caller solves the throughput model on each type's Phases and sets X
// (see NodeThroughput).
func NewWorkload(specs []ModelSpec, p Platform, epochsVariance float64) (Workload, error) {
	wl := Workload{Types: make([]JobType, len(specs))}
	for i, m := range specs {
		ph, err := m.Phases(p)
		if err != nil {
			return Workload{}, err
		}
		wl.Types[i] = JobType{
			Name: m.Name, Examples: m.Examples, Epochs: m.Epochs,
			EpochsVariance: epochsVariance, Batch: p.Batch, Phases: ph,
		}
	}
	return wl, nil
}

// TableIII is the mascots18 synthetic workload: the four Table III DNNs,
// equally likely, on PaperPlatform, epochs ~ Gaussian(Table III mean,
// variance 2). X is nil; the caller must set it.
func TableIII() Workload {
	wl, err := NewWorkload(TableIIISpecs(), PaperPlatform(), DefaultEpochsVariance)
	if err != nil {
		panic("sched: TableIII: " + err.Error()) // constants; cannot happen
	}
	return wl
}

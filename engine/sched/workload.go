package sched

import (
	"fmt"
	"math"
)

// DefaultEpochsVariance is the variance of the number of epochs, in epochs²,
// used by TableIII: the paper's "variance equal to 2" taken literally, so the
// standard deviation is √2 ≈ 1.414 epochs (CATALOGUE M-6).
const DefaultEpochsVariance = 2

// Phases are the mean service times of one SGD step of one worker at the four
// stations of the mascots18 queueing network (§III-B), in seconds.
type Phases struct {
	Worker   float64 // S^W: forward+backward pass on the worker, seconds
	Uplink   float64 // S^U: gradient transfer worker→PS, seconds
	Downlink float64 // S^D: parameter transfer PS→worker, seconds
	Server   float64 // S^S: update applied by the PS, seconds
}

// Cycle is the step time of one worker alone with its PS,
// S^W + S^U + S^S + S^D, in seconds.
func (p Phases) Cycle() float64 { return p.Worker + p.Uplink + p.Server + p.Downlink }

// JobType is one kind of training job in a workload.
type JobType struct {
	Name string
	// Examples is |D|, the number of training examples per epoch.
	Examples float64
	// Epochs is the mean number of epochs of a job (epochs).
	Epochs float64
	// EpochsVariance is the variance of the number of epochs (epochs²). Zero
	// means every job runs exactly Epochs epochs.
	EpochsVariance float64
	// Weight is the relative probability that an arrival is of this type.
	// When all weights are zero the types are equally likely.
	Weight float64
	// Batch is the mini-batch size in examples (informational: it converts
	// steps/s into examples/s, see NodeThroughput).
	Batch int
	// Phases are the per-step service times the throughput model is solved
	// on (seconds). The simulator itself only uses X.
	Phases Phases
	// X[w] is the throughput in examples/s with w nodes (w−1 workers plus
	// one PS when w ≥ 2; X[1] per CATALOGUE M-4, see NodeThroughput). X[0]
	// is ignored. It must have at least Nodes+1 entries for a cluster of
	// Nodes nodes; entries beyond that are ignored.
	X []float64
}

// Workload is the mix of job types that arrive at the cluster.
type Workload struct {
	Types []JobType
}

// Subset returns the workload restricted to the named types, in the order
// given (e.g. "AlexNet", "VGG19" for mascots18 Fig. 12b).
func (wl Workload) Subset(names ...string) (Workload, error) {
	out := Workload{Types: make([]JobType, 0, len(names))}
	for _, n := range names {
		found := false
		for _, t := range wl.Types {
			if t.Name == n {
				out.Types = append(out.Types, t)
				found = true
				break
			}
		}
		if !found {
			return Workload{}, fmt.Errorf("sched: workload has no job type %q", n)
		}
	}
	return out, nil
}

// NodeThroughput converts a throughput curve indexed by workers into X
// indexed by nodes. stepsPerSec[k-1] is the throughput in steps/s with k
// workers and one PS (what mva.Curve returns for K = 1..len); batch is the
// mini-batch size in examples. The result has len(stepsPerSec)+2 entries:
// X[0] = 0, X[w] = batch·stepsPerSec[w-2] for w ≥ 2 (w−1 workers + 1 PS),
// and X[1] = X[2] (CATALOGUE M-4: a job on one node runs the 1-worker+PS
// cycle, which is what makes the paper's "E[S(1)] = 12 days" and "converges
// to 4.8" for AlexNet consistent). For a cluster of W nodes pass W−1 workers.
func NodeThroughput(stepsPerSec []float64, batch int) ([]float64, error) {
	if len(stepsPerSec) == 0 {
		return nil, fmt.Errorf("sched: NodeThroughput: empty stepsPerSec")
	}
	if batch < 1 {
		return nil, fmt.Errorf("sched: NodeThroughput: batch %d, need ≥ 1", batch)
	}
	x := make([]float64, len(stepsPerSec)+2)
	for k, s := range stepsPerSec {
		if !(s > 0) || math.IsInf(s, 0) {
			return nil, fmt.Errorf("sched: NodeThroughput: stepsPerSec[%d] = %v, need finite > 0", k, s)
		}
		x[k+2] = float64(batch) * s
	}
	x[1] = x[2]
	return x, nil
}

// validate checks the workload for a cluster of nodes nodes.
func (wl Workload) validate(nodes int) error {
	if len(wl.Types) == 0 {
		return fmt.Errorf("sched: workload has no job types")
	}
	for i, t := range wl.Types {
		name := fmt.Sprintf("sched: job type %d %q", i, t.Name)
		switch {
		case !(t.Examples > 0) || math.IsInf(t.Examples, 0):
			return fmt.Errorf("%s: Examples %v, need finite > 0", name, t.Examples)
		case !(t.Epochs > 0) || math.IsInf(t.Epochs, 0):
			return fmt.Errorf("%s: Epochs %v, need finite > 0", name, t.Epochs)
		case !(t.EpochsVariance >= 0) || math.IsInf(t.EpochsVariance, 0):
			return fmt.Errorf("%s: EpochsVariance %v, need finite ≥ 0", name, t.EpochsVariance)
		case !(t.Weight >= 0) || math.IsInf(t.Weight, 0):
			return fmt.Errorf("%s: Weight %v, need finite ≥ 0", name, t.Weight)
		case len(t.X) < nodes+1:
			return fmt.Errorf("%s: X has %d entries, need Nodes+1 = %d", name, len(t.X), nodes+1)
		}
		for w := 1; w <= nodes; w++ {
			if x := t.X[w]; !(x > 0) || math.IsInf(x, 0) {
				return fmt.Errorf("%s: X[%d] = %v examples/s, need finite > 0", name, w, x)
			}
		}
	}
	return nil
}

// probabilities returns the arrival probability of each type.
func (wl Workload) probabilities() []float64 {
	p := make([]float64, len(wl.Types))
	sum := 0.0
	for _, t := range wl.Types {
		sum += t.Weight
	}
	for i, t := range wl.Types {
		if sum == 0 {
			p[i] = 1 / float64(len(p))
		} else {
			p[i] = t.Weight / sum
		}
	}
	return p
}

// MeanEpochs is the mean number of epochs of a job of type t after the
// Gaussian draw is truncated to at least 1 epoch (CATALOGUE M-6):
// E[max(N, 1)] for N ~ Gaussian(Epochs, EpochsVariance).
func (t JobType) MeanEpochs() float64 {
	if t.EpochsVariance == 0 {
		return math.Max(t.Epochs, 1)
	}
	s := math.Sqrt(t.EpochsVariance)
	z := (1 - t.Epochs) / s
	cdf := 0.5 * math.Erfc(-z/math.Sqrt2)
	pdf := math.Exp(-z*z/2) / math.Sqrt(2*math.Pi)
	return cdf + t.Epochs*(1-cdf) + s*pdf
}

// MeanS1 is E[S(1)], the mean service time of an arriving job on one node,
// in seconds: Σ_t p_t · MeanEpochs_t · Examples_t / X_t[1].
func (wl Workload) MeanS1() (float64, error) {
	if err := wl.validate(1); err != nil {
		return 0, err
	}
	p := wl.probabilities()
	m := 0.0
	for i, t := range wl.Types {
		m += p[i] * t.MeanEpochs() * t.Examples / t.X[1]
	}
	return m, nil
}

// Lambda is the Poisson arrival rate (jobs/s) that gives system load
// load = λ·E[S(1)]/nodes (mascots18 §V-B; CATALOGUE M-5).
func (wl Workload) Lambda(load float64, nodes int) (float64, error) {
	if !(load > 0) || math.IsInf(load, 0) {
		return 0, fmt.Errorf("sched: load %v, need finite > 0", load)
	}
	if nodes < 1 {
		return 0, fmt.Errorf("sched: Nodes %d, need ≥ 1", nodes)
	}
	s1, err := wl.MeanS1()
	if err != nil {
		return 0, err
	}
	return load * float64(nodes) / s1, nil
}

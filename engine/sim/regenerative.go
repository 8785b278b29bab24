package sim

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// RegenerativeSteps is the initial run length of a BSP replication, steps
// per worker, when Config.Steps is zero (EstimateSteps). Its first step,
// started Staggered, is the deleted transient; the barrier releases after
// steps 1 … RegenerativeSteps − 1 bound RegenerativeSteps − 2 whole
// cycles, 8 per replication, 80 in the first ten.
//
// Why not InitialSteps: a BSP run regenerates at every barrier, so a
// replication needs no length to leave a transient, and its cycles are as
// informative at W = 64 as at W = 1. Measured on predict's 1..64 nodes ×
// 8 GPUs BSP sweep: InitialSteps gave intervals of ±0.01–0.07% against the
// ±1% target, 20–100× the precision asked for at 27.6 CPU-s; see README,
// Performance.
const RegenerativeSteps = 10

// MinRegenerativeSteps is the least Config.Steps of a BSP estimate: three
// steps give two barrier releases inside the window, one whole cycle.
const MinRegenerativeSteps = 3

// EstimateSteps is the initial run length, steps per worker, of a
// replication of w workers under y when Config.Steps is zero:
// RegenerativeSteps under BSP, InitialSteps(w) under ASP.
func EstimateSteps(y Sync, w int) int {
	if y == BSP {
		return RegenerativeSteps
	}
	return InitialSteps(w)
}

// summarizeCycles fills e from BSP replications by the regenerative
// method (doc.go, "Output analysis"): every cycle completes examples
// (W × batch) examples, so throughput is examples / c̄ for the mean cycle
// time c̄, and its interval maps the Student's t interval of c̄,
// [examples/(c̄+h), examples/(c̄−h)]. Under an enforced order the cycles of
// all replications are the observations (independent and identically
// distributed); under Random the cycles of one replication share its
// drawn priorities, so each replication's mean cycle is one observation.
func (e *Estimate) summarizeCycles(outs []Output, steps int, examples float64, pooled bool) error {
	e.Replications, e.Steps, e.Regenerative = len(outs), steps, true
	e.Samples = make([]float64, len(outs))
	e.Transient, e.Clipped, e.Bimodality, e.Modes = 0, 0, 0, nil
	var all welford
	for i, o := range outs {
		c := o.Cycles
		if c.Count == 0 {
			return fmt.Errorf("sim: Config.Steps: %d steps per worker leave replication %d no whole BSP cycle; want ≥ %d", steps, i, MinRegenerativeSteps)
		}
		e.Samples[i] = examples / c.Mean
		e.Transient += float64(o.BeforeCycles) / float64(len(outs))
		if pooled {
			all.merge(c)
		} else {
			all.add(c.Mean)
		}
	}
	m := all.final()
	n := float64(m.Count)
	h := math.Inf(1)
	if m.Count > 1 {
		h = distuv.StudentsT{Mu: 0, Sigma: 1, Nu: n - 1}.Quantile(0.975) * m.Std / math.Sqrt(n)
	}
	e.Throughput, e.Lo, e.Hi, e.HalfWidth = examples/m.Mean, examples/(m.Mean+h), math.Inf(1), math.Inf(1)
	if m.Mean > h {
		e.Hi = examples / (m.Mean - h)
		e.HalfWidth = (e.Hi - e.Lo) / (2 * e.Throughput)
	}
	return nil
}

// merge adds the observations summarized by s (Chan, Golub, LeVeque's
// pairwise update of the mean and the sum of squared deviations).
func (w *welford) merge(s StepStats) {
	if s.Count == 0 {
		return
	}
	m2 := s.Std * s.Std * float64(s.Count-1)
	if w.n == 0 {
		*w = welford{n: s.Count, mean: s.Mean, m2: m2, min: s.Min, max: s.Max}
		return
	}
	n := w.n + s.Count
	d := s.Mean - w.mean
	w.m2 += m2 + d*d*float64(w.n)*float64(s.Count)/float64(n)
	w.mean += d * float64(s.Count) / float64(n)
	w.n = n
	w.min, w.max = min(w.min, s.Min), max(w.max, s.Max)
}

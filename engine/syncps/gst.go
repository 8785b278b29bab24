package syncps

import (
	"fmt"
	"math"
)

// Iteration holds one worker's process durations in one iteration, in
// seconds: the t_X^{m,n} of Eq. 1. With the pipelines of Eq. 3–6 these are the
// exposed (explicit) times e(t_X): IO is e(t_io) of Eq. 5, FC, AG and BC are
// e(t_fc), e(t_ag), e(t_bc) of Eq. 6, and BP is the backward-pass makespan.
type Iteration struct {
	IO float64 // data loading, seconds
	FP float64 // forward propagation, seconds
	BP float64 // backward propagation, seconds
	FC float64 // forward communication worker→PS, seconds
	AG float64 // gradient aggregation at the PSs, seconds
	BC float64 // backward communication PS→worker, seconds
	UP float64 // parameter update, seconds
}

// Schedule holds the process durations of every worker in every iteration of
// an epoch: s[m][n] is iteration m (0-based, the paper's m−1) of worker n
// (0-based). All rows must have the same, non-zero length.
type Schedule [][]Iteration

// Validate returns an error if s is empty, ragged, or holds a negative,
// NaN or infinite duration.
func (s Schedule) Validate() error {
	if len(s) == 0 {
		return fmt.Errorf("syncps: schedule: no iterations")
	}
	workers := len(s[0])
	if workers == 0 {
		return fmt.Errorf("syncps: schedule: iteration 0 has no workers")
	}
	for m, row := range s {
		if len(row) != workers {
			return fmt.Errorf("syncps: schedule: iteration %d has %d workers, iteration 0 has %d", m, len(row), workers)
		}
		for n, it := range row {
			if err := it.validate(); err != nil {
				return fmt.Errorf("syncps: schedule: iteration %d worker %d: %w", m, n, err)
			}
		}
	}
	return nil
}

func (it Iteration) validate() error {
	fields := [...]struct {
		name string
		v    float64
	}{{"IO", it.IO}, {"FP", it.FP}, {"BP", it.BP}, {"FC", it.FC}, {"AG", it.AG}, {"BC", it.BC}, {"UP", it.UP}}
	for _, f := range fields {
		if err := checkNonNegative(f.name, f.v); err != nil {
			return err
		}
	}
	return nil
}

// GST returns the global synchronization time GST(m, n) of Eq. 1 in seconds,
// for 0-based iteration m and worker n:
//
//	m = 0: t_io + t_fp + t_bp + t_fc + t_ag
//	m > 0: t_bc^{m−1} + t_up^{m−1} + t_io + t_fp + t_bp + t_fc + t_ag
//
// The m > 0 branch includes t_fc and t_ag, which the printed Eq. 1 omits
// (ambiguity Z-1, see the package documentation). GST panics if m or n is out
// of range; it does not validate s.
func (s Schedule) GST(m, n int) float64 {
	if m == 0 {
		return gst(nil, s[0][n])
	}
	return gst(&s[m-1][n], s[m][n])
}

// gst is Eq. 1 (with Z-1): the time from the end of the previous aggregation
// (prev == nil in the first iteration) to the end of cur's aggregation.
func gst(prev *Iteration, cur Iteration) float64 {
	t := cur.IO + cur.FP + cur.BP + cur.FC + cur.AG
	if prev != nil {
		t += prev.BC + prev.UP
	}
	return t
}

// EpochBarrier returns the epoch time T of Eq. 2 in the form the paper
// evaluates, with a global barrier at the end of every aggregation (Z-2):
//
//	T = Σ_m max_n GST(m, n) + max_n {t_bc^{M,n} + t_up^{M,n}}   (seconds).
//
// It is never smaller than EpochExact and equals it when all workers have
// identical durations.
func (s Schedule) EpochBarrier() (float64, error) {
	if err := s.Validate(); err != nil {
		return 0, err
	}
	var t float64
	for m := range s {
		worst := math.Inf(-1)
		for n := range s[m] {
			worst = math.Max(worst, s.GST(m, n))
		}
		t += worst
	}
	return t + s.maxTail(), nil
}

// EpochExact returns the epoch time T of Eq. 2 as first written, without a
// per-iteration barrier: each worker runs its own chain of iterations and the
// epoch ends with the slowest worker,
//
//	T = max_n {Σ_m GST(m, n) + t_bc^{M,n} + t_up^{M,n}}   (seconds).
func (s Schedule) EpochExact() (float64, error) {
	if err := s.Validate(); err != nil {
		return 0, err
	}
	last := s[len(s)-1]
	worst := math.Inf(-1)
	for n := range s[0] {
		t := last[n].BC + last[n].UP
		for m := range s {
			t += s.GST(m, n)
		}
		worst = math.Max(worst, t)
	}
	return worst, nil
}

// maxTail is max_n {t_bc^{M,n} + t_up^{M,n}}.
func (s Schedule) maxTail() float64 {
	worst := math.Inf(-1)
	for _, it := range s[len(s)-1] {
		worst = math.Max(worst, it.BC+it.UP)
	}
	return worst
}

package sched

import "fmt"

// DefaultAlpha is the malleable KNEE threshold of mascots18 §V-B ("small
// values of α (0.01)"), applied to the improvement magnitude (M-1 (a)).
const DefaultAlpha = 0.01

// KNEE is malleable KNEE scheduling (mascots18 Algorithm 1) followed by the
// Eq. (5) filling mechanism, recomputed at every arrival and departure. Each
// round gives the job with the shortest S_i^t(w_i^KNEE) its w_i^KNEE nodes,
// where w_i^KNEE is the first node count, within the remaining budget, after
// which one more (non-dominated) allocation shortens the job by less than a
// fraction Alpha (see curve.kneeTable for the M-1/M-2 decisions).
// The zero value is the paper's KNEE with α = 0.01 and filling.
type KNEE struct {
	// Alpha is the knee threshold on the relative service-time reduction
	// (dimensionless, > 0); zero means DefaultAlpha.
	Alpha float64
	// NoFill disables the Eq. (5) filling.
	NoFill bool
}

func (p KNEE) alpha() float64 {
	if p.Alpha == 0 {
		return DefaultAlpha
	}
	return p.Alpha
}

// Name is "KNEE", with " α=<Alpha>" when Alpha is not the default and
// " nofill" when NoFill is set.
func (p KNEE) Name() string {
	n := "KNEE"
	if p.alpha() != DefaultAlpha {
		n += fmt.Sprintf(" α=%g", p.alpha())
	}
	if p.NoFill {
		n += " nofill"
	}
	return n
}

// New returns the allocator; Alpha must be finite and > 0 (M-1: a negative
// α is the paper's signed convention and is rejected, not reinterpreted).
func (p KNEE) New(env Env) (Allocator, error) {
	if err := checkAlpha("KNEE Alpha", p.alpha()); err != nil {
		return nil, err
	}
	cv := newCurves(env)
	return &malleable{g: newGreedy(cv, env.Nodes, 0), rule: kneeRule(cv, p.alpha()), fill: !p.NoFill}, nil
}

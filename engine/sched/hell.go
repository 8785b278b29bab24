package sched

import (
	"fmt"
	"math"
)

// HELL is malleable HELL scheduling (mascots18 Algorithm 2) followed by the
// Eq. (5) filling mechanism, recomputed at every arrival and departure.
// Each round gives the job with the smallest S_i^t(w)/E_i^t(w) at
// w = w_i^HELL = argmin_{w ≤ budget} w·S_i^t(w)²/S_i^t(1) its w_i^HELL nodes
// (ties: fewer nodes, then earlier arrival).
//
// With Gamma > 0 it is the early-termination variant of §VI-A: every S_i^t
// (in Alg. 2 and in the filling) is replaced by
// (J_i^t/X_i(w))·(1/(1−p_i^t))^γ with progress p_i^t = 1 − J_i^t/J_i
// (CATALOGUE M-11: X_i, not X; γ = 0 is "without the extension").
// The zero value is the paper's HELL with filling.
type HELL struct {
	// Gamma is the early-termination exponent γ ≥ 0 (dimensionless).
	Gamma float64
	// NoFill disables the Eq. (5) filling (nodes Alg. 2 leaves stay idle).
	NoFill bool
}

// Name is "HELL", with " γ=<Gamma>" and " nofill" suffixes when set.
func (p HELL) Name() string {
	n := "HELL"
	if p.Gamma != 0 {
		n += fmt.Sprintf(" γ=%g", p.Gamma)
	}
	if p.NoFill {
		n += " nofill"
	}
	return n
}

// New returns the allocator; Gamma must be finite and ≥ 0.
func (p HELL) New(env Env) (Allocator, error) {
	if !(p.Gamma >= 0) || math.IsInf(p.Gamma, 0) {
		return nil, fmt.Errorf("sched: HELL Gamma %v, need finite ≥ 0", p.Gamma)
	}
	cv := newCurves(env)
	return &malleable{g: newGreedy(cv, env.Nodes, p.Gamma), rule: hellRule(cv), fill: !p.NoFill}, nil
}

// malleable is the allocator shared by malleable HELL and KNEE: Alg. 1/2
// rounds with a budget rule, then optionally Eq. (5) filling.
type malleable struct {
	g    *greedy
	rule budgetRule
	fill bool
}

func (m *malleable) Allocate(_ float64, jobs []JobState, alloc []int) {
	m.g.scale(jobs)
	free := m.g.rounds(m.rule, alloc)
	if m.fill && free > 0 {
		m.g.fill(jobs, alloc, free)
	}
}

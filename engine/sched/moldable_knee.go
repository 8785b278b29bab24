package sched

import "fmt"

// Assumed moldable KNEE thresholds (the paper does not give α_L, α_H;
// CATALOGUE §A.4 fig13). α_L equals the malleable KNEE α, so at zero load
// both KNEEs pick the same knee; α_H = 0.1 stops adding a node once it
// shortens the job by less than 10%, the efficiency-first end of the range.
// Under M-1 (a), "smaller α ⇒ more nodes", so 0 < α_L < α_H.
const (
	DefaultAlphaL = 0.01
	DefaultAlphaH = 0.1
)

// MoldableKNEE is moldable KNEE scheduling (mascots18 §IV-C): every job runs
// on w_i^KNEE nodes computed over the whole cluster with the load-dependent
// threshold α(x) = α_L + x·(α_H − α_L), x = Env.Load, and jobs are ranked by
// S_i^t(w_i^KNEE) (shortest knee service first, as in Alg. 1); a job waits
// until that many nodes are free. See moldable for the assumed backfilling
// and preemption rules, curve.kneeTable for the knee rule.
type MoldableKNEE struct {
	// AlphaL and AlphaH are the thresholds at load 0 and load 1
	// (dimensionless). Both zero means DefaultAlphaL and DefaultAlphaH.
	AlphaL, AlphaH float64
}

func (p MoldableKNEE) alphas() (float64, float64) {
	if p.AlphaL == 0 && p.AlphaH == 0 {
		return DefaultAlphaL, DefaultAlphaH
	}
	return p.AlphaL, p.AlphaH
}

// Alpha is α(x) = α_L + x·(α_H − α_L) at load x.
func (p MoldableKNEE) Alpha(load float64) float64 {
	lo, hi := p.alphas()
	return lo + load*(hi-lo)
}

// Name is "moldable KNEE", with " α=[L,H]" when not the defaults.
func (p MoldableKNEE) Name() string {
	if lo, hi := p.alphas(); lo != DefaultAlphaL || hi != DefaultAlphaH {
		return fmt.Sprintf("moldable KNEE α=[%g,%g]", lo, hi)
	}
	return "moldable KNEE"
}

// New returns the allocator; α(Env.Load) must be finite and > 0.
func (p MoldableKNEE) New(env Env) (Allocator, error) {
	a := p.Alpha(env.Load)
	if err := checkAlpha(fmt.Sprintf("moldable KNEE α(load %g)", env.Load), a); err != nil {
		return nil, err
	}
	return newMoldable(kneeRule(newCurves(env), a), env.Nodes), nil
}

package sched

// MoldableHELL is moldable HELL scheduling (mascots18 §IV-C): every job runs
// on w_i^HELL = argmin_{w ≤ W} w·S_i(w)²/S_i(1) nodes over the whole cluster
// of W nodes, and jobs are ranked by S_i^t(w_i^HELL)/E_i^t(w_i^HELL); a job
// waits until that many nodes are free. See moldable for the assumed
// backfilling and preemption rules.
type MoldableHELL struct{}

// Name is "moldable HELL".
func (MoldableHELL) Name() string { return "moldable HELL" }

// New returns the allocator.
func (MoldableHELL) New(env Env) (Allocator, error) {
	return newMoldable(hellRule(newCurves(env)), env.Nodes), nil
}

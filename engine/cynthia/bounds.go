package cynthia

import (
	"fmt"
	"math"
)

// Goal is a performance goal of the provisioning problem (Eq. 8–11).
type Goal struct {
	// Time is the objective training time T_g in seconds. Must be > 0.
	Time float64
	// Loss is the objective training loss l_g (> 0), in the units of the
	// fitted Loss model.
	Loss float64
}

func (g Goal) check() error {
	if err := checkPositive("goal", "", "Time", g.Time); err != nil {
		return err
	}
	return checkPositive("goal", "", "Loss", g.Loss)
}

// Bounds is the search space of Algorithm 1 for one instance type
// (Theorem 4.1, Eq. 12–23).
type Bounds struct {
	// R is the maximum worker/PS ratio of Eq. (12) (dimensionless; +Inf
	// when the workload puts no load on the PS).
	R float64
	// U is the updated ratio u = min(r, T_g·b_ps/(2·s·g_param)) of
	// Eq. (17) for BSP; for ASP it equals R.
	U float64
	// Iterations is s: Eq. (15) for BSP (global iterations); Eq. (20) at
	// n_wk = Lower for ASP (iterations per worker, recomputed per n_wk by
	// the planner).
	Iterations int
	// Balance is the real-valued balance bound
	// sqrt(w_iter·n_ps·b_ps/(2·g_param·c_wk)) of Eq. (19), in workers
	// (BSP only; 0 for ASP; +Inf when GParam is 0).
	Balance float64
	// Lower is n_wk^lower of Eq. (13) (= Eq. 16 for BSP, Eq. 21 with
	// w_iter restored for ASP, C-1); at least 1.
	Lower int
	// Upper is n_wk^upper of Eq. (14) (= Eq. 19 / Eq. 23), rounded down
	// (or up with Planner.CeilUpper) and reduced to the planner's
	// MaxWorkers when larger (then Capped is true).
	Upper int
	// PS is the minimum number of PS nodes, Eq. (18) for BSP and Eq. (22)
	// for ASP, at least 1 (C-8).
	PS int
	// Capped reports that Upper was reduced to MaxWorkers.
	Capped bool
	// Empty is a non-empty explanation when no worker count in
	// [max(Lower, PS), Upper] exists (Eq. 11 needs n_wk >= n_ps).
	Empty string
}

// ProvisioningRatio is r of Eq. (12) for a homogeneous cluster of inst:
//
//	r = min(c_base·c_ps/(c_prof·c_wk), b_ps·c_base/(b_prof·c_wk)),
//
// the largest n_wk/n_ps without a PS bottleneck. A term whose demand
// (CProf or BProf) is 0 is +Inf, so r can be +Inf.
func ProvisioningRatio(w Workload, inst Instance, cBase float64) (float64, error) {
	if err := w.check(); err != nil {
		return 0, prefixed(err)
	}
	if err := inst.check(); err != nil {
		return 0, prefixed(err)
	}
	if err := checkPositive("provisioning", "", "cBase", cBase); err != nil {
		return 0, prefixed(err)
	}
	return provisioningRatio(w, inst, cBase), nil
}

func provisioningRatio(w Workload, inst Instance, cBase float64) float64 {
	rc, rb := math.Inf(1), math.Inf(1)
	if w.CProf > 0 {
		rc = cBase * inst.CPU / (w.CProf * inst.CPU)
	}
	if w.BProf > 0 {
		rb = inst.Bandwidth * cBase / (w.BProf * inst.CPU)
	}
	return math.Min(rc, rb)
}

// Bounds computes Theorem 4.1's search space for workload w with loss model
// l and goal g on instance type inst, given the profiling baseline c_base
// (FLOP/s). Invalid inputs return an error; an empty search space is not
// an error but is explained in Bounds.Empty.
func (p Planner) Bounds(w Workload, l Loss, g Goal, inst Instance, cBase float64) (Bounds, error) {
	if err := p.checkInputs(w, l, g, cBase); err != nil {
		return Bounds{}, prefixed(err)
	}
	if err := inst.check(); err != nil {
		return Bounds{}, prefixed(err)
	}
	return p.bounds(w, l, g, inst, cBase), nil
}

func (p Planner) bounds(w Workload, l Loss, g Goal, inst Instance, cBase float64) Bounds {
	maxW := p.maxWorkers()
	c, bw := inst.CPU, inst.Bandwidth
	bd := Bounds{R: provisioningRatio(w, inst, cBase)}

	var lower float64
	if w.Sync == BSP {
		s, err := l.Iterations(BSP, g.Loss, 1)
		if err != nil {
			bd.Empty = err.Error()
			return bd
		}
		bd.Iterations = s
		lower = ceilTol(w.WIter * float64(s) / (g.Time * c)) // Eq. (16)
		bd.U = math.Min(bd.R, g.Time*bw/(2*float64(s)*w.GParam))
	} else {
		if l.Beta0 > l.Beta1 { // Eq. (13) ASP, w_iter kept (C-1)
			x := w.WIter * (l.Beta0 - l.Beta1) / (c * g.Time * g.Loss)
			lower = ceilTol(x * x)
		}
		bd.U = bd.R
	}
	if lower < 1 {
		lower = 1
	}
	if lower > float64(maxW) {
		bd.Lower = maxW + 1
		bd.Empty = fmt.Sprintf("lower bound %.4g workers exceeds MaxWorkers %d", lower, maxW)
		return bd
	}
	bd.Lower = int(lower)
	if w.Sync == ASP {
		s, err := l.Iterations(ASP, g.Loss, bd.Lower)
		if err != nil {
			bd.Empty = err.Error()
			return bd
		}
		bd.Iterations = s
	}
	if bd.U < 1 {
		bd.Empty = fmt.Sprintf("worker/PS ratio bound u = %.4g < 1 contradicts n_wk >= n_ps (Eq. 11)", bd.U)
		return bd
	}

	// Eq. (18) / (22): the minimum number of PS nodes, at least 1 (C-8).
	ps := math.Max(1, ceilTol(lower/bd.U))
	if ps > float64(maxW) {
		bd.Empty = fmt.Sprintf("%.4g PS nodes needed, more than MaxWorkers %d", ps, maxW)
		return bd
	}
	bd.PS = int(ps)

	// Eq. (19) / (23).
	upper := bd.U * ps
	if w.Sync == BSP {
		bd.Balance = math.Sqrt(w.WIter * ps * bw / (2 * w.GParam * c))
		upper = math.Min(upper, bd.Balance)
	}
	if p.CeilUpper {
		upper = ceilTol(upper)
	} else {
		upper = floorTol(upper)
	}
	if upper > float64(maxW) {
		upper = float64(maxW)
		bd.Capped = true
	}
	bd.Upper = int(upper)

	if start := max(bd.Lower, bd.PS); start > bd.Upper {
		bd.Empty = fmt.Sprintf("no n_wk in [max(lower %d, n_ps %d), upper %d]", bd.Lower, bd.PS, bd.Upper)
		if w.Sync == BSP && bd.Balance < lower {
			bd.Empty += fmt.Sprintf(" (balance bound %.4g < lower bound: communication exceeds computation)", bd.Balance)
		}
	}
	return bd
}

package cynthia

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestProvisioningRatioEq12: VGG-19 on m4 (c_wk = c_ps = c_base):
// r = min(3.47/0.33, 110/13.49) = min(10.515, 8.154).
func TestProvisioningRatioEq12(t *testing.T) {
	t.Parallel()
	r, err := ProvisioningRatio(workload("vgg19"), m4(), cM4)
	require.NoError(t, err)
	require.InDelta(t, 110/13.49, r, 1e-12)

	// c_base ≠ c_wk: both terms scale with c_base/c_wk.
	in := Instance{Name: "x", CPU: 2e9, Bandwidth: 50e6}
	w := Workload{WIter: 1, CProf: 1e9, BProf: 5e6, Sync: BSP}
	r, err = ProvisioningRatio(w, in, 4e9)
	require.NoError(t, err)
	// min(4e9·2e9/(1e9·2e9), 50e6·4e9/(5e6·2e9)) = min(4, 20)
	require.InDelta(t, 4, r, 1e-12)

	w.CProf, w.BProf = 0, 0
	r, err = ProvisioningRatio(w, in, 4e9)
	require.NoError(t, err)
	require.True(t, math.IsInf(r, 1))

	_, err = ProvisioningRatio(w, in, 0)
	require.ErrorContains(t, err, "cBase")
}

// TestBoundsBSPHandComputed: cifar10 BSP on m4, l_g = 0.8 with β0 = 8000
// (s = 10000), T_g = 7200 s.
func TestBoundsBSPHandComputed(t *testing.T) {
	t.Parallel()
	pc := planCases()["cifar10-BSP"]
	var p Planner
	bd, err := p.Bounds(pc.w, pc.loss, pc.goal, m4(), cM4)
	require.NoError(t, err)
	require.Equal(t, 10000, bd.Iterations)
	// Eq. 16: ⌈26.86e9·1e4/(7200·3.47e9)⌉ = ⌈10.751⌉ = 11.
	require.Equal(t, 11, bd.Lower)
	// Eq. 12: min(3.47/0.06, 110/1.56) = 57.83; Eq. 17:
	// u = min(57.83, 7200·110e6/(2·1e4·4.94e6)) = 8.016.
	require.InDelta(t, 3.47/0.06, bd.R, 1e-9)
	require.InDelta(t, 7200*110e6/(2*1e4*4.94e6), bd.U, 1e-12)
	// Eq. 18: ⌈11/8.016⌉ = 2.
	require.Equal(t, 2, bd.PS)
	// Eq. 19: min(8.016·2, sqrt(26.86e9·2·110e6/(2·4.94e6·3.47e9))) =
	// min(16.03, 13.13) → 13 (14 with the printed ceiling).
	require.InDelta(t, math.Sqrt(26.86e9*2*110e6/(2*4.94e6*3.47e9)), bd.Balance, 1e-12)
	require.Equal(t, 13, bd.Upper)
	require.Empty(t, bd.Empty)

	bd, err = Planner{CeilUpper: true}.Bounds(pc.w, pc.loss, pc.goal, m4(), cM4)
	require.NoError(t, err)
	require.Equal(t, 14, bd.Upper)
}

// TestBoundsASPHandComputed: VGG-19 ASP on m4, β0 = 300, β1 = 20,
// l_g = 0.8, T_g = 1800 s.
func TestBoundsASPHandComputed(t *testing.T) {
	t.Parallel()
	pc := planCases()["vgg19-ASP"]
	var p Planner
	bd, err := p.Bounds(pc.w, pc.loss, pc.goal, m4(), cM4)
	require.NoError(t, err)
	// Eq. 13 (w_iter kept, C-1): (58.81e9·280/(3.47e9·1800·0.8))² = 10.86 → 11.
	x := 58.81e9 * 280 / (3.47e9 * 1800 * 0.8)
	require.InDelta(t, 10.86, x*x, 5e-3)
	require.Equal(t, 11, bd.Lower)
	require.InDelta(t, 110/13.49, bd.R, 1e-12)
	require.Equal(t, bd.R, bd.U)
	require.Equal(t, 2, bd.PS)     // Eq. 22: ⌈11/8.154⌉
	require.Equal(t, 16, bd.Upper) // Eq. 23: r·n_ps = 16.31
	require.Equal(t, 112, bd.Iterations)
	require.Zero(t, bd.Balance)

	// C-1: the lower bound scales with w_iter² (Eq. 21 as printed has no
	// w_iter, which is dimensionally wrong and would give 1 here).
	w2 := pc.w
	w2.WIter *= 2
	bd2, err := p.Bounds(w2, pc.loss, pc.goal, m4(), cM4)
	require.NoError(t, err)
	require.Equal(t, int(math.Ceil(4*x*x)), bd2.Lower)

	// β0 <= β1 makes the ASP reduction vacuous: lower = 1.
	bd, err = p.Bounds(pc.w, Loss{Beta0: 10, Beta1: 10}, pc.goal, m4(), cM4)
	require.NoError(t, err)
	require.Equal(t, 1, bd.Lower)
}

// TestBoundsMinimumOnePS (C-8): n_lower/r < 1 still provisions one PS.
func TestBoundsMinimumOnePS(t *testing.T) {
	t.Parallel()
	pc := planCases()["resnet32-BSP"]
	bd, err := Planner{}.Bounds(pc.w, pc.loss, pc.goal, m4(), cM4)
	require.NoError(t, err)
	require.Equal(t, 7, bd.Lower)
	require.Less(t, float64(bd.Lower)/bd.U, 1.0)
	require.Equal(t, 1, bd.PS)

	// A workload that never loads the PS: r = +Inf, n_ps = 1 and the
	// ASP upper bound is capped.
	w := workload("resnet32")
	w.CProf, w.BProf = 0, 0
	bd, err = Planner{MaxWorkers: 50}.Bounds(w, Loss{Beta0: 300, Beta1: 20}, Goal{Time: 3600, Loss: 0.8}, m4(), cM4)
	require.NoError(t, err)
	require.True(t, math.IsInf(bd.R, 1))
	require.Equal(t, 1, bd.PS)
	require.Equal(t, 50, bd.Upper)
	require.True(t, bd.Capped)
}

func TestBoundsEmpty(t *testing.T) {
	t.Parallel()
	var p Planner
	// BSP with huge parameters: u = T_g·b/(2·s·g) < 1.
	w := workload("cifar10")
	w.GParam = 1e12
	bd, err := p.Bounds(w, Loss{Beta0: 8000}, Goal{Time: 7200, Loss: 0.8}, m4(), cM4)
	require.NoError(t, err)
	require.Contains(t, bd.Empty, "u =")

	// Balance bound below the lower bound: communication-dominated BSP.
	w = workload("mnist")
	bd, err = p.Bounds(w, Loss{Beta0: 8000}, Goal{Time: 70, Loss: 0.8}, m4(), cM4)
	require.NoError(t, err)
	require.Less(t, bd.Balance, float64(bd.Lower))
	require.Contains(t, bd.Empty, "balance bound")

	// Lower bound beyond MaxWorkers.
	bd, err = Planner{MaxWorkers: 5}.Bounds(workload("cifar10"), Loss{Beta0: 8000}, Goal{Time: 7200, Loss: 0.8}, m4(), cM4)
	require.NoError(t, err)
	require.Contains(t, bd.Empty, "MaxWorkers")
}

func TestBoundsInvalid(t *testing.T) {
	t.Parallel()
	pc := planCases()["cifar10-BSP"]
	_, err := Planner{}.Bounds(pc.w, pc.loss, Goal{Time: 0, Loss: 1}, m4(), cM4)
	require.ErrorContains(t, err, "Time")
	_, err = Planner{}.Bounds(pc.w, pc.loss, Goal{Time: 1, Loss: -1}, m4(), cM4)
	require.ErrorContains(t, err, "Loss")
	_, err = Planner{}.Bounds(pc.w, Loss{}, pc.goal, m4(), cM4)
	require.ErrorContains(t, err, "Beta0")
	_, err = Planner{}.Bounds(pc.w, pc.loss, pc.goal, Instance{Name: "z", CPU: 1}, cM4)
	require.ErrorContains(t, err, `instance "z": Bandwidth`)
	_, err = Planner{MaxWorkers: -1}.Bounds(pc.w, pc.loss, pc.goal, m4(), cM4)
	require.ErrorContains(t, err, "MaxWorkers")
	_, err = Planner{}.Bounds(pc.w, pc.loss, pc.goal, m4(), math.NaN())
	require.ErrorContains(t, err, "cBase")
}

package cynthia

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

func homog(in Instance, n, nps int, cBase float64) Homogeneous {
	return Homogeneous{Instance: in, Workers: n, PS: nps, CBase: cBase}
}

// TestPredictBSPHandComputed checks Eq. 3–7 and the utilization rule on
// small numbers worked out by hand.
func TestPredictBSPHandComputed(t *testing.T) {
	t.Parallel()
	w := Workload{Name: "h", WIter: 8e9, GParam: 1e6, CProf: 1e9, BProf: 10e6, Sync: BSP, Iterations: 100, Batch: 64}
	in := Instance{Name: "x", CPU: 2e9, Bandwidth: 50e6, Price: 1}

	// n = 4: r_scale = 4·2e9/4e9 = 2; c_demand = 2e9 = c_supply (not >),
	// b_demand = 20e6 < 50e6: no bottleneck. t_comp = 8e9/(4·2e9) = 1 s,
	// t_comm = 2·1e6·4/50e6 = 0.16 s, t_iter = max = 1 s.
	b, err := Predict(w, expand(t, homog(in, 4, 1, 4e9)))
	require.NoError(t, err)
	require.InDelta(t, 2, b.RScale, 1e-12)
	require.InDelta(t, 2e9, b.CDemand, 1)
	require.InDelta(t, 20e6, b.BDemand, 1e-3)
	require.False(t, b.CPUOverloaded)
	require.Equal(t, NoBottleneck, b.Bottleneck)
	require.Equal(t, 1.0, b.Utilization)
	require.InDelta(t, 1, b.Comp, 1e-12)
	require.InDelta(t, 0.16, b.Comm, 1e-12)
	require.InDelta(t, 1, b.Iter, 1e-12)
	require.InDelta(t, 100, b.Time, 1e-9)
	require.InDelta(t, 64, b.Throughput, 1e-9)

	// n = 8: r_scale = 4; c_demand = 4e9 > 2e9 → ratio 0.5; b ratio
	// 50/40 = 1.25; u = 0.5 (CPU). t_comp = 8e9/(8·2e9·0.5) = 1 s,
	// t_comm = 0.32 s.
	b, err = Predict(w, expand(t, homog(in, 8, 1, 4e9)))
	require.NoError(t, err)
	require.Equal(t, CPUBottleneck, b.Bottleneck)
	require.InDelta(t, 0.5, b.Utilization, 1e-12)
	require.InDelta(t, 1, b.Comp, 1e-12)
	require.InDelta(t, 0.32, b.Comm, 1e-12)

	// The baselines ignore the PS (u = 1) and add the two times.
	o, err := ModelOptimus.Predict(w, expand(t, homog(in, 8, 1, 4e9)))
	require.NoError(t, err)
	require.True(t, o.CPUOverloaded)
	require.Equal(t, NoBottleneck, o.Bottleneck)
	require.InDelta(t, 0.5+0.32, o.Iter, 1e-12)
	pa, err := ModelPaleo.Predict(w, expand(t, homog(in, 8, 1, 4e9)))
	require.NoError(t, err)
	require.Equal(t, o.Iter, pa.Iter)
}

// TestPredictASPHandComputed: network-bound ASP and a heterogeneous ASP
// cluster whose time follows the 𝓘_base semantics (C-2).
func TestPredictASPHandComputed(t *testing.T) {
	t.Parallel()
	w := Workload{Name: "a", WIter: 6e9, GParam: 2e6, CProf: 0.5e9, BProf: 20e6, Sync: ASP, Iterations: 120, Batch: 32}
	in := Instance{Name: "x", CPU: 3e9, Bandwidth: 40e6}

	// n = 3: r_scale = 3; b_demand = 60e6 > 40e6 → u = 2/3 (network);
	// c_demand = 1.5e9 <= 3e9. t_comp = 6e9/(3e9·2/3) = 3 s,
	// t_comm = 2·2e6/40e6 = 0.1 s; each worker iterates every 3.1 s, so
	// 120 iterations take 120·3.1/3 = 124 s.
	b, err := ModelCynthia.PredictHomogeneous(w, homog(in, 3, 1, 3e9))
	require.NoError(t, err)
	require.Equal(t, NetworkBottleneck, b.Bottleneck)
	require.InDelta(t, 2.0/3, b.Utilization, 1e-12)
	require.InDelta(t, 3, b.Comp, 1e-12)
	require.InDelta(t, 0.1, b.Comm, 1e-12)
	require.InDelta(t, 3.1, b.Iter, 1e-12)
	require.InDelta(t, 3/3.1, b.IterRate, 1e-12)
	require.InDelta(t, 124, b.Time, 1e-9)
	require.InDelta(t, 32*3/3.1, b.Throughput, 1e-9)

	// Heterogeneous: c = {3e9, 1.5e9}, c_base = 3e9. r_scale = 1.5,
	// b_demand = 30e6 <= 40e6: u = 1. Worker iteration times 2.1 s and
	// 4.1 s; rate 1/2.1 + 1/4.1; Comp reports the slowest worker (4 s).
	slow := Instance{Name: "slow", CPU: 1.5e9, Bandwidth: 40e6}
	c := Cluster{Workers: []Instance{in, slow}, PS: []Instance{in}, CBase: 3e9}
	b, err = Predict(w, c)
	require.NoError(t, err)
	require.InDelta(t, 1.5, b.RScale, 1e-12)
	require.Equal(t, 1.0, b.Utilization)
	require.InDelta(t, 4, b.Comp, 1e-12)
	rate := 1/2.1 + 1/4.1
	require.InDelta(t, rate, b.IterRate, 1e-12)
	require.InDelta(t, 120/rate, b.Time, 1e-9)
}

// TestPredictSeveralPS: supplies and bandwidth are sums over PS nodes.
func TestPredictSeveralPS(t *testing.T) {
	t.Parallel()
	w := Workload{WIter: 4e9, GParam: 5e6, CProf: 1e9, BProf: 30e6, Sync: BSP, Iterations: 10}
	a := Instance{Name: "a", CPU: 1e9, Bandwidth: 20e6}
	b := Instance{Name: "b", CPU: 3e9, Bandwidth: 80e6}
	c := Cluster{Workers: []Instance{a, a}, PS: []Instance{a, b}, CBase: 1e9}
	// Σc_ps = 4e9, Σb = 100e6; r_scale = 2; demands 2e9 and 60e6 fit.
	// t_comp = 4e9/(2·1e9) = 2 s; t_comm = 2·5e6·2/100e6 = 0.2 s.
	got, err := Predict(w, c)
	require.NoError(t, err)
	require.Equal(t, 2, got.PS)
	require.InDelta(t, 4e9, got.CSupply, 1)
	require.InDelta(t, 100e6, got.BSupply, 1e-3)
	require.Equal(t, NoBottleneck, got.Bottleneck)
	require.InDelta(t, 0.2, got.Comm, 1e-12)
	require.InDelta(t, 20, got.Time, 1e-9)
}

// TestVGG19UtilizationFig7: with b_ps = 110 MB/s and b_prof = 13.49 MB/s
// (both reported), u_wk = 100% for n <= 8 and decreases from n = 9 on.
func TestVGG19UtilizationFig7(t *testing.T) {
	t.Parallel()
	w := workload("vgg19")
	prev := 2.0
	for n := 1; n <= 16; n++ {
		b, err := ModelCynthia.PredictHomogeneous(w, homog(m4(), n, 1, cM4))
		require.NoError(t, err)
		if n <= 8 {
			require.Equal(t, 1.0, b.Utilization, "n=%d", n)
			require.Equal(t, NoBottleneck, b.Bottleneck, "n=%d", n)
			continue
		}
		require.Less(t, b.Utilization, prev, "n=%d", n)
		require.Equal(t, NetworkBottleneck, b.Bottleneck, "n=%d", n)
		// Hand value: u = 110/(13.49·n).
		require.InDelta(t, 110/(13.49*float64(n)), b.Utilization, 1e-12, "n=%d", n)
		// With c_ps = 3.47 GFLOP/s (E.8), the PS CPU is also overloaded
		// from 11 workers (0.33·11 > 3.47), as §5.1 reports ("exceeds 11").
		require.Equal(t, n >= 11, b.CPUOverloaded, "n=%d", n)
		prev = b.Utilization
	}
}

// TestBSPCrossover: for cifar10 BSP without a PS bottleneck, t_comp >=
// t_comm exactly up to n* = sqrt(w_iter·Σb/(2·g·min r)).
func TestBSPCrossover(t *testing.T) {
	t.Parallel()
	w := workload("cifar10")
	h := homog(m4(), 1, 1, cM4)
	nStar, err := BSPCrossover(w, h)
	require.NoError(t, err)
	// Hand: sqrt(26.86e9·110e6/(2·4.94e6·3.47e9)) = sqrt(86.19) ≈ 9.284.
	require.InDelta(t, math.Sqrt(26.86e9*110e6/(2*4.94e6*3.47e9)), nStar, 1e-12)
	require.InDelta(t, 9.284, nStar, 1e-3)
	for n := 1; n <= 20; n++ {
		h.Workers = n
		b, err := ModelCynthia.PredictHomogeneous(w, h)
		require.NoError(t, err)
		require.Equal(t, 1.0, b.Utilization)
		require.Equal(t, float64(n) <= nStar, b.Comp >= b.Comm, "n=%d", n)
		require.Equal(t, math.Max(b.Comp, b.Comm), b.Iter)
	}
	w.GParam = 0
	inf, err := BSPCrossover(w, h)
	require.NoError(t, err)
	require.True(t, math.IsInf(inf, 1))
}

// TestMnistBSPUShape: with an assumed instance of c = 2 GFLOP/s,
// b = 110 MB/s (profiled on the same type, c_base = c), the predicted
// mnist BSP time falls from n = 1 to 2 and rises afterwards (Fig. 1b).
// Hand: t(1) = 0.04e9/2e9 = 20 ms; t(2) = max(11.3 ms, 12 ms) = 12 ms;
// t(3) = 18 ms (communication-bound).
func TestMnistBSPUShape(t *testing.T) {
	t.Parallel()
	w := workload("mnist")
	in := Instance{Name: "assumed", CPU: 2e9, Bandwidth: bPS110}
	var times []float64
	for n := 1; n <= 16; n++ {
		b, err := ModelCynthia.PredictHomogeneous(w, homog(in, n, 1, in.CPU))
		require.NoError(t, err)
		times = append(times, b.Iter)
	}
	require.InDelta(t, 0.020, times[0], 1e-12)
	require.InDelta(t, 0.012, times[1], 1e-12)
	require.InDelta(t, 0.018, times[2], 1e-12)
	argmin := 0
	for i, v := range times {
		if v < times[argmin] {
			argmin = i
		}
	}
	require.Equal(t, 1, argmin, "minimum at n = 2")
	for i := 1; i < len(times); i++ {
		if i <= argmin {
			require.Less(t, times[i], times[i-1])
		} else {
			require.Greater(t, times[i], times[i-1])
		}
	}
}

// TestResNet32ASPInvariantInPS (Fig. 10a): no bottleneck for 4..16 workers
// and 1..4 PS; only t_comm = 2g/Σb shrinks, by < 0.5% of the time.
func TestResNet32ASPInvariantInPS(t *testing.T) {
	t.Parallel()
	w := workload("resnet32")
	for n := 4; n <= 16; n++ {
		one, err := ModelCynthia.PredictHomogeneous(w, homog(m4(), n, 1, cM4))
		require.NoError(t, err)
		for nps := 2; nps <= 4; nps++ {
			b, err := ModelCynthia.PredictHomogeneous(w, homog(m4(), n, nps, cM4))
			require.NoError(t, err)
			require.Equal(t, 1.0, b.Utilization)
			require.Equal(t, one.Comp, b.Comp)
			require.InEpsilon(t, one.Time, b.Time, 5e-3)
		}
	}
}

// TestMnistBSPNonIncreasingInPS (Fig. 10b): more PS never slows mnist BSP.
func TestMnistBSPNonIncreasingInPS(t *testing.T) {
	t.Parallel()
	w := workload("mnist")
	strict := false
	for n := 4; n <= 16; n++ {
		prev := math.Inf(1)
		for nps := 1; nps <= 4; nps++ {
			b, err := ModelCynthia.PredictHomogeneous(w, homog(m4(), n, nps, cM4))
			require.NoError(t, err)
			require.LessOrEqual(t, b.Time, prev, "n=%d nps=%d", n, nps)
			strict = strict || b.Time < prev && nps > 1
			prev = b.Time
		}
	}
	require.True(t, strict, "more PS must help somewhere")
}

// TestHeterogeneousBSPBoundBySlowest (Fig. 9b, Eq. 4 and 7): a BSP cluster
// of ⌈n/2⌉ fast and ⌊n/2⌋ slow workers predicts exactly like n slow ones.
func TestHeterogeneousBSPBoundBySlowest(t *testing.T) {
	t.Parallel()
	slow := Instance{Name: "m1.xlarge", CPU: 2.2e9, Bandwidth: bPS110}
	for _, name := range []string{"mnist", "cifar10"} {
		w := workload(name)
		for n := 2; n <= 12; n++ {
			mixed := Cluster{PS: []Instance{m4()}, CBase: cM4}
			for j := 0; j < n; j++ {
				if j < (n+1)/2 {
					mixed.Workers = append(mixed.Workers, m4())
				} else {
					mixed.Workers = append(mixed.Workers, slow)
				}
			}
			slowAll := Cluster{Workers: expand(t, homog(slow, n, 1, cM4)).Workers, PS: []Instance{m4()}, CBase: cM4}
			got, err := Predict(w, mixed)
			require.NoError(t, err)
			want, err := Predict(w, slowAll)
			require.NoError(t, err)
			require.Equal(t, want.Iter, got.Iter, "%s n=%d", name, n)
			require.Equal(t, want.Utilization, got.Utilization)
			fast, err := ModelCynthia.PredictHomogeneous(w, homog(m4(), n, 1, cM4))
			require.NoError(t, err)
			require.GreaterOrEqual(t, got.Iter, fast.Iter)
		}
	}
}

// TestBaselinesVsCynthia: without a bottleneck, the baselines' BSP sum is
// above Cynthia's max; for VGG-19 ASP they agree up to 8 workers and
// under-predict after (they ignore the saturated PS, §5.1).
func TestBaselinesVsCynthia(t *testing.T) {
	t.Parallel()
	cifar, vgg := workload("cifar10"), workload("vgg19")
	for n := 1; n <= 16; n++ {
		h := homog(m4(), n, 1, cM4)
		c, err := ModelCynthia.PredictHomogeneous(cifar, h)
		require.NoError(t, err)
		o, err := ModelOptimus.PredictHomogeneous(cifar, h)
		require.NoError(t, err)
		require.InDelta(t, c.Comp+c.Comm, o.Iter, 1e-12)
		require.Greater(t, o.Time, c.Time)

		c, err = ModelCynthia.PredictHomogeneous(vgg, h)
		require.NoError(t, err)
		o, err = ModelPaleo.PredictHomogeneous(vgg, h)
		require.NoError(t, err)
		if n <= 8 {
			require.Equal(t, c.Time, o.Time)
		} else {
			require.Less(t, o.Time, c.Time)
		}
	}
}

func TestUtilizationRule(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name           string
		cd, cs, bd, bs float64
		u              float64
		bn             Bottleneck
	}{
		{"fits", 1, 2, 1, 2, 1, NoBottleneck},
		{"equal is not a bottleneck", 2, 2, 3, 3, 1, NoBottleneck},
		{"cpu", 4, 2, 1, 2, 0.5, CPUBottleneck},
		{"network", 1, 2, 8, 2, 0.25, NetworkBottleneck},
		{"both, cpu smaller", 10, 2, 4, 2, 0.2, CPUBottleneck},
		{"tie goes to network", 4, 2, 4, 2, 0.5, NetworkBottleneck},
		{"zero cpu demand", 0, 2, 4, 2, 0.5, NetworkBottleneck},
	} {
		u, bn := Utilization(tc.cd, tc.cs, tc.bd, tc.bs)
		require.InDelta(t, tc.u, u, 1e-15, tc.name)
		require.Equal(t, tc.bn, bn, tc.name)
	}
}

func TestPredictInvalidInputs(t *testing.T) {
	t.Parallel()
	good := workload("cifar10")
	cl := expand(t, homog(m4(), 2, 1, cM4))
	for _, tc := range []struct {
		name  string
		model Model
		w     func(*Workload)
		c     func(*Cluster)
		msg   string
	}{
		{"sync", ModelCynthia, func(w *Workload) { w.Sync = 0 }, nil, "Sync"},
		{"witer", ModelCynthia, func(w *Workload) { w.WIter = 0 }, nil, "WIter"},
		{"nan", ModelCynthia, func(w *Workload) { w.GParam = math.NaN() }, nil, "GParam"},
		{"cprof", ModelCynthia, func(w *Workload) { w.CProf = -1 }, nil, "CProf"},
		{"bprof", ModelCynthia, func(w *Workload) { w.BProf = math.Inf(1) }, nil, "BProf"},
		{"iterations", ModelCynthia, func(w *Workload) { w.Iterations = -1 }, nil, "Iterations"},
		{"batch", ModelCynthia, func(w *Workload) { w.Batch = -1 }, nil, "Batch"},
		{"no workers", ModelCynthia, nil, func(c *Cluster) { c.Workers = nil }, "Workers"},
		{"no ps", ModelCynthia, nil, func(c *Cluster) { c.PS = nil }, "PS"},
		{"cbase", ModelCynthia, nil, func(c *Cluster) { c.CBase = 0 }, "CBase"},
		{"worker cpu", ModelCynthia, nil, func(c *Cluster) { c.Workers[1].CPU = -2 }, "Workers[1]"},
		{"ps bandwidth", ModelCynthia, nil, func(c *Cluster) { c.PS[0].Bandwidth = 0 }, "Bandwidth"},
		{"price", ModelCynthia, nil, func(c *Cluster) { c.PS[0].Price = -1 }, "Price"},
		{"model", Model(7), nil, nil, "model"},
	} {
		w := good
		c := Cluster{Workers: append([]Instance(nil), cl.Workers...), PS: append([]Instance(nil), cl.PS...), CBase: cl.CBase}
		if tc.w != nil {
			tc.w(&w)
		}
		if tc.c != nil {
			tc.c(&c)
		}
		_, err := tc.model.Predict(w, c)
		require.ErrorContains(t, err, tc.msg, tc.name)
		require.ErrorContains(t, err, "cynthia: ", tc.name)
	}
	_, err := ModelCynthia.PredictHomogeneous(good, homog(m4(), 0, 1, cM4))
	require.ErrorContains(t, err, "Workers")
	_, err = ModelCynthia.PredictHomogeneous(good, homog(m4(), 1, 0, cM4))
	require.ErrorContains(t, err, "PS")
	_, err = BSPCrossover(good, homog(Instance{CPU: 1}, 1, 1, 1))
	require.ErrorContains(t, err, "Bandwidth")
}

func TestStrings(t *testing.T) {
	t.Parallel()
	require.Equal(t, "BSP", BSP.String())
	require.Equal(t, "ASP", ASP.String())
	require.Equal(t, "Sync(0)", Sync(0).String())
	require.Equal(t, "optimus", ModelOptimus.String())
	require.Equal(t, "Model(9)", Model(9).String())
	require.Equal(t, "network", NetworkBottleneck.String())
	require.Equal(t, "Bottleneck(5)", Bottleneck(5).String())
}

// TestPredictHomogeneousNoAlloc: the planner's inner call does not allocate.
func TestPredictHomogeneousNoAlloc(t *testing.T) {
	w := workload("vgg19")
	h := homog(m4(), 12, 1, cM4)
	allocs := testing.AllocsPerRun(100, func() {
		_, _ = ModelCynthia.PredictHomogeneous(w, h)
	})
	require.Zero(t, allocs)
}

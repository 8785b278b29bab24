package syncps

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

// handConfig is a one-layer cluster whose prediction is worked by hand:
// PN = 1000 B / 100 B = 10 packets, B = 1000 B/s = 10 packets/s.
func handConfig() Config {
	return Config{
		Workers: 2, Servers: 1, Bandwidth: 1000, Iterations: 2, ComputeScale: 1,
		Layers:     []Layer{{Name: "only", ParamBytes: 1000, Forward: 1, Backward: 2}},
		PacketSize: 100, Alpha: 1, SwitchRate: 1, Hops: 1,
		AggFixed: 0.1, AggPerPacket: 0.01,
	}
}

func TestPredictHandComputed(t *testing.T) {
	t.Parallel()
	p, err := Predict(handConfig())
	require.NoError(t, err)
	// K < N: barrier links are PS-side, so FC carries Eq. 12:
	//   t_forward = B/(S_f·B − 1) = 10/9 s; FC = 10·100/1000 + 10/9.
	// AG (Eq. 13–18, fraction 0): G = 10, delay = 10·100/1000 = 1,
	//   AG = 1 + 2·1·(0.1 + 0.01·10) = 1.4.
	// BC: max(10, ⌈2·10/1⌉) = 20 packets → 2 s.
	fc := 1 + 10.0/9
	require.Equal(t, PSSide, p.Barrier)
	require.Len(t, p.Layers, 1)
	require.InDelta(t, fc, p.Layers[0].FC, 1e-12)
	require.InDelta(t, 1.4, p.Layers[0].AG, 1e-12)
	require.InDelta(t, 2.0, p.Layers[0].BC, 1e-12)
	// One layer: nothing overlaps. Iteration = 1 + 2 + FC + 1.4 + 2.
	iter := 1 + 2 + fc + 1.4 + 2
	require.InDelta(t, iter, p.IterationTime, 1e-12)
	require.InDelta(t, 2*iter, p.EpochTime, 1e-12)
	require.InDelta(t, 3.0, p.Compute, 1e-12)
	require.InDelta(t, fc+2, p.ExposedComm, 1e-12)
	require.InDelta(t, 1.4, p.Aggregation, 1e-12)
	require.Zero(t, p.Straggler)
	require.InDelta(t, (fc+1.4+2)/3, p.CommCompRatio, 1e-12)
}

func TestPredictHandComputedWorkerSideBarrier(t *testing.T) {
	t.Parallel()
	c := handConfig()
	c.Servers = 2 // K ≥ N: barrier on the switch→worker links, i.e. in BC.
	p, err := Predict(c)
	require.NoError(t, err)
	require.Equal(t, WorkerSide, p.Barrier)
	// G = 5, delay 0.5, AG = 0.5 + 2·(0.1 + 0.05); BC = max(10, 10) packets + 10/9.
	require.InDelta(t, 1.0, p.Layers[0].FC, 1e-12)
	require.InDelta(t, 0.8, p.Layers[0].AG, 1e-12)
	require.InDelta(t, 1+10.0/9, p.Layers[0].BC, 1e-12)
}

func TestPredictStragglersEq9(t *testing.T) {
	t.Parallel()
	c := handConfig()
	c.Sigma = 0.1
	base, err := Predict(handConfig())
	require.NoError(t, err)
	p, err := Predict(c)
	require.NoError(t, err)
	// E[max of 2 standard normals] = 1/√π; σ(1) = 0.1·√4, σ(2) = 0.1·√6.
	extra := (0.1*2 + 0.1*math.Sqrt(6)) / math.Sqrt(math.Pi)
	require.InDelta(t, base.EpochTime+extra, p.EpochTime, 1e-10)
	require.InDelta(t, extra/2, p.Straggler, 1e-10)
	// One worker: no order-statistics excess whatever σ is.
	c.Workers = 1
	p, err = Predict(c)
	require.NoError(t, err)
	require.Zero(t, p.Straggler)
}

func TestPredictComputeScaleAndIO(t *testing.T) {
	t.Parallel()
	c := handConfig()
	c.ComputeScale = 2
	// IO 4 s: fully exposed in iteration 1 (Eq. 5), hidden in iteration 2
	// because τ_io^2 = 8 s < τ_DT^1 = 4 s + iteration.
	c.IOTime = 4
	p, err := Predict(c)
	require.NoError(t, err)
	iter := 0.5 + 1 + (1 + 10.0/9) + 1.4 + 2
	require.InDelta(t, (4+2*iter)/2, p.IterationTime, 1e-12)
	require.InDelta(t, 2.0, p.ExposedIO, 1e-12)
}

func TestPredictBreakdownSumsToIterationTime(t *testing.T) {
	t.Parallel()
	for _, layers := range [][]Layer{alexNetLike(), resNet50Like()} {
		for _, n := range []int{1, 3, 8} {
			c := DefaultConfig()
			c.Workers, c.Servers, c.Iterations, c.Bandwidth, c.Layers = n, 2, 7, 1.25e9, layers
			c.IOTime, c.UpdateTime = 0.01, 0.002
			p, err := Predict(c)
			require.NoError(t, err)
			sum := p.Compute + p.ExposedIO + p.ExposedComm + p.Aggregation + p.Straggler
			require.InDelta(t, p.IterationTime, sum, 1e-12*p.IterationTime)
			require.InDelta(t, p.EpochTime, 7*p.IterationTime, 1e-12*p.EpochTime)
		}
	}
}

// Fig. 5: the comm/comp ratio falls as bandwidth grows and rises as compute
// capability grows.
func TestCommCompRatioMonotone(t *testing.T) {
	t.Parallel()
	for _, layers := range [][]Layer{alexNetLike(), resNet50Like()} {
		c := DefaultConfig()
		c.Workers, c.Layers, c.Bandwidth = 2, layers, 1.25e9
		prev := math.Inf(1)
		for _, bw := range []float64{1.25e7, 1.25e8, 1.25e9, 1.25e10, 1.25e11} {
			c.Bandwidth = bw
			p, err := Predict(c)
			require.NoError(t, err)
			require.Less(t, p.CommCompRatio, prev, "bandwidth %g", bw)
			prev = p.CommCompRatio
		}
		c.Bandwidth = 1.25e9
		prev = 0
		for _, scale := range []float64{0.25, 1, 2, 8, 64} {
			c.ComputeScale = scale
			p, err := Predict(c)
			require.NoError(t, err)
			require.Greater(t, p.CommCompRatio, prev, "compute scale %g", scale)
			prev = p.CommCompRatio
		}
	}
}

func TestSpeedupAtMostN(t *testing.T) {
	t.Parallel()
	for _, layers := range [][]Layer{alexNetLike(), resNet50Like()} {
		for _, n := range []int{1, 2, 3, 8, 16} {
			for _, k := range []int{1, 2, 4} {
				for _, bw := range []float64{1.25e8, 1.25e10, 1.25e12} {
					c := DefaultConfig()
					c.Workers, c.Servers, c.Bandwidth, c.Layers, c.Iterations = n, k, bw, layers, 3
					s, err := Speedup(c)
					require.NoError(t, err)
					require.Greater(t, s, 0.0)
					require.LessOrEqual(t, s, float64(n), "N=%d K=%d B=%g", n, k, bw)
				}
			}
		}
	}
	// With free communication and no jitter the speedup is exactly N.
	c := handConfig()
	c.Workers, c.Layers[0].ParamBytes = 4, 0
	s, err := Speedup(c)
	require.NoError(t, err)
	require.InDelta(t, 4, s, 1e-12)
}

// Fig. 3 claim (reported, §V-B): AlexNet's iteration time is ≈ 2× ResNet-50's
// at 1 Gbps and ≈ equal at 100 Gbps, on 3 workers and 1 PS. With the derived
// zoo-like profiles and the assumed defaults, this package predicts the
// direction (the ratio shrinks with bandwidth) but not the magnitudes; the
// numbers are logged, not tuned.
func TestAlexNetResNetRatioShrinksWithBandwidth(t *testing.T) {
	t.Parallel()
	ratio := func(bw float64) float64 {
		var it [2]float64
		for i, layers := range [][]Layer{alexNetLike(), resNet50Like()} {
			c := DefaultConfig()
			c.Workers, c.Servers, c.Iterations, c.Bandwidth, c.Layers = 3, 1, 10, bw, layers
			p, err := Predict(c)
			require.NoError(t, err)
			it[i] = p.IterationTime
			t.Logf("B = %g B/s %-8s iteration %.4f s (compute %.4f, exposed comm %.4f, aggregation %.4f, straggler %.4f)",
				bw, []string{"AlexNet", "ResNet50"}[i], p.IterationTime, p.Compute, p.ExposedComm, p.Aggregation, p.Straggler)
		}
		return it[0] / it[1]
	}
	low, high := ratio(1.25e8), ratio(1.25e10) // 1 Gbps and 100 Gbps
	t.Logf("AlexNet/ResNet-50 iteration-time ratio: %.3f at 1 Gbps, %.3f at 100 Gbps (paper: ≈2 and ≈1)", low, high)
	require.Greater(t, low, high)
	require.Greater(t, low, 1.0)
}

// §V-C / Fig. 6: with the assumed t_c(r_c) the training time has an interior
// minimum over r_c (the paper reports 0.6 under its own, unpublished, t_c).
func TestCompressionHasInteriorOptimum(t *testing.T) {
	t.Parallel()
	c := DefaultConfig()
	c.Workers, c.Servers, c.Bandwidth, c.Layers = 2, 1, 1.25e9, resNet50Like()
	best, bestRate := math.Inf(1), -1.0
	var none float64
	for i := range 20 {
		c.CompressionRate = float64(i) * 0.05
		p, err := Predict(c)
		require.NoError(t, err)
		if i == 0 {
			none = p.IterationTime
		}
		if p.IterationTime < best {
			best, bestRate = p.IterationTime, c.CompressionRate
		}
	}
	t.Logf("argmin r_c = %.2f: %.4f s vs %.4f s uncompressed", bestRate, best, none)
	require.Greater(t, bestRate, 0.0)
	require.Less(t, bestRate, 0.95)
	require.Less(t, best, none)
}

func TestPredictInvalidConfig(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		mut  func(*Config)
		want string
	}{
		{func(c *Config) { c.Workers = 0 }, "Config.Workers must be ≥ 1, got 0"},
		{func(c *Config) { c.Servers = -1 }, "Config.Servers must be ≥ 1, got -1"},
		{func(c *Config) { c.Iterations = 0 }, "Config.Iterations must be ≥ 1"},
		{func(c *Config) { c.Hops = -1 }, "Config.Hops must be ≥ 0"},
		{func(c *Config) { c.Bandwidth = nan() }, "Config.Bandwidth must be finite and > 0, got NaN"},
		{func(c *Config) { c.Bandwidth = 0 }, "Config.Bandwidth must be finite and > 0, got 0"},
		{func(c *Config) { c.ComputeScale = inf() }, "Config.ComputeScale"},
		{func(c *Config) { c.PacketSize = -1 }, "Config.PacketSize"},
		{func(c *Config) { c.Alpha = 0 }, "Config.Alpha"},
		{func(c *Config) { c.IOTime = -0.1 }, "Config.IOTime must be finite and ≥ 0, got -0.1"},
		{func(c *Config) { c.Sigma = nan() }, "Config.Sigma"},
		{func(c *Config) { c.AggDelayFraction = 1.5 }, "Config.AggDelayFraction must be in [0, 1], got 1.5"},
		{func(c *Config) { c.CompressionRate = 1 }, "Config.CompressionRate must be in [0, 1), got 1"},
		{func(c *Config) { c.Layers = nil }, "Config.Layers: no layers"},
		{func(c *Config) { c.Layers[0].Forward = -1 }, `layer 0 "only": Forward must be finite and ≥ 0, got -1`},
		{func(c *Config) { c.Layers[0].Backward = nan() }, `layer 0 "only": Backward`},
		{func(c *Config) { c.Layers[0].ParamBytes = -5 }, `layer 0 "only": negative ParamBytes -5`},
		// B = 100 B/s = 1 packet/s and S_f = 0.5 packets/s: S_f·B ≤ 1.
		{func(c *Config) { c.Bandwidth, c.SwitchRate = 100, 0.5 }, "syncps: barrier link unstable: S_f·B = 0.5 ≤ 1"},
		{func(c *Config) { c.BarrierArrivalRate = 2 }, "syncps: barrier link unstable: service rate μ = 1 ≤ arrival rate λ = 2"},
		{func(c *Config) { c.Layers[0].Forward, c.Layers[0].Backward = 0, 0 }, "zero computation time"},
	} {
		cfg := handConfig()
		c.mut(&cfg)
		_, err := Predict(cfg)
		require.ErrorContains(t, err, c.want)
		_, err = Speedup(cfg)
		require.ErrorContains(t, err, c.want)
	}
}

func TestDefaultConfigNeedsBandwidthAndLayers(t *testing.T) {
	t.Parallel()
	c := DefaultConfig()
	_, err := Predict(c)
	require.ErrorContains(t, err, "Config.Bandwidth")
	c.Bandwidth = 1.25e8
	_, err = Predict(c)
	require.ErrorContains(t, err, "Config.Layers: no layers")
	c.Layers = alexNetLike()
	p, err := Predict(c)
	require.NoError(t, err)
	require.Greater(t, p.IterationTime, 0.0)
}

func TestBarrierArrivalRateOverride(t *testing.T) {
	t.Parallel()
	c := handConfig()
	c.SwitchRate, c.BarrierArrivalRate = 5, 3 // t_forward = 1/(5−3) = 0.5 s
	p, err := Predict(c)
	require.NoError(t, err)
	require.InDelta(t, 1+0.5, p.Layers[0].FC, 1e-12)
}

package sched

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// DERIVED (CATALOGUE §A.4 mascots18-table3): 1229 GFLOPS, 1 Gbps, MB = 10⁶ B,
// S^S = 0, batch 1024.
func TestTableIIIPhases(t *testing.T) {
	t.Parallel()
	wl := TableIII()
	want := []struct {
		name         string
		sw, su, cyc  float64
		steps, limit float64
	}{
		{"NiN", 5.452, 0.240, 5.932, 9766, 24.7},
		{"GoogLeNet", 7.893, 0.432, 8.757, 234375, 20.3},
		{"AlexNet", 5.696, 1.992, 9.680, 105469, 4.86},
		{"VGG19", 97.640, 4.600, 106.840, 86719, 23.2},
	}
	specs := TableIIISpecs()
	require.Len(t, wl.Types, 4)
	for i, w := range want {
		ty := wl.Types[i]
		require.Equal(t, w.name, ty.Name)
		require.InDelta(t, w.sw, ty.Phases.Worker, 0.0005, w.name)
		require.InDelta(t, w.su, ty.Phases.Uplink, 0.0005, w.name)
		require.Equal(t, ty.Phases.Uplink, ty.Phases.Downlink)
		require.Zero(t, ty.Phases.Server)
		require.InDelta(t, w.cyc, ty.Phases.Cycle(), 0.001, w.name)
		require.InDelta(t, w.steps, specs[i].Steps(1024), 0.5, w.name)
		require.InDelta(t, w.limit, ty.Phases.Cycle()/ty.Phases.Uplink, 0.05, w.name)
		require.Equal(t, 1024, ty.Batch)
		require.Equal(t, 2.0, ty.EpochsVariance)
	}
}

// E[S(1)] with X(1) = 1-worker+PS cycle (M-4): AlexNet ≈ 11.8 days
// ("12 days", Fig. 1); the four-DNN mix ≈ 35.9 days (DERIVED).
func TestMeanS1(t *testing.T) {
	t.Parallel()
	wl := tableIIIWith(t, 4)
	all, err := wl.MeanS1()
	require.NoError(t, err)
	require.InDelta(t, 35.9, all/86400, 0.05)
	alex, err := wl.Subset("AlexNet")
	require.NoError(t, err)
	s1, err := alex.MeanS1()
	require.NoError(t, err)
	require.InDelta(t, 11.82, s1/86400, 0.01)
	lambda, err := alex.Lambda(0.5, 100)
	require.NoError(t, err)
	require.InDelta(t, 0.5*100/s1, lambda, 1e-15)
}

func TestMeanEpochsTruncation(t *testing.T) {
	t.Parallel()
	// E[max(N(1, 2), 1)] = 1 + √2·φ(0) = 1.564190.
	require.InDelta(t, 1+math.Sqrt2/math.Sqrt(2*math.Pi), JobType{Epochs: 1, EpochsVariance: 2}.MeanEpochs(), 1e-12)
	require.InDelta(t, 74, JobType{Epochs: 74, EpochsVariance: 2}.MeanEpochs(), 1e-12)
	require.Equal(t, 1.0, JobType{Epochs: 0.5}.MeanEpochs())
}

// M-6: the sampled epochs have mean 90 and variance 2 (σ = √2), by type
// equally likely.
func TestPoissonDraws(t *testing.T) {
	t.Parallel()
	wl := tableIIIWith(t, 2)
	p := newPoisson(rand.New(rand.NewPCG(1, 1)), 1, wl)
	const n = 40000
	var count [4]int
	var s, ss float64
	prev := 0.0
	gaps := 0.0
	for i := 0; i < n; i++ {
		a := p.next()
		count[a.Type]++
		gaps += a.Time - prev
		prev = a.Time
		if a.Type == 2 {
			e := a.Examples / 1.2e6
			s += e
			ss += e * e
		}
	}
	for _, c := range count {
		require.InDelta(t, n/4, c, 0.05*n/4)
	}
	m := s / float64(count[2])
	require.InDelta(t, 90, m, 0.05)
	require.InDelta(t, 2, ss/float64(count[2])-m*m, 0.15)
	require.InDelta(t, 1, gaps/n, 0.03)
}

func TestNodeThroughput(t *testing.T) {
	t.Parallel()
	x, err := NodeThroughput([]float64{0.1, 0.19, 0.25}, 10)
	require.NoError(t, err)
	require.Equal(t, []float64{0, 1, 1, 1.9, 2.5}, x)
	_, err = NodeThroughput(nil, 10)
	require.ErrorContains(t, err, "empty")
	_, err = NodeThroughput([]float64{0.1}, 0)
	require.ErrorContains(t, err, "batch 0")
	_, err = NodeThroughput([]float64{0.1, math.NaN()}, 1)
	require.ErrorContains(t, err, "stepsPerSec[1] = NaN")
}

func TestWorkloadErrors(t *testing.T) {
	t.Parallel()
	_, err := TableIII().Subset("ResNet")
	require.ErrorContains(t, err, `no job type "ResNet"`)
	_, err = TableIII().MeanS1()
	require.ErrorContains(t, err, `job type 0 "NiN": X has 0 entries, need Nodes+1 = 2`)
	wl := handWorkload()
	wl.Types[1].Epochs = -1
	require.ErrorContains(t, wl.validate(8), `job type 1 "B": Epochs -1`)
	wl = handWorkload()
	wl.Types[0].X = []float64{0, 1, 0, 1, 1, 1, 1, 1, 1}
	require.ErrorContains(t, wl.validate(8), `X[2] = 0 examples/s`)
	_, err = handWorkload().Lambda(0, 8)
	require.ErrorContains(t, err, "load 0")
	_, err = ModelSpec{Name: "m"}.Phases(Platform{FLOPS: 1, LinkBytesPerSec: 1})
	require.ErrorContains(t, err, "Batch 0")
	_, err = ModelSpec{Name: "m"}.Phases(Platform{LinkBytesPerSec: 1, Batch: 1})
	require.ErrorContains(t, err, "FLOPS 0")
}

type greedyBad struct{ w int }

func (g greedyBad) Name() string               { return "bad" }
func (g greedyBad) New(Env) (Allocator, error) { return g, nil }
func (g greedyBad) Allocate(_ float64, _ []JobState, alloc []int) {
	for i := range alloc {
		alloc[i] = g.w
	}
}

func TestRunConfigErrors(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 1))
	ok := Config{Nodes: 8, Workload: handWorkload(), Policy: HELL{}, Load: 0.5}
	for _, c := range []struct {
		mod func(*Config)
		msg string
	}{
		{func(c *Config) { c.Nodes = 0 }, "Nodes 0"},
		{func(c *Config) { c.Policy = nil }, "Policy is nil"},
		{func(c *Config) { c.Nodes = 9 }, "need Nodes+1 = 10"},
		{func(c *Config) { c.Load = 0 }, "Load 0, need finite > 0 for Poisson"},
		{func(c *Config) { c.Warmup = 1 }, "Warmup 1"},
		{func(c *Config) { c.Batches = 1 }, "Batches 1"},
		{func(c *Config) { c.Progress = []float64{0.4, 1.5} }, "Progress[1] = 1.5"},
		{func(c *Config) { c.Progress = []float64{0.5, 0.4} }, "increasing order"},
		{func(c *Config) { c.Arrivals = []Arrival{{1, 0, 1}, {0.5, 0, 1}} }, "Arrivals[1].Time 0.5 before"},
		{func(c *Config) { c.Arrivals = []Arrival{{1, 2, 1}} }, "Arrivals[0].Type 2"},
		{func(c *Config) { c.Arrivals = []Arrival{{1, 0, 0}} }, "Arrivals[0].Examples 0"},
		{func(c *Config) { c.Policy = JSQChunk{} }, "Chunk 0"},
		{func(c *Config) { c.Policy = greedyBad{w: 9} }, `policy "bad" allocated 9 nodes, cluster has 8`},
		{func(c *Config) { c.Policy = greedyBad{w: -1} }, `policy "bad" gave job 0 -1 nodes`},
		{func(c *Config) { c.Policy = greedyBad{}; c.Arrivals = []Arrival{{0, 0, 1}} }, `policy "bad" leaves 1 jobs without nodes`},
	} {
		cfg := ok
		c.mod(&cfg)
		_, err := Run(cfg, rng)
		require.ErrorContains(t, err, c.msg)
	}
	_, err := Run(ok, nil)
	require.ErrorContains(t, err, "nil rng")
}

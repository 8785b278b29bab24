package zoo

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"pslab/engine/trace"
)

func nan() float64 { return math.NaN() }

const ms = int64(1e6) // nanoseconds

// toyOptions: 1 GB/s, WIN = 3 MB, overhead 0.1 ns/B + 0.1 ms, updates 1 ns/B.
func toyOptions() Options {
	return Options{Steps: 2, Bandwidth: 1e9, Window: 3e6, Alpha: 1e-10, Beta: 1e-4, UpdateTime: 1e-9}
}

func opIndex(t *testing.T, s trace.Step, name string) int {
	t.Helper()
	for i := range s.Ops {
		if s.Ops[i].Name == name {
			return i
		}
	}
	t.Fatalf("no op %q", name)
	return -1
}

// TestToyFig6Structure checks the Fig. 6 decomposition of the Fig. 5 toy.
func TestToyFig6Structure(t *testing.T) {
	t.Parallel()
	tr, err := Synthesize(Toy(), toyOptions())
	require.NoError(t, err)
	require.NoError(t, tr.Validate())
	s := tr.Steps[0]
	count := map[trace.Kind]int{}
	for _, op := range s.Ops {
		count[op.Resource.Kind]++
	}
	require.Equal(t, map[trace.Kind]int{trace.Downlink: 4, trace.Worker: 8, trace.Uplink: 4, trace.PS: 4}, count)
	deps := func(name string) []string {
		var out []string
		for _, d := range s.Ops[opIndex(t, s, name)].Deps {
			out = append(out, s.Ops[d].Name)
		}
		return out
	}
	require.Empty(t, deps("conv0/down"))
	require.Equal(t, []string{"conv0/down"}, deps("conv0/fwd"))
	require.Equal(t, []string{"conv1/down", "conv0/fwd"}, deps("conv1/fwd"))
	require.Equal(t, []string{"fc1/down", "fc0/fwd"}, deps("fc1/fwd"))
	require.Equal(t, []string{"fc1/fwd"}, deps("fc1/bwd")) // the loss head
	require.Equal(t, []string{"fc1/bwd"}, deps("fc0/bwd"))
	require.Equal(t, []string{"conv1/bwd"}, deps("conv0/bwd"))
	require.Equal(t, []string{"fc0/bwd"}, deps("fc0/up"))
	require.Equal(t, []string{"fc0/up"}, deps("fc0/update"))
	// Op order: downlinks topological, forward topological, backward,
	// uplinks and updates reverse topological.
	var names []string
	for _, op := range s.Ops {
		names = append(names, op.Name)
	}
	require.Equal(t, []string{
		"conv0/down", "conv1/down", "fc0/down", "fc1/down",
		"conv0/fwd", "conv1/fwd", "fc0/fwd", "fc1/fwd",
		"fc1/bwd", "fc0/bwd", "conv1/bwd", "conv0/bwd",
		"fc1/up", "fc0/up", "conv1/up", "conv0/up",
		"fc1/update", "fc0/update", "conv1/update", "conv0/update",
	}, names)
	require.Equal(t, trace.Meta{
		Source:   "zoo.Synthesize(icpe20 Fig. 5 toy (assumed sizes and times))",
		Platform: "synthetic: profile compute ×32/32 batch ÷1 device speed, jitter 0, PS update 1e-09 s/byte",
		Model:    "toy-fig5", Batch: 32, Bandwidth: 1e9, Window: 3e6, Alpha: 1e-10, Beta: 1e-4, Servers: 1,
	}, tr.Meta)
}

// TestToyTimelineHandComputed: the whole recorded step of the toy with
// toyOptions, computed by hand (ms). Downlinks with WIN = 3 MB at 1 MB/ms:
// conv0 2 MB 0–2; conv1 3 MB 2–5 (preempted); fc0 3 MB 5–8 (preempted);
// fc1 3 MB 8–11 (preempted); conv1 1 MB 11–12; fc0 13 MB 12–25; fc1 5 MB
// 25–30. Overheads 0.1·MB + 0.1 ms: 0.3, 0.5, 1.7, 0.9.
func TestToyTimelineHandComputed(t *testing.T) {
	t.Parallel()
	tr, err := Synthesize(Toy(), toyOptions())
	require.NoError(t, err)
	want := map[string][2]float64{
		"conv0/down": {0, 2.3}, "conv1/down": {0, 12.5}, "fc0/down": {0, 26.7}, "fc1/down": {0, 30.9},
		"conv0/fwd": {2.3, 12.3}, "conv1/fwd": {12.5, 32.5}, "fc0/fwd": {32.5, 37.5}, "fc1/fwd": {37.5, 39.5},
		"fc1/bwd": {39.5, 43.5}, "fc0/bwd": {43.5, 53.5}, "conv1/bwd": {53.5, 93.5}, "conv0/bwd": {93.5, 113.5},
		// fc1 8 MB alone: 3 MB then 5 MB, 43.5–51.5, + 0.9.
		"fc1/up": {43.5, 52.4}, "fc0/up": {53.5, 71.2}, "conv1/up": {93.5, 98.0}, "conv0/up": {113.5, 115.8},
		"fc1/update": {52.4, 60.4}, "fc0/update": {71.2, 87.2}, "conv1/update": {98.0, 102.0}, "conv0/update": {115.8, 117.8},
	}
	for si, s := range tr.Steps {
		require.Len(t, s.Ops, len(want))
		for _, op := range s.Ops {
			w := want[op.Name]
			require.InDelta(t, w[0]*1e6, float64(op.Start), 1, "step %d %s start", si, op.Name)
			require.InDelta(t, w[1]*1e6, float64(op.End), 1, "step %d %s end", si, op.Name)
		}
	}
}

func TestFlowControlOffAndTwoServers(t *testing.T) {
	t.Parallel()
	o := Options{Steps: 1, Bandwidth: 1e9}
	tr, err := Synthesize(Toy(), o)
	require.NoError(t, err)
	s := tr.Steps[0]
	// Whole streams FIFO: 2, 6, 22, 30 ms.
	for name, end := range map[string]int64{"conv0/down": 2, "conv1/down": 6, "fc0/down": 22, "fc1/down": 30} {
		require.Equal(t, end*ms, s.Ops[opIndex(t, s, name)].End, name)
	}
	// Two PS: greedy puts conv0, fc0 on ps0 (18 MB) and conv1, fc1 on ps1
	// (12 MB); the NIC is shared by the two busy connections (see
	// TestLinkTwoConnectionsShare for the same numbers in bytes).
	o.Servers = 2
	tr, err = Synthesize(Toy(), o)
	require.NoError(t, err)
	require.Equal(t, 2, tr.Meta.Servers)
	s = tr.Steps[0]
	for name, end := range map[string]int64{"conv0/down": 4, "conv1/down": 8, "fc0/down": 30, "fc1/down": 24} {
		require.Equal(t, end*ms, s.Ops[opIndex(t, s, name)].End, name)
	}
	load := map[trace.Resource]int64{}
	for _, op := range s.Ops {
		load[op.Resource] += op.Bytes
		if op.Resource.Kind == trace.PS {
			up := s.Ops[op.Deps[0]]
			require.Equal(t, op.Resource.PS, up.Resource.PS, op.Name)
		}
	}
	require.Equal(t, int64(18e6), load[trace.Resource{Kind: trace.Downlink, PS: 0}])
	require.Equal(t, int64(12e6), load[trace.Resource{Kind: trace.Downlink, PS: 1}])
	require.Equal(t, int64(18e6), load[trace.Resource{Kind: trace.Uplink, PS: 0}])
	require.Equal(t, int64(12e6), load[trace.Resource{Kind: trace.Uplink, PS: 1}])
}

func TestBatchAndDeviceScaling(t *testing.T) {
	t.Parallel()
	o := toyOptions()
	o.Batch, o.DeviceSpeed = 64, 4 // ×2 batch, ÷4 speed: compute ×0.5
	tr, err := Synthesize(Toy(), o)
	require.NoError(t, err)
	require.Equal(t, 64, tr.Meta.Batch)
	s := tr.Steps[0]
	for name, d := range map[string]int64{"conv0/fwd": 5, "conv1/bwd": 20, "fc1/fwd": 1} {
		require.Equal(t, d*ms, s.Ops[opIndex(t, s, name)].Duration(), name)
	}
	// PS updates are not scaled: 8 MB · 1 ns/B.
	require.Equal(t, 8*ms, s.Ops[opIndex(t, s, "fc1/update")].Duration())
}

func TestJitterDeterminismAndMoments(t *testing.T) {
	t.Parallel()
	o := toyOptions()
	o.Steps, o.Jitter, o.Seed = 2000, 0.1, 42
	a, err := Synthesize(Toy(), o)
	require.NoError(t, err)
	b, err := Synthesize(Toy(), o)
	require.NoError(t, err)
	require.Equal(t, a, b)
	o.Seed = 43
	c, err := Synthesize(Toy(), o)
	require.NoError(t, err)
	require.NotEqual(t, a.Steps[0].Ops[4].Duration(), c.Steps[0].Ops[4].Duration())

	// conv0/fwd (10 ms at factor 1) gives the step's factor: mean 1, CV 0.1.
	var sum, sq float64
	for _, s := range a.Steps {
		f := float64(s.Ops[4].Duration()) / 1e7
		sum += f
		sq += f * f
		// One factor per step: conv1/bwd (40 ms) scales the same way.
		require.InDelta(t, 4*f, float64(s.Ops[10].Duration())/1e7, 1e-6)
	}
	n := float64(len(a.Steps))
	mean := sum / n
	sd := math.Sqrt(sq/n - mean*mean)
	require.InDelta(t, 1, mean, 3*0.1/math.Sqrt(n)) // 3 standard errors
	require.InDelta(t, 0.1, sd, 0.01)

	// No jitter: every step identical.
	o.Jitter, o.Steps = 0, 3
	d, err := Synthesize(Toy(), o)
	require.NoError(t, err)
	require.Equal(t, d.Steps[0], d.Steps[2])
}

func TestOptionsRejected(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		edit func(*Options)
		want string
	}{
		{"bandwidth zero", func(o *Options) { o.Bandwidth = 0 }, "Options.Bandwidth: 0 bytes/s"},
		{"bandwidth NaN", func(o *Options) { o.Bandwidth = nan() }, "Options.Bandwidth: NaN"},
		{"speed inf", func(o *Options) { o.DeviceSpeed = math.Inf(1) }, "Options.DeviceSpeed: +Inf"},
		{"alpha", func(o *Options) { o.Alpha = -1 }, "Options.Alpha: -1"},
		{"beta", func(o *Options) { o.Beta = -1 }, "Options.Beta: -1"},
		{"jitter", func(o *Options) { o.Jitter = nan() }, "Options.Jitter: NaN"},
		{"update", func(o *Options) { o.UpdateTime = -1e-9 }, "Options.UpdateTime"},
		{"steps", func(o *Options) { o.Steps = -1 }, "Options.Steps: negative value -1"},
		{"servers", func(o *Options) { o.Servers = -2 }, "Options.Servers: negative value -2"},
		{"batch", func(o *Options) { o.Batch = -3 }, "Options.Batch: negative value -3"},
		{"window", func(o *Options) { o.Window = -4 }, "Options.Window: negative value -4"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			o := toyOptions()
			c.edit(&o)
			_, err := Synthesize(Toy(), o)
			require.ErrorContains(t, err, c.want)
		})
	}
	_, err := Synthesize(nil, toyOptions())
	require.ErrorContains(t, err, "nil profile")
	p := Toy()
	p.Layers[0].Forward = -1
	_, err = Synthesize(p, toyOptions())
	require.ErrorContains(t, err, "negative Forward")
	p = Toy()
	for i := range p.Layers {
		p.Layers[i].ParamBytes = 0
	}
	_, err = Synthesize(p, toyOptions())
	require.ErrorContains(t, err, "no layer with parameters")
	o := toyOptions()
	o.Bandwidth = 1e-3 // 30 MB at 1 mB/s: beyond int64 nanoseconds
	_, err = Synthesize(Toy(), o)
	require.ErrorContains(t, err, "beyond int64 nanoseconds")
}

func TestDefaults(t *testing.T) {
	t.Parallel()
	tr, err := Synthesize(Toy(), Options{Bandwidth: 1e9})
	require.NoError(t, err)
	require.Len(t, tr.Steps, DefaultSteps)
	require.Equal(t, 1, tr.Meta.Servers)
	require.Equal(t, 32, tr.Meta.Batch)
	s := tr.Steps[0]
	upd := s.Ops[opIndex(t, s, "fc0/update")]
	require.Equal(t, int64(math.Round(16e6*DefaultUpdateTime*1e9)), upd.Duration())
}

// TestInputOnlyLayerGatedOnFirstDownlink: a parameter-free layer fed only
// by the Input node waits for the first downlink (CATALOGUE I-10).
func TestInputOnlyLayerGatedOnFirstDownlink(t *testing.T) {
	t.Parallel()
	p := &Profile{Model: "m", Batch: 1, Layers: []Layer{
		{Name: "in", Description: InputDescription, Forward: 1},
		{Name: "norm", Description: "Normalize", Forward: 0.001, Inputs: []int{0}},
		{Name: "fc", Description: "Linear", Forward: 0.001, ParamBytes: 1000, Inputs: []int{1}},
	}}
	tr, err := Synthesize(p, Options{Steps: 1, Bandwidth: 1e6})
	require.NoError(t, err)
	s := tr.Steps[0]
	require.Len(t, s.Ops, 1+4+2) // Input has no op
	norm := s.Ops[opIndex(t, s, "norm/fwd")]
	require.Equal(t, []int32{0}, norm.Deps)
	require.Equal(t, int64(1*ms), norm.Start) // 1000 B at 1 MB/s
}

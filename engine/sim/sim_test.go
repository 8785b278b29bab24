package sim

import (
	"bytes"
	"encoding/json"
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"pslab/engine/trace"
)

func TestDeterminism(t *testing.T) {
	t.Parallel()
	tr := inceptionLike(10, 0.2, 1, 3)
	cfg := Config{Workers: 3, Steps: 40, Seed: 11, SeriesWindow: 1}
	a, err := Run(tr, cfg)
	require.NoError(t, err)
	b, err := Run(tr, cfg)
	require.NoError(t, err)
	require.Equal(t, a, b)
	cfg.Seed = 12
	c, err := Run(tr, cfg)
	require.NoError(t, err)
	require.NotEqual(t, a.Throughput, c.Throughput, "another seed samples other steps")
}

func TestSweepMatchesSerial(t *testing.T) {
	t.Parallel()
	tr := inceptionLike(10, 0.2, 2, 4)
	cfg := Config{Steps: 30, Warmup: 5, Seed: 5, Link: Link{Mode: WholeStream, Order: Random}}
	ws := []int{1, 2, 3, 4, 5, 6}
	got, err := Sweep(tr, cfg, ws)
	require.NoError(t, err)
	require.Len(t, got, len(ws))
	for i, w := range ws {
		c := cfg
		c.Workers = w
		want, err := Run(tr, c)
		require.NoError(t, err)
		require.Equal(t, want, got[i], "W = %d", w)
	}
	_, err = Sweep(tr, cfg, []int{2, 0})
	require.ErrorContains(t, err, "W = 0: sim: Config.Workers: 0")
	_, err = Sweep(tr, Config{OnSpan: func(Span) {}}, ws)
	require.ErrorContains(t, err, "must be nil")
}

// TestSaturatesAtLinkBound: with many workers, throughput approaches and
// never exceeds the PS NIC bound Batch·B/(bytes per step per direction).
// Workers that start in lockstep stay there unless step times vary
// (processor sharing preserves offsets), so the trace varies by ±30% and
// the run is long enough to drift apart.
func TestSaturatesAtLinkBound(t *testing.T) {
	t.Parallel()
	tr := inceptionLike(20, 0.3, 1, 6)
	var perStep int64
	for _, op := range tr.Steps[0].Ops {
		if op.Resource.Kind == trace.Downlink {
			perStep += op.Bytes
		}
	}
	bound := float64(tr.Meta.Batch) * tr.Meta.Bandwidth / float64(perStep)
	r, err := Run(tr, Config{Workers: 8, Steps: 200})
	require.NoError(t, err)
	require.LessOrEqual(t, r.Throughput, bound*(1+1e-9))
	require.GreaterOrEqual(t, r.Throughput, 0.9*bound)
	// One worker is far from the bound: its step is compute-bound.
	r1, err := Run(tr, Config{Workers: 1, Steps: 60})
	require.NoError(t, err)
	require.Less(t, r1.Throughput, 0.3*bound)
	require.InDelta(t, float64(tr.Meta.Batch)/r1.StepTime.Mean, r1.Throughput, 1e-6*r1.Throughput)
}

// TestFig15Desynchronization is the icpe20-fig15 check: two workers start
// together (downlinks overlap) and drift apart, so the downlink overlap
// during the warm-up exceeds the steady-state overlap.
func TestFig15Desynchronization(t *testing.T) {
	t.Parallel()
	r, err := Run(inceptionLike(20, 0.1, 1, 1), Config{Workers: 2, Steps: 150, Seed: 1})
	require.NoError(t, err)
	require.Greater(t, r.WarmupDownlinkOverlap, r.DownlinkOverlap)
	require.Greater(t, r.WarmupDownlinkOverlap, 0.1)
}

// TestFig16ThroughputRisesAsWorkersInterleave is the icpe20-fig16 check
// with W = 3: the first windows' throughput is at most the steady state.
func TestFig16ThroughputRisesAsWorkersInterleave(t *testing.T) {
	t.Parallel()
	r, err := Run(inceptionLike(20, 0.1, 1, 1), Config{Workers: 3, Steps: 150, Seed: 1, SeriesWindow: 2})
	require.NoError(t, err)
	require.Greater(t, len(r.Series), 10)
	require.LessOrEqual(t, r.Series[0].Throughput, r.Throughput)
	require.Greater(t, r.Series[0].DownlinkOverlap, r.DownlinkOverlap)
	for i, w := range r.Series {
		require.InDelta(t, float64(i)*2, w.Start, 1e-9)
		require.LessOrEqual(t, w.End, r.WindowEnd)
	}
}

// TestWindow pins the measurement window of I-16 on a deterministic trace:
// every step takes 13.5 s for 3 workers in lockstep.
func TestWindow(t *testing.T) {
	t.Parallel()
	b := newStep().op("d", "downlink", 3, 0).op("f", "worker", 0, 1, "d").op("u", "uplink", 1, 0, "f").op("p", "ps", 0, 0.5, "u")
	tr := traceOf(1, 0, b.step())
	tr.Meta.Batch = 8
	r, err := Run(tr, Config{Workers: 3, Steps: 4, Warmup: 3, Overhead: &Overhead{}, Link: Link{Mode: WholeStream}})
	require.NoError(t, err)
	// The 3rd completion is at 13.5 (warm-up); the window is (13.5, 54],
	// holding the 9 completions at 27, 40.5 and 54.
	require.Equal(t, 13.5, r.WindowStart)
	require.Equal(t, 54.0, r.WindowEnd)
	require.Equal(t, 9, r.WindowSteps)
	require.Equal(t, 12, r.Steps)
	require.InDelta(t, 9.0/40.5, r.StepRate, 1e-15)
	require.InDelta(t, 8*9.0/40.5, r.Throughput, 1e-12)
	require.Equal(t, StepStats{Count: 9, Mean: 13.5, Min: 13.5, Max: 13.5}, r.StepTime)
	require.Equal(t, 1.0, r.DownlinkOverlap)
	require.Equal(t, 1.0, r.WarmupDownlinkOverlap)
	require.Equal(t, int64(48), r.Events)

	_, err = Run(tr, Config{Workers: 3, Steps: 4, Warmup: 12, Overhead: &Overhead{}, Link: Link{Mode: WholeStream}})
	require.ErrorContains(t, err, "Config.Warmup: 12 step completions leave no measurement window")
}

func TestConfigErrors(t *testing.T) {
	t.Parallel()
	tr := profiledToy()
	for _, c := range []struct {
		edit func(*Config, *trace.Trace)
		msg  string
	}{
		{func(c *Config, _ *trace.Trace) { c.Workers = 0 }, "Config.Workers: 0"},
		{func(c *Config, _ *trace.Trace) { c.Steps = -1 }, "Config.Steps: negative -1"},
		{func(c *Config, _ *trace.Trace) { c.Warmup = -2 }, "Config.Warmup: -2"},
		{func(c *Config, _ *trace.Trace) { c.Bandwidth = -1 }, "Config.Bandwidth: -1"},
		{func(c *Config, _ *trace.Trace) { c.Bandwidth = math.NaN() }, "Config.Bandwidth: NaN"},
		{func(_ *Config, t *trace.Trace) { t.Meta.Bandwidth = 0 }, "Config.Bandwidth: 0 bytes/s (trace Meta.Bandwidth 0)"},
		{func(c *Config, _ *trace.Trace) { c.Overhead = &Overhead{Alpha: -1} }, "Config.Overhead.Alpha: -1"},
		{func(c *Config, _ *trace.Trace) { c.Overhead = &Overhead{Beta: math.Inf(1)} }, "Config.Overhead.Beta: +Inf"},
		{func(c *Config, _ *trace.Trace) { c.Link.Mode = 7 }, "Config.Link.Mode: unknown mode(7)"},
		{func(c *Config, _ *trace.Trace) { c.Link.Order = 9 }, "Config.Link.Order: unknown order(9)"},
		{func(c *Config, _ *trace.Trace) { c.Link.Window = -5 }, "Config.Link.Window: negative -5"},
		{func(_ *Config, t *trace.Trace) { t.Meta.Window = 0 }, "Config.Link.Window: HTTP/2 multiplexing needs WIN > 0"},
		{func(_ *Config, t *trace.Trace) { t.Meta.Batch = 0 }, "Config.Batch: 0 examples"},
		{func(c *Config, _ *trace.Trace) { c.SeriesWindow = math.NaN() }, "Config.SeriesWindow: NaN"},
		{func(_ *Config, t *trace.Trace) { t.Steps[0].Ops[2].Deps = []int32{3} }, "sim: step 0: trace: op 2 \"f0\": dependency cycle"},
		{func(_ *Config, t *trace.Trace) { t.Steps[0].Ops[2].Resource.PS = 1 }, "op 2 \"f0\": worker resource with PS index 1"},
	} {
		cp := *tr
		cp.Steps = []trace.Step{{Ops: append([]trace.Op(nil), tr.Steps[0].Ops...)}}
		cfg := Config{Workers: 1, Steps: 2, Warmup: NoWarmup}
		c.edit(&cfg, &cp)
		_, err := Run(&cp, cfg)
		require.ErrorContains(t, err, c.msg)
	}
	_, err := Run(nil, Config{Workers: 1})
	require.ErrorContains(t, err, "nil trace")
	// WholeStream needs no window.
	cp := *tr
	cp.Meta.Window = 0
	_, err = Run(&cp, Config{Workers: 1, Steps: 2, Warmup: NoWarmup, Link: Link{Mode: WholeStream}})
	require.NoError(t, err)
}

// TestAllocationsIndependentOfSteps: the event loop allocates nothing, so a
// run of 10× the steps allocates exactly as much. The trace is compiled
// once, so that the garbage of compiling does not bring a collection (whose
// own allocations MemStats counts) into one run and not the other.
func TestAllocationsIndependentOfSteps(t *testing.T) {
	pr, err := Compile(inceptionLike(3, 0.1, 2, 7))
	require.NoError(t, err)
	allocs := func(steps int) float64 {
		return testing.AllocsPerRun(3, func() {
			_, err := pr.Run(Config{Workers: 3, Steps: steps, Warmup: 5, Link: Link{Order: TIC, Window: 1 << 20}})
			require.NoError(t, err)
		})
	}
	require.Equal(t, allocs(10), allocs(100))
}

func TestTimelineJSON(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	var first Span
	n := 0
	tr := traceOf(1, 3, fig5([]string{"conv0", "conv1", "fc0", "fc1"}, fig5Sizes).step())
	tr.Meta.Beta = 0.25
	r, err := Run(tr, Config{Workers: 2, Steps: 2, Warmup: NoWarmup, Timeline: &buf, OnSpan: func(s Span) {
		if n == 0 {
			first = s
		}
		n++
	}})
	require.NoError(t, err)
	var doc struct {
		TraceEvents []struct {
			Name string         `json:"name"`
			Ph   string         `json:"ph"`
			Ts   float64        `json:"ts"`
			Dur  float64        `json:"dur"`
			Pid  int            `json:"pid"`
			Tid  int            `json:"tid"`
			Args map[string]any `json:"args"`
		} `json:"traceEvents"`
	}
	require.NoError(t, json.Unmarshal(buf.Bytes(), &doc))
	var x, meta int
	threads := map[string]bool{}
	for _, e := range doc.TraceEvents {
		switch e.Ph {
		case "X":
			if x == 0 {
				require.Equal(t, first.Name, e.Name)
				require.InDelta(t, first.Start*1e6, e.Ts, 1e-3)
				require.InDelta(t, (first.End-first.Start)*1e6, e.Dur, 1e-3)
				require.Equal(t, first.Worker, e.Pid)
			}
			require.GreaterOrEqual(t, e.Dur, 0.0)
			x++
		case "M":
			meta++
			if e.Name == "thread_name" {
				threads[e.Args["name"].(string)] = true
			}
		}
	}
	require.Equal(t, int(r.Events), x)
	require.Equal(t, n, x)
	require.True(t, threads["downlink"] && threads["worker"] && threads["uplink"] && threads["ps"])
	require.True(t, threads["worker receive"] && threads["ps receive"], "receive-thread overheads have their own threads")
	require.Equal(t, 2*(1+4+2), meta) // per worker: process name + 4 resources + 2 receive threads

	// Overheads on the processors: no receive threads.
	buf.Reset()
	_, err = Run(tr, Config{Workers: 2, Steps: 2, Warmup: NoWarmup, Timeline: &buf, OverheadOn: Processor})
	require.NoError(t, err)
	require.NotContains(t, buf.String(), "receive")
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errFail }

var errFail = json.Unmarshal([]byte("x"), new(int))

func TestTimelineWriteError(t *testing.T) {
	t.Parallel()
	_, err := Run(profiledToy(), Config{Workers: 1, Steps: 2, Warmup: NoWarmup, Timeline: failWriter{}})
	require.ErrorContains(t, err, "sim: Config.Timeline:")
}

func TestLinkStates(t *testing.T) {
	t.Parallel()
	n, err := LinkStateCount(3, 2)
	require.NoError(t, err)
	require.Equal(t, int64(64), n.Int64()) // icpe20-fig24: W = 3, M = 2
	n, err = LinkStateCount(10, 10)
	require.NoError(t, err)
	require.Equal(t, 101, n.BitLen()) // 2^100
	states, err := LinkStates(3, 2)
	require.NoError(t, err)
	require.Len(t, states, 64)
	seen := map[[6]bool]bool{}
	for _, s := range states {
		require.Len(t, s, 6)
		seen[[6]bool(s)] = true
	}
	require.Len(t, seen, 64)
	require.Equal(t, []bool{false, true, false, false, false, false}, states[2]) // worker 0, ps 1
	_, err = LinkStates(7, 3)
	require.ErrorContains(t, err, "W·M = 21 links")
	_, err = LinkStateCount(0, 2)
	require.ErrorContains(t, err, "workers: 0")
	_, err = LinkStates(2, 0)
	require.ErrorContains(t, err, "servers: 0")
}

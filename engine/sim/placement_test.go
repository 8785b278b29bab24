package sim

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"pslab/engine/dataset"
	"pslab/engine/trace"
	"pslab/engine/zoo"
)

func TestParseOverheadPlacement(t *testing.T) {
	t.Parallel()
	for _, o := range []OverheadPlacement{ReceiveThreads, Processor} {
		got, err := ParseOverheadPlacement(o.String())
		require.NoError(t, err)
		require.Equal(t, o, got)
	}
	require.Equal(t, "receive-threads", OverheadPlacement(0).String(), "the zero value is the default")
	_, err := ParseOverheadPlacement("gpu")
	require.ErrorContains(t, err, `unknown overhead placement "gpu"`)
	_, err = Run(profiledToy(), Config{Workers: 1, OverheadOn: 7})
	require.ErrorContains(t, err, "Config.OverheadOn: unknown overhead-placement(7)")
}

// TestReceiveThreadsOverlapOverheads: the hand example of profiledToy
// under ReceiveThreads. u1 (200 B) ends at 0.86 s and parses for
// 0.21 s on the PS side (to 1.07); u0 (100 B) ends at 0.96 and parses for
// 0.11 s at the same time (to 1.07), instead of waiting for u1's parsing as
// under Processor. p1 and p0 then update one after the other: 1.07–1.12,
// 1.12–1.17. The downlink side does not change (the worker is idle when
// d1's overhead starts).
func TestReceiveThreadsOverlapOverheads(t *testing.T) {
	t.Parallel()
	ss, r, err := spans(profiledToy(), Config{Workers: 1, Steps: 2, Warmup: NoWarmup})
	require.NoError(t, err)
	span := func(name string) Span {
		for _, s := range ss {
			if s.Step == 0 && s.Name == name {
				return s
			}
		}
		t.Fatalf("no span %q", name)
		return Span{}
	}
	for _, c := range []struct {
		name       string
		start, end float64
	}{
		{"d0/overhead", 0.1, 0.21}, {"d1/overhead", 0.3, 0.51}, {"f0", 0.21, 0.26}, {"f1", 0.51, 0.56},
		{"u1/overhead", 0.86, 1.07}, {"u0/overhead", 0.96, 1.07}, {"p1", 1.07, 1.12}, {"p0", 1.12, 1.17},
	} {
		s := span(c.name)
		require.InDelta(t, c.start, s.Start, 1e-12, c.name)
		require.InDelta(t, c.end, s.End, 1e-12, c.name)
	}
	require.Equal(t, trace.PS, span("u0/overhead").Resource.Kind, "spans name the receiving side")
	require.InDelta(t, 1.17, r.StepTime.Mean, 1e-12)
	require.Equal(t, int64(2*14), r.Events, "an overhead completion is one event")
}

// TestProcessorSerializesOverheads pins the Processor placement on a hand
// example at 100 B/s, flow control off, β = 0.5 s: downlinks g and d
// (100 B each) are requested together; b0 (1.5 s) waits for g, f (0.2 s)
// for d. g arrives at 1 s and parses until 1.5 s, so b0 runs 1.5–3 s on
// the worker; d arrives at 2 s. Under Processor, d's parsing is a worker
// op that queues behind b0: 3–3.5 s, then f 3.5–3.7 s. Under
// ReceiveThreads it runs 2–2.5 s beside b0, and f runs as soon as b0 ends:
// 3–3.2 s.
func TestProcessorSerializesOverheads(t *testing.T) {
	t.Parallel()
	b := newStep().op("g", "downlink", 100, 0).op("b0", "worker", 0, 1.5, "g").
		op("d", "downlink", 100, 0).op("f", "worker", 0, 0.2, "d")
	tr := traceOf(100, 0, b.step())
	tr.Meta.Beta = 0.5
	cfg := Config{Workers: 1, Steps: 1, Warmup: NoWarmup, Link: Link{Mode: WholeStream}, OverheadOn: Processor}
	ss, r, err := spans(tr, cfg)
	require.NoError(t, err)
	require.InDelta(t, 3.0, endOf(ss, 0, 0, "b0"), 1e-12)
	require.InDelta(t, 3.5, endOf(ss, 0, 0, "d/overhead"), 1e-12, "queued behind b0")
	require.InDelta(t, 3.7, endOf(ss, 0, 0, "f"), 1e-12)
	require.InDelta(t, 3.7, r.StepTime.Mean, 1e-12)

	cfg.OverheadOn = ReceiveThreads
	ss, r, err = spans(tr, cfg)
	require.NoError(t, err)
	require.InDelta(t, 3.0, endOf(ss, 0, 0, "b0"), 1e-12)
	require.InDelta(t, 2.5, endOf(ss, 0, 0, "d/overhead"), 1e-12, "beside b0")
	require.InDelta(t, 3.2, endOf(ss, 0, 0, "f"), 1e-12, "waits for b0, not for the overhead")
	require.InDelta(t, 3.2, r.StepTime.Mean, 1e-12)
}

// TestReplayZooTraceAtOneWorker: a trace synthesized by package zoo from a
// real profile, with α, β > 0 and no jitter, replayed with one worker at
// the profiling bandwidth gives the recorded step time under
// ReceiveThreads (zoo records the overhead the same way), and a longer
// step under Processor, whose serialized overheads the trace never paid
// (not always: AlexNet's 16 tensors barely contend with its compute).
func TestReplayZooTraceAtOneWorker(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		model   string
		servers int
		window  int64
		mode    Mode
	}{
		{"alexnet", 1, 0, WholeStream},
		{"alexnet", 2, 28e6, Multiplex},
		{"inception_v3", 1, 0, WholeStream},
		{"inception_v3", 2, 0, WholeStream},
		{"inception_v3", 1, 28e6, Multiplex},
	} {
		where := fmt.Sprintf("%s M=%d %s", c.model, c.servers, c.mode)
		tab, err := dataset.Read(filepath.Join("..", "..", "datasets", "zoo", c.model+".arrow"), zoo.ProfileSchema, dataset.Allocator)
		require.NoError(t, err, where)
		p, err := zoo.ProfileFromTable(tab)
		require.NoError(t, err, where)
		tr, err := zoo.Synthesize(p, zoo.Options{Steps: 3, Servers: c.servers, Bandwidth: 1.25e9, Window: c.window,
			Alpha: 2e-10, Beta: 1.2e-4, Seed: 1})
		require.NoError(t, err, where)
		var recorded int64
		for _, op := range tr.Steps[0].Ops {
			recorded = max(recorded, op.End)
		}
		want := float64(recorded) * 1e-9
		cfg := Config{Workers: 1, Steps: 5, Warmup: NoWarmup, Link: Link{Mode: c.mode}}
		r, err := Run(tr, cfg)
		require.NoError(t, err, where)
		require.InEpsilon(t, want, r.StepTime.Mean, 1e-9, where)
		require.InEpsilon(t, want, r.StepTime.Max, 1e-9, where)

		cfg.OverheadOn = Processor
		r, err = Run(tr, cfg)
		require.NoError(t, err, where)
		t.Logf("%s: recorded %.6f s, Processor replay ×%.4f", where, want, want/r.StepTime.Mean)
		require.GreaterOrEqual(t, r.StepTime.Mean, want*(1-1e-9), where)
		if c.model == "inception_v3" { // 194 tensors: their parsing contends with compute
			require.Greater(t, r.StepTime.Mean, want*1.01, "%s: Processor serializes the overheads", where)
		}
	}
}

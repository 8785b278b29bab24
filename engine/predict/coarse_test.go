package predict

import (
	"testing"

	"github.com/stretchr/testify/require"

	"pslab/engine/cynthia"
	"pslab/engine/mva"
	"pslab/engine/trace"
)

const sec = 1e9 // nanoseconds per second

func op(name string, k trace.Kind, start, end float64, bytes int64, deps ...int32) trace.Op {
	return trace.Op{Name: name, Resource: trace.Resource{Kind: k}, Start: int64(start * sec), End: int64(end * sec), Bytes: bytes, Deps: deps}
}

// handStep is a 1-worker step at 100 B/s with α = 1 ms/B and β = 0.1 s:
// downlinks of 100 and 200 B arrive on the wire at 1 s and 3 s (recorded
// 1.2 s and 3.3 s), uplinks of 200 and 100 B start at 5 s and 5.5 s and
// leave the wire at 7 s and 8 s (FIFO), the last update ends at 8.6 s.
func handStep() trace.Step {
	return trace.Step{Ops: []trace.Op{
		op("d0", trace.Downlink, 0, 1.2, 100),
		op("d1", trace.Downlink, 0, 3.3, 200),
		op("f0", trace.Worker, 1.2, 2.0, 0, 0),
		op("f1", trace.Worker, 3.3, 4.0, 0, 1, 2),
		op("b1", trace.Worker, 4.0, 5.0, 0, 3),
		op("u1", trace.Uplink, 5.0, 7.3, 200, 4),
		op("b0", trace.Worker, 5.0, 5.5, 0, 4),
		op("u0", trace.Uplink, 5.5, 8.2, 100, 6),
		op("p1", trace.PS, 7.3, 7.5, 0, 5),
		op("p0", trace.PS, 8.2, 8.6, 0, 7),
	}}
}

func TestCoarseFromTraceHandValues(t *testing.T) {
	t.Parallel()
	tr := &trace.Trace{Meta: trace.Meta{Bandwidth: 100, Alpha: 1e-3, Beta: 0.1, Servers: 1, Batch: 4},
		Steps: []trace.Step{handStep(), handStep()}}
	c, err := FromTrace(tr)
	require.NoError(t, err)
	const eps = 1e-8                                // times are whole nanoseconds
	require.InDelta(t, 3.0, c.Phases.Downlink, eps) // last downlink byte at 3 s
	require.InDelta(t, 2.0, c.Phases.Worker, eps)   // 3 s → first uplink at 5 s
	require.InDelta(t, 3.0, c.Phases.Uplink, eps)   // 5 s → last uplink byte at 8 s
	require.InDelta(t, 0.6, c.Phases.Server, eps)   // 8 s → step end 8.6 s
	require.InDelta(t, 8.6, c.Step, eps)
	require.InDelta(t, c.Step, c.Phases.Cycle(), eps, "the tcpdump phases tile the step")
	require.InDelta(t, 0.8+0.7+1.0+0.5, c.Tp, eps)
	require.InDelta(t, 3.0, c.Tc, eps) // 300 B / 100 B/s
	require.InDelta(t, 6.0/8.6, c.U1, eps)
	require.Equal(t, []float64{300}, c.ServerBytes)
	require.InDelta(t, 4*100.0/300, c.LinkBound(4, 100), eps)
	require.Equal(t, 1.0, c.Imbalance())
}

// Without overlap, overhead or PS time the step is T_p + 2T_C and U_1 is
// Cynthia's single-worker utilization 2T_C/(T_p + 2T_C); MVA at one worker
// gives 1/step.
func TestCoarseNoOverlapMatchesCynthiaAndMVA(t *testing.T) {
	t.Parallel()
	tr := &trace.Trace{Meta: trace.Meta{Bandwidth: 100, Servers: 1, Batch: 8}, Steps: []trace.Step{{Ops: []trace.Op{
		op("d", trace.Downlink, 0, 1, 100),
		op("w", trace.Worker, 1, 3, 0, 0),
		op("u", trace.Uplink, 3, 4, 100, 1),
		op("p", trace.PS, 4, 4, 0, 2),
	}}}}
	c, err := FromTrace(tr)
	require.NoError(t, err)
	u1, err := cynthia.SingleWorkerUtilization(c.Tp, c.Tc)
	require.NoError(t, err)
	require.InDelta(t, u1, c.U1, 1e-12)
	require.InDelta(t, 0.5, c.U1, 1e-12)
	for _, v := range []mva.Variant{mva.Exact, mva.Approximate, mva.Hybrid} {
		x, err := mva.Curve(c.Phases, 1, 1, v)
		require.NoError(t, err)
		require.InDelta(t, 1/c.Step, x[0], 1e-12, v.String())
	}
	x, err := c.Cynthia(8).Throughput(1)
	require.NoError(t, err)
	require.InDelta(t, 8/(2+2*1.0), x, 1e-12)
}

func TestCoarseFromTraceErrors(t *testing.T) {
	t.Parallel()
	bad := handStep()
	bad.Ops[5].Start = int64(2.5 * sec) // uplink before the last downlink byte (3 s)
	for name, tc := range map[string]struct {
		tr   *trace.Trace
		want string
	}{
		"bandwidth":     {&trace.Trace{Meta: trace.Meta{}, Steps: []trace.Step{handStep()}}, "bandwidth 0"},
		"no steps":      {&trace.Trace{Meta: trace.Meta{Bandwidth: 100}}, "no steps"},
		"overlap":       {&trace.Trace{Meta: trace.Meta{Bandwidth: 100, Alpha: 1e-3, Beta: 0.1}, Steps: []trace.Step{bad}}, "tcpdump phases overlap"},
		"no uplink":     {&trace.Trace{Meta: trace.Meta{Bandwidth: 100}, Steps: []trace.Step{{Ops: []trace.Op{op("d", trace.Downlink, 0, 1, 100)}}}}, "no downlink or no uplink"},
		"U1 above one":  {twoPSOverlap(), "U_1 = 2 > 1.05"},
		"U1 over slack": {burstStep(120), "U_1 = 1.1 > 1.05"},
	} {
		_, err := FromTrace(tc.tr)
		require.ErrorContains(t, err, tc.want, name)
	}
}

// twoPSOverlap moves 400 B in 2 s at 100 B/s: transfers to two PS overlap.
func twoPSOverlap() *trace.Trace {
	s := trace.Step{Ops: []trace.Op{
		op("d0", trace.Downlink, 0, 1, 100), op("d1", trace.Downlink, 0, 1, 100),
		op("w", trace.Worker, 1, 1, 0, 0, 1),
		op("u0", trace.Uplink, 1, 2, 100, 2), op("u1", trace.Uplink, 1, 2, 100, 2),
	}}
	s.Ops[1].Resource.PS, s.Ops[4].Resource.PS = 1, 1
	return &trace.Trace{Meta: trace.Meta{Bandwidth: 100, Servers: 2}, Steps: []trace.Step{s}}
}

// burstStep moves 100 B down in 1 s and up B up in the next 1 s at
// 100 B/s: U_1 = (100 + up)/200.
func burstStep(up int64) *trace.Trace {
	s := trace.Step{Ops: []trace.Op{
		op("d", trace.Downlink, 0, 1, 100),
		op("w", trace.Worker, 1, 1, 0, 0),
		op("u", trace.Uplink, 1, 2, up, 1),
	}}
	return &trace.Trace{Meta: trace.Meta{Bandwidth: 100, Servers: 1}, Steps: []trace.Step{s}}
}

// A shaper's burst lets a saturated 1-worker step run slightly faster
// than bytes/B; within U1Slack that reads as U_1 = 1.
func TestCoarseU1BurstSlack(t *testing.T) {
	t.Parallel()
	c, err := FromTrace(burstStep(102)) // U_1 = 1.01
	require.NoError(t, err)
	require.Equal(t, 1.0, c.U1)
	c, err = FromTrace(burstStep(100))
	require.NoError(t, err)
	require.Equal(t, 1.0, c.U1)
	c, err = FromTrace(burstStep(60))
	require.NoError(t, err)
	require.InDelta(t, 0.8, c.U1, 1e-12)
}

func TestKnee(t *testing.T) {
	t.Parallel()
	ws := []int{1, 2, 3, 4, 5}
	// Gains 90%, 31.6%, 2%: the knee is W = 3.
	k, sat := Knee(ws, []float64{100, 190, 250, 255, 256}, 0.05)
	require.Equal(t, 3, k)
	require.True(t, sat)
	// A drop is a gain below ε.
	k, _ = Knee(ws, []float64{100, 90, 250, 255, 256}, 0.05)
	require.Equal(t, 1, k)
	// Linear: never saturates within the sweep.
	k, sat = Knee(ws, []float64{1, 2, 3, 4, 5}, 0.05)
	require.Equal(t, 5, k)
	require.False(t, sat)
}

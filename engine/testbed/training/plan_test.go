package training

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"pslab/engine/trace"
	"pslab/engine/zoo"
)

func mustPlan(t *testing.T, j Job) *Plan {
	t.Helper()
	p, err := j.LoadPlan()
	require.NoError(t, err)
	return p
}

func toyJob() Job {
	return Job{Profile: "toy", DeviceSpeed: 2, BytesScale: 0.01, Servers: 2, Workers: 1, Sync: ASP,
		Transport: Multiplexed, Order: OrderDefault, Window: minWindow, ConnWindow: minWindow}
}

func TestPlanMatchesZooSynthesizeLayout(t *testing.T) {
	t.Parallel()
	// Same op order, names, resources, PS placement and dependencies as the
	// synthesized traces, so measured and synthetic traces line up.
	p := mustPlan(t, toyJob())
	syn, err := zoo.Synthesize(zoo.Toy(), zoo.Options{Steps: 1, Servers: 2, Bandwidth: 1e9})
	require.NoError(t, err)
	want := syn.Steps[0].Ops
	require.Len(t, p.Ops, len(want))
	for i := range want {
		require.Equal(t, want[i].Name, p.Ops[i].Name, "op %d", i)
		require.Equal(t, want[i].Resource.Kind, p.Ops[i].Resource.Kind, "op %d", i)
		require.Equal(t, fmt.Sprint(want[i].Deps), fmt.Sprint(p.Ops[i].Deps), "op %d %s", i, want[i].Name)
	}
	// toy params 2, 4, 16, 8 MB scaled by 0.01; greedy: conv0→0, conv1→1, fc0→0, fc1→1
	require.Equal(t, []int64{20000, 40000, 160000, 80000}, []int64{p.Tensors[0].Bytes, p.Tensors[1].Bytes, p.Tensors[2].Bytes, p.Tensors[3].Bytes})
	require.Equal(t, []int{0, 1, 0, 1}, []int{p.Tensors[0].Server, p.Tensors[1].Server, p.Tensors[2].Server, p.Tensors[3].Server})
	require.Equal(t, []int64{180000, 120000}, p.Load)
	// conv0 forward: 10 ms · (32/32) / 2
	require.Equal(t, 5*time.Millisecond, p.Compute[0])
	require.Equal(t, time.Duration(0.111/2*1e9), p.StepCompute())
	// uplink and update of tensor k, and which backward op produces it
	require.Equal(t, "fc1/up", p.Ops[p.UplinkOp(3)].Name)
	require.Equal(t, "conv0/update", p.Ops[p.UpdateOp(0)].Name)
	require.Equal(t, trace.Resource{Kind: trace.PS, PS: 1}, p.Ops[p.UpdateOp(1)].Resource)
	for i := range p.Ops {
		if k := p.GradientOf(i); k >= 0 {
			require.Equal(t, p.Tensors[k].Name+"/bwd", p.Ops[i].Name)
		}
	}
}

func TestPlanBatchScalesCompute(t *testing.T) {
	t.Parallel()
	j := toyJob()
	j.Batch = 64 // twice the toy's 32
	p := mustPlan(t, j)
	require.Equal(t, 64, p.Batch)
	require.Equal(t, 10*time.Millisecond, p.Compute[0], "10 ms · 64/32 / 2")
}

func TestScaledBytes(t *testing.T) {
	t.Parallel()
	require.Equal(t, int64(4), ScaledBytes(512, 0.0025), "1.28 bytes rounds up to one float")
	require.Equal(t, int64(4), ScaledBytes(1, 0.0025))
	require.Equal(t, int64(611000), ScaledBytes(244400000, 0.0025))
	require.Equal(t, int64(8), ScaledBytes(10, 0.7), "7 bytes → 1.75 floats → 2 floats")
}

func TestJobValidateNamesField(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		edit func(*Job)
		want string
	}{
		{func(j *Job) { j.Profile = "" }, "empty profile"},
		{func(j *Job) { j.DeviceSpeed = 0 }, "device speed"},
		{func(j *Job) { j.BytesScale = 1.5 }, "bytes scale"},
		{func(j *Job) { j.Servers = 0 }, "servers"},
		{func(j *Job) { j.Workers = 0 }, "workers"},
		{func(j *Job) { j.Sync = "ssp" }, "sync"},
		{func(j *Job) { j.Transport = "udp" }, "transport"},
		{func(j *Job) { j.Order = "size" }, "order"},
		{func(j *Job) { j.Window = 1000 }, "window 1000 bytes"},
		{func(j *Job) { j.Batch = -1 }, "batch"},
		{func(j *Job) { j.StartStagger = -1 }, "start stagger"},
		{func(j *Job) { j.StartStagger = MaxStartStagger + 1 }, "start stagger"},
	} {
		j := toyJob()
		tc.edit(&j)
		require.ErrorContains(t, j.Validate(), tc.want)
	}
	j := toyJob()
	j.Transport, j.Window = Ordered, 0 // ordered ignores the window
	require.NoError(t, j.Validate())
	stream, conn := j.Windows()
	require.Equal(t, int32(OrderedWindow), stream)
	require.Equal(t, int32(OrderedWindow), conn)
}

package sim

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// fig5 is the 4-layer model of icpe20 Fig. 5 (conv0, conv1, fc0, fc1) as a
// Fig. 6 step: downlink → forward chain → backward in reverse → uplink →
// update. The downlinks are listed in the order given by names (the order
// in which the profiler saw the requests), sizes in bytes.
func fig5(names []string, sizes map[string]int64) *stepBuilder {
	b := newStep()
	for _, l := range names {
		b.op("d/"+l, "downlink", sizes[l], 0)
	}
	layers := []string{"conv0", "conv1", "fc0", "fc1"}
	for i, l := range layers {
		deps := []string{"d/" + l}
		if i > 0 {
			deps = append(deps, "f/"+layers[i-1])
		}
		b.op("f/"+l, "worker", 0, 1, deps...)
	}
	for i := len(layers) - 1; i >= 0; i-- {
		l := layers[i]
		dep := "f/fc1"
		if i < len(layers)-1 {
			dep = "b/" + layers[i+1]
		}
		b.op("b/"+l, "worker", 0, 1, dep)
		b.op("u/"+l, "uplink", sizes[l], 0, "b/"+l)
		b.op("p/"+l, "ps", 0, 0.5, "u/"+l)
	}
	return b
}

var fig5Sizes = map[string]int64{"conv0": 4, "conv1": 2, "fc0": 6, "fc1": 1}

func TestTICPriority(t *testing.T) {
	t.Parallel()
	st := fig5([]string{"fc1", "fc0", "conv1", "conv0"}, fig5Sizes).step()
	pr := TICPriority(&st)
	got := map[string]int32{}
	for i, op := range st.Ops {
		got[op.Name] = pr[i]
	}
	// conv0's forward waits for 1 transfer, conv1's for 2, ...
	require.Equal(t, int32(1), got["d/conv0"])
	require.Equal(t, int32(2), got["d/conv1"])
	require.Equal(t, int32(3), got["d/fc0"])
	require.Equal(t, int32(4), got["d/fc1"])
	// Each uplink is needed by its own update only.
	for _, l := range []string{"conv0", "conv1", "fc0", "fc1"} {
		require.Equal(t, int32(1), got["u/"+l])
		require.Zero(t, got["f/"+l])
	}
}

func downlinkOrder(ss []Span) string {
	var out []string
	for _, s := range ss {
		if s.Resource.Kind.String() == "downlink" && s.Last && s.Step == 0 && s.Worker == 0 {
			out = append(out, strings.TrimPrefix(s.Name, "d/"))
		}
	}
	return strings.Join(out, " ")
}

// TestEnforcedOrders: with flow control off, the downlinks of a step go in
// TIC order, its reverse, or a seeded random order (Fig. 18).
func TestEnforcedOrders(t *testing.T) {
	t.Parallel()
	tr := traceOf(1, 0, fig5([]string{"fc1", "fc0", "conv1", "conv0"}, fig5Sizes).step())
	run := func(o Order, seed uint64) ([]Span, Result) {
		ss, r, err := spans(tr, Config{Workers: 1, Steps: 1, Warmup: NoWarmup, Seed: seed, Overhead: &Overhead{}, Link: Link{Mode: WholeStream, Order: o}})
		require.NoError(t, err)
		return ss, r
	}
	fifo, rf := run(FIFO, 0)
	tic, rt := run(TIC, 0)
	rev, _ := run(ReverseTIC, 0)
	require.Equal(t, "fc1 fc0 conv1 conv0", downlinkOrder(fifo))
	require.Equal(t, "conv0 conv1 fc0 fc1", downlinkOrder(tic))
	require.Equal(t, "fc1 fc0 conv1 conv0", downlinkOrder(rev))
	// TIC lets conv0's forward start at 4 instead of 13.
	require.Less(t, rt.StepTime.Mean, rf.StepTime.Mean)
	seen := map[string]bool{}
	for seed := range uint64(16) {
		a, _ := run(Random, seed)
		b, _ := run(Random, seed)
		require.Equal(t, downlinkOrder(a), downlinkOrder(b), "same seed, same order")
		seen[downlinkOrder(a)] = true
	}
	require.Greater(t, len(seen), 3, "random orders differ across seeds")
}

// TestFig8MultiplexBlocksComputation is the icpe20-fig5/fig8 check: a
// stream larger than WIN ahead of the streams the forward pass needs later
// is preempted, so the first layer's forward waits for everyone's first
// service; whole-stream ordered transfer does not (Fig. 8(c) vs 8(d)).
func TestFig8MultiplexBlocksComputation(t *testing.T) {
	t.Parallel()
	tr := traceOf(1, 3, fig5([]string{"conv0", "conv1", "fc0", "fc1"}, fig5Sizes).step())
	cfg := Config{Workers: 1, Steps: 1, Warmup: NoWarmup, Overhead: &Overhead{}}
	mux, rm, err := spans(tr, cfg)
	require.NoError(t, err)
	cfg.Link = Link{Mode: WholeStream, Order: TIC}
	whole, rw, err := spans(tr, cfg)
	require.NoError(t, err)
	// Hand-computed with B = 1 byte/s, WIN = 3: multiplexed chunks are
	// conv0 3 [0,3], conv1 [3,5], fc0 3 [5,8], fc1 [8,9], conv0 1 [9,10],
	// fc0 3 [10,13]; whole streams end at 4, 6, 12, 13.
	for _, c := range []struct {
		layer     string
		mux, whol float64
	}{{"conv0", 11, 5}, {"conv1", 12, 7}, {"fc0", 14, 13}, {"fc1", 15, 14}} {
		require.Equal(t, c.mux, endOf(mux, 0, 0, "f/"+c.layer), c.layer)
		require.Equal(t, c.whol, endOf(whole, 0, 0, "f/"+c.layer), c.layer)
	}
	require.LessOrEqual(t, rw.StepTime.Mean, rm.StepTime.Mean)
	require.Less(t, rw.StepTime.Mean, rm.StepTime.Mean)
}

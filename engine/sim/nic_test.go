package sim

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"pslab/engine/trace"
)

// TestMaxMinRatesWorkedExample: flows A: 0→1, B: 0→3, C: 2→1, D: 2→1.
// Resource 1 carries A, C, D and is the bottleneck at 1/3 each; then
// resource 0 has 2/3 left for B alone.
func TestMaxMinRatesWorkedExample(t *testing.T) {
	t.Parallel()
	src := []int32{0, 0, 2, 2}
	dst := []int32{1, 3, 1, 1}
	m := newMaxMin(4, 4)
	got := m.rates([]int32{0, 1, 2, 3}, src, dst)
	want := []float64{1.0 / 3, 2.0 / 3, 1.0 / 3, 1.0 / 3}
	require.InDeltaSlice(t, want, got, 1e-15)
	got = m.rates([]int32{3, 1}, src, dst) // D alone on 2→1, B alone on 0→3
	require.InDeltaSlice(t, []float64{1, 1}, got, 1e-15)
}

// TestMaxMinRatesAreMaxMinFair checks the defining property on random
// flow sets: no resource carries more than its capacity, and every flow
// has a bottleneck, a saturated resource on which no flow is faster.
func TestMaxMinRatesAreMaxMinFair(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(1, 2))
	for trial := range 500 {
		nodes := 1 + r.IntN(8)
		R := 2 * nodes
		F := r.IntN(40)
		src, dst, flows := make([]int32, F), make([]int32, F), make([]int32, F)
		for i := range F {
			a, b := r.IntN(nodes), r.IntN(nodes)
			src[i], dst[i], flows[i] = 2*int32(a), 2*int32(b)+1, int32(i)
		}
		m := newMaxMin(R, F)
		rates := m.rates(flows, src, dst)
		load, top := make([]float64, R), make([]float64, R)
		for i, x := range rates {
			require.Greater(t, x, 0.0, "trial %d: flow %d", trial, i)
			for _, res := range []int32{src[i], dst[i]} {
				load[res] += x
				top[res] = max(top[res], x)
			}
		}
		for res, l := range load {
			require.LessOrEqual(t, l, 1+1e-12, "trial %d: resource %d over capacity", trial, res)
		}
		for i, x := range rates {
			ok := false
			for _, res := range []int32{src[i], dst[i]} {
				ok = ok || (math.Abs(load[res]-1) < 1e-12 && x >= top[res]-1e-12)
			}
			require.True(t, ok, "trial %d: flow %d (rate %v) has no bottleneck", trial, i, x)
		}
	}
}

// colocatedTrace is one step on W nodes with one PS shard per node: the
// worker pulls b bytes from every shard, computes c seconds and pushes b
// bytes to every shard.
func colocatedTrace(W int, b int64, c float64, bw float64) *trace.Trace {
	s := newStep()
	var downs []string
	for j := range W {
		name := fmt.Sprintf("d%d", j)
		s.op(name, fmt.Sprintf("downlink:%d", j), b, 0)
		downs = append(downs, name)
	}
	s.op("c", "worker", 0, c, downs...)
	for j := range W {
		s.op(fmt.Sprintf("u%d", j), fmt.Sprintf("uplink:%d", j), b, 0, "c")
	}
	tr := traceOf(bw, 1<<20, s.step())
	tr.Meta.Servers = W
	return tr
}

// TestColocatedSymmetricClosedForm: W workers in step, each pulling from
// the W−1 remote shards: every NIC direction carries W−1 flows at B/(W−1)
// each, so a step takes 2(W−1)·b/B + c (its own shard costs nothing).
// The coarse models' equivalent, W PSs on NICs of their own at
// B·W/(2(W−1)) (predict.ColocatedBandwidth), moves the same bytes per NIC
// and step but as if pulls and pushes overlapped: W flows per PS NIC at
// B/(2(W−1)) each, a step of 4(W−1)·b/B + c. Workers in step pull and push
// in separate phases, so the shared NICs are twice as fast here.
func TestColocatedSymmetricClosedForm(t *testing.T) {
	t.Parallel()
	const b, c, bw = 1e6, 0.05, 1e8
	for W := 1; W <= 5; W++ {
		tr := colocatedTrace(W, b, c, bw)
		res, err := Run(tr, Config{Workers: W, Steps: 20, Warmup: NoWarmup, Colocated: true, Link: Link{Mode: WholeStream}})
		require.NoError(t, err, "W=%d", W)
		step := 2*float64(W-1)*b/bw + c
		require.InEpsilon(t, float64(W)/step, res.Throughput, 1e-9, "W=%d", W)
		if W > 1 {
			eq, err := Run(tr, Config{Workers: W, Steps: 20, Warmup: NoWarmup, Bandwidth: bw * float64(W) / (2 * float64(W-1)), Link: Link{Mode: WholeStream}})
			require.NoError(t, err)
			require.InEpsilon(t, float64(W)/(4*float64(W-1)*b/bw+c), eq.Throughput, 1e-9, "W=%d: the coarse equivalent", W)
		}
	}
}

// TestColocatedSharesTheNodeNIC works one step out by hand (B = 100 MB/s,
// whole streams). Worker 0 pulls 4 MB from shard 1 (out(1) → in(0)) and
// worker 1 pulls 2 MB from shard 0 (out(0) → in(1)): disjoint, both at B;
// worker 1's pull ends at 0.02 s, it computes until 0.03 s and pushes 3 MB
// to shard 0 (out(1) → in(0)), the path of worker 0's pull, whose last
// 1 MB now moves at B/2: it ends at 0.05 s, not 0.04 s. Worker 1's push
// then runs alone (2 MB left) until 0.07 s; worker 0 computes until
// 0.06 s and pushes 1 MB to shard 1 (out(0) → in(1)) by 0.07 s.
// Transfers with one's own shard take no time.
func TestColocatedSharesTheNodeNIC(t *testing.T) {
	t.Parallel()
	s := newStep()
	s.op("d0", "downlink:0", 2e6, 0)
	s.op("d1", "downlink:1", 4e6, 0)
	s.op("c", "worker", 0, 0.01, "d0", "d1")
	s.op("u0", "uplink:0", 3e6, 0, "c")
	s.op("u1", "uplink:1", 1e6, 0, "c")
	tr := traceOf(1e8, 1<<20, s.step())
	tr.Meta.Servers = 2
	sp, _, err := spans(tr, Config{Workers: 2, Steps: 2, Warmup: NoWarmup, Colocated: true, Link: Link{Mode: WholeStream}})
	require.NoError(t, err)
	for _, c := range []struct {
		w    int
		name string
		end  float64
	}{{0, "d0", 0}, {0, "d1", 0.05}, {0, "u0", 0.06}, {0, "u1", 0.07}, {1, "d0", 0.02}, {1, "d1", 0}, {1, "u1", 0.03}, {1, "u0", 0.07}} {
		require.InDelta(t, c.end, endOf(sp, c.w, 0, c.name), 1e-12, "worker %d %s", c.w, c.name)
	}
}

func TestColocatedNeedsOnePSPerWorker(t *testing.T) {
	t.Parallel()
	tr := colocatedTrace(2, 1e6, 0.01, 1e8)
	_, err := Run(tr, Config{Workers: 3, Colocated: true})
	require.ErrorContains(t, err, "Config.Colocated: 3 workers but the trace has 2 PSs")
}

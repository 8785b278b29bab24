package sim

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"pslab/engine/trace"
)

func TestFitOverheadRecovers(t *testing.T) {
	t.Parallel()
	// Exact points on 2e-9 s/B · size + 5e-4 s.
	sizes := []float64{1e3, 1e5, 1e6, 8e6, 3e7}
	oh := make([]float64, len(sizes))
	for i, x := range sizes {
		oh[i] = 2e-9*x + 5e-4
	}
	a, b, err := FitOverhead(sizes, oh)
	require.NoError(t, err)
	require.InDelta(t, 2e-9, a, 1e-20)
	require.InDelta(t, 5e-4, b, 1e-15)

	// Noisy points: the estimate is within a few standard errors.
	r := rand.New(rand.NewPCG(1, 2))
	sizes, oh = nil, nil
	for range 400 {
		x := r.Float64() * 5e7
		sizes = append(sizes, x)
		oh = append(oh, 1e-9*x+2e-3+r.NormFloat64()*1e-4)
	}
	a, b, err = FitOverhead(sizes, oh)
	require.NoError(t, err)
	require.InDelta(t, 1e-9, a, 2e-11)
	require.InDelta(t, 2e-3, b, 5e-5)
}

func TestFitOverheadHandComputed(t *testing.T) {
	t.Parallel()
	// (0,1), (1,3), (2,4): x̄ = 1, ȳ = 8/3, Sxy = 3, Sxx = 2: α = 1.5, β = 7/6.
	a, b, err := FitOverhead([]float64{0, 1, 2}, []float64{1, 3, 4})
	require.NoError(t, err)
	require.InDelta(t, 1.5, a, 1e-15)
	require.InDelta(t, 7.0/6, b, 1e-15)
}

func TestFitOverheadConstrained(t *testing.T) {
	t.Parallel()
	// OLS: α = 1, β = −1 → constrained to β = 0: α = Σxy/Σx² = (2+6)/(4+9)...
	// points (2,1), (3,2): Σxy = 8, Σx² = 13 → α = 8/13 (SSE 1/13) vs
	// α = 0, β = 1.5 (SSE 0.5): the line through the origin wins.
	a, b, err := FitOverhead([]float64{2, 3}, []float64{1, 2})
	require.NoError(t, err)
	require.InDelta(t, 8.0/13, a, 1e-15)
	require.Zero(t, b)
	// Decreasing overhead: OLS α < 0 → the constant line β = ȳ.
	a, b, err = FitOverhead([]float64{1, 2, 3}, []float64{3, 2, 1})
	require.NoError(t, err)
	require.Zero(t, a)
	require.InDelta(t, 2, b, 1e-15)
}

func TestFitOverheadErrors(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		x, y []float64
		msg  string
	}{
		{[]float64{1}, []float64{1}, "1 points; need at least 2"},
		{[]float64{1, 2}, []float64{1}, "2 sizes but 1 overheads"},
		{[]float64{1, math.NaN()}, []float64{1, 2}, "sizes[1] = NaN"},
		{[]float64{1, 2}, []float64{1, math.Inf(1)}, "overheads[1] = +Inf"},
		{[]float64{-1, 2}, []float64{1, 2}, "sizes[0] = -1"},
		{[]float64{3, 3}, []float64{1, 2}, "all sizes are equal"},
	} {
		_, _, err := FitOverhead(c.x, c.y)
		require.ErrorContains(t, err, c.msg)
	}
}

// profiledToy is a 2-layer step recorded at 1000 B/s with parsing overhead
// 0.001 s/B · size + 0.01 s, hand-computed under the Processor placement
// (FIFO downlinks, overhead parsed by the receiving processor, one op at a
// time per processor: u0's parsing waits for u1's on the PS). Recorded
// comm ends include the parsing; the step ends at 1.28 s.
func profiledToy() *trace.Trace {
	ns := func(s float64) int64 { return int64(math.Round(s * 1e9)) }
	op := func(name, res string, start, end float64, bytes int64, deps ...int32) trace.Op {
		r, _ := trace.ParseResource(res)
		return trace.Op{Name: name, Resource: r, Start: ns(start), End: ns(end), Bytes: bytes, Deps: deps}
	}
	st := trace.Step{Ops: []trace.Op{
		op("d0", "downlink", 0, 0.21, 100),      // 0
		op("d1", "downlink", 0, 0.51, 200),      // 1
		op("f0", "worker", 0.21, 0.26, 0, 0),    // 2
		op("f1", "worker", 0.51, 0.56, 0, 1, 2), // 3
		op("b1", "worker", 0.56, 0.66, 0, 3),    // 4
		op("b0", "worker", 0.66, 0.76, 0, 4),    // 5
		op("u1", "uplink", 0.66, 1.07, 200, 4),  // 6
		op("u0", "uplink", 0.76, 1.18, 100, 5),  // 7
		op("p1", "ps", 1.18, 1.23, 0, 6),        // 8
		op("p0", "ps", 1.23, 1.28, 0, 7),        // 9
	}}
	return &trace.Trace{Meta: trace.Meta{Bandwidth: 1000, Alpha: 0.001, Beta: 0.01, Batch: 4, Servers: 1, Window: 1 << 20}, Steps: []trace.Step{st}}
}

// TestOneWorkerReproducesProfile: at the profiling bandwidth, with the
// overhead removed from transfers and re-attached on the receiving
// processor (Processor, the placement the toy was recorded under), one
// worker reproduces every recorded end time and the step time.
func TestOneWorkerReproducesProfile(t *testing.T) {
	t.Parallel()
	tr := profiledToy()
	ss, r, err := spans(tr, Config{Workers: 1, Steps: 3, Warmup: NoWarmup, OverheadOn: Processor})
	require.NoError(t, err)
	rec := tr.Steps[0].Ops
	for i := range rec {
		var end float64 = math.NaN()
		for _, s := range ss {
			// a transfer's recorded end is the end of its parsing overhead
			if s.Step == 0 && s.Op == i && s.Last && (s.Overhead || !rec[i].IsComm()) {
				end = s.End
			}
		}
		require.InDelta(t, float64(rec[i].End)*1e-9, end, 1e-12, rec[i].Name)
	}
	require.InDelta(t, 1.28, r.StepTime.Mean, 1e-12)
	require.InDelta(t, 4/1.28, r.Throughput, 1e-9)

	// Without re-attaching the overhead the step is shorter: the test can fail.
	_, r0, err := spans(tr, Config{Workers: 1, Steps: 3, Warmup: NoWarmup, Overhead: &Overhead{}})
	require.NoError(t, err)
	require.Less(t, r0.StepTime.Mean, 1.2)
}

// TestOverheadShareAt10G is the §4.3 DERIVED example: overhead that is 10%
// of a recorded transfer on 1 Gbps is 52.6% of it on 10 Gbps.
func TestOverheadShareAt10G(t *testing.T) {
	t.Parallel()
	const gbps = 1.25e8 // bytes/s
	size := int64(1e7)
	transfer := float64(size) / gbps // 0.08 s at 1 Gbps
	beta := transfer / 9             // overhead = 10% of transfer + overhead
	b := newStep().op("d", "downlink", size, 0).op("f", "worker", 0, 0, "d")
	tr := traceOf(gbps, 0, b.step())
	tr.Meta.Beta = beta
	ss, _, err := spans(tr, Config{Workers: 1, Steps: 1, Warmup: NoWarmup, Bandwidth: 10 * gbps, Link: Link{Mode: WholeStream}})
	require.NoError(t, err)
	var comm, oh float64
	for _, s := range ss {
		switch {
		case s.Overhead:
			oh = s.End - s.Start
			require.Equal(t, trace.Worker, s.Resource.Kind, "downlink overhead runs on the worker")
		case s.Name == "d":
			comm = s.End - s.Start
		}
	}
	require.InDelta(t, 0.526, oh/(oh+comm), 5e-4)
	require.InDelta(t, 0.1/(0.1+0.9/10), oh/(oh+comm), 1e-12)
}

// TestUplinkOverheadOnPS: the parsing of a gradient runs on the PS
// processor of that PS, before the update.
func TestUplinkOverheadOnPS(t *testing.T) {
	t.Parallel()
	b := newStep().op("d", "downlink", 10, 0).op("u", "uplink:1", 10, 0, "d").op("p", "ps:1", 0, 1, "u")
	tr := traceOf(10, 0, b.step())
	tr.Meta.Alpha, tr.Meta.Beta = 0.1, 0.5
	tr.Meta.Servers = 2
	ss, _, err := spans(tr, Config{Workers: 1, Steps: 1, Warmup: NoWarmup, Link: Link{Mode: WholeStream}})
	require.NoError(t, err)
	var got []string
	for _, s := range ss {
		got = append(got, s.Name+"@"+s.Resource.String())
	}
	require.Equal(t, []string{"d@downlink", "d/overhead@worker", "u@uplink:1", "u/overhead@ps:1", "p@ps:1"}, got)
	// d: 1 s; overhead 0.1·10+0.5 = 1.5 s; u: 1 s; overhead 1.5 s; p: 1 s.
	require.InDelta(t, 6, ss[len(ss)-1].End, 1e-12)
}

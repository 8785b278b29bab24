package predict

import (
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"pslab/engine/cynthia"
	"pslab/engine/mva"
	"pslab/engine/sim"
	"pslab/engine/trace"
	"pslab/engine/zoo"
)

// toyCluster is the Fig. 5 toy at 1 Gbps, WIN 10 MB, 5% jitter, 1 PS.
func toyCluster() Cluster {
	return Cluster{Bandwidth: 125e6, Link: sim.Link{Window: 10e6}, Jitter: 0.05, Steps: 100, Warmup: 10, ProfileSteps: 20, Seed: 3}
}

// shortPrecision is the converged estimate's stopping rule for tests whose
// claims do not depend on the precision: the default (±1%) in a full run,
// ±5% under -short.
func shortPrecision() sim.Precision {
	if testing.Short() {
		return sim.Precision{Target: 0.05}
	}
	return sim.Precision{}
}

func TestRunMatchesEachModelComputedDirectly(t *testing.T) {
	t.Parallel()
	c := toyCluster()
	c.Precision = sim.Precision{Target: 0.05} // the plumbing, not the precision
	tr, err := c.Synthesize(zoo.Toy())
	require.NoError(t, err)
	ws := []int{1, 2, 4}
	p, err := Run(tr, c, ws, AllModels())
	require.NoError(t, err)
	require.Equal(t, 32, p.Batch)
	require.True(t, p.HasCoarse)
	require.Empty(t, p.Notes)
	co, err := FromTrace(tr)
	require.NoError(t, err)
	require.Equal(t, co, p.Coarse)
	require.InDelta(t, 32*125e6/30e6, p.LinkBound, 1e-9, "toy: 30 MB of parameters through one PS NIC")

	pr, err := sim.Compile(tr)
	require.NoError(t, err)
	est, err := pr.EstimateSweep(sim.Config{Steps: 100, Seed: 3}, c.Precision, ws)
	require.NoError(t, err)
	require.Equal(t, est, p.Estimates)
	simC, ok := p.curve(Simulator)
	require.True(t, ok)
	for i := range ws {
		require.Equal(t, est[i].Throughput, simC.Throughput[i])
		require.Equal(t, []float64{est[i].Lo, est[i].Hi}, []float64{simC.Lo[i], simC.Hi[i]})
		require.True(t, simC.Converged[i], "W = %d: %s", ws[i], est[i].Stop)
	}
	for m, v := range map[Model]mva.Variant{MVAExact: mva.Exact, MVAApproximate: mva.Approximate, MVAHybrid: mva.Hybrid} {
		x, err := mva.Curve(co.Phases, 4, 1, v)
		require.NoError(t, err)
		y, ok := p.Curve(m)
		require.True(t, ok)
		require.Equal(t, []float64{32 * x[0], 32 * x[1], 32 * x[3]}, y, m)
	}
	cy := cynthia.ICPE{Batch: 32, Tp: co.Tp, Tc: co.Tc, U1: co.U1}
	y, _ := p.Curve(Cynthia)
	for i, w := range ws {
		x, err := cy.Throughput(w)
		require.NoError(t, err)
		require.Equal(t, x, y[i])
	}
	for _, c := range p.Curves {
		for i := range ws {
			if c.Model != Cynthia { // Cynthia's restatement has no link bound (I-23)
				require.LessOrEqual(t, c.Throughput[i], p.LinkBound*(1+1e-9), c.Model)
			}
		}
	}
}

// Cluster.OverheadOn reaches the simulator: the default places the
// parsing overhead on receive threads, Processor on the processors.
// TestRunPassesOverheadPlacement, with the paper's fixed procedure
// (Cluster.Paper: one run per point, no interval).
func TestRunPassesOverheadPlacement(t *testing.T) {
	t.Parallel()
	c := toyCluster()
	c.Paper = true
	c.Alpha, c.Beta = 1e-9, 50e-3
	tr, err := c.Synthesize(zoo.Toy())
	require.NoError(t, err)
	ws := []int{1, 3}
	for _, on := range []sim.OverheadPlacement{sim.ReceiveThreads, sim.Processor} {
		c.OverheadOn = on
		p, err := Run(tr, c, ws, []Model{Simulator})
		require.NoError(t, err)
		runs, err := sim.Sweep(tr, sim.Config{Steps: 100, Warmup: 10, Seed: 3, OverheadOn: on}, ws)
		require.NoError(t, err)
		for i := range ws {
			require.Equal(t, runs[i].Throughput, p.Curves[0].Throughput[i], on)
		}
		require.Nil(t, p.Curves[0].Lo, "the paper procedure has no interval")
	}
	p0, err := Run(tr, Cluster{Paper: true, Steps: 100, Warmup: 10, Seed: 3, OverheadOn: sim.ReceiveThreads}, ws, []Model{Simulator})
	require.NoError(t, err)
	p1, err := Run(tr, Cluster{Paper: true, Steps: 100, Warmup: 10, Seed: 3, OverheadOn: sim.Processor}, ws, []Model{Simulator})
	require.NoError(t, err)
	require.NotEqual(t, p0.Curves[0].Throughput[1], p1.Curves[0].Throughput[1], "the placements differ on this trace")
}

// A recorded trace predicts the simulator at any bandwidth, the coarse
// models only at its own; MVA needs one PS.
func TestRunRecordedTraceAtOtherBandwidthAndTwoPS(t *testing.T) {
	t.Parallel()
	c := toyCluster()
	c.Precision = shortPrecision()
	tr, err := c.Synthesize(zoo.Toy())
	require.NoError(t, err)
	c10 := c
	c10.Bandwidth = 10 * c.Bandwidth
	p, err := Run(tr, c10, []int{1, 2}, AllModels())
	require.NoError(t, err)
	require.False(t, p.HasCoarse)
	require.Len(t, p.Curves, 1)
	require.Equal(t, Simulator, p.Curves[0].Model)
	require.Len(t, p.Unavailable, 5)
	require.Contains(t, p.Why(MVAExact), "trace at 1 Gbit/s")
	require.Equal(t, "bsp only", p.Why(Zhang))
	require.InDelta(t, 10*32*125e6/30e6, p.LinkBound, 1e-6)
	slow, err := Run(tr, c, []int{1, 2}, []Model{Simulator})
	require.NoError(t, err)
	require.Greater(t, p.Curves[0].Throughput[1], slow.Curves[0].Throughput[1])

	c2 := c
	c2.Servers = 2
	tr2, err := c2.Synthesize(zoo.Toy())
	require.NoError(t, err)
	p2, err := Run(tr2, c2, []int{1, 2}, []Model{MVAHybrid, Cynthia})
	require.NoError(t, err)
	require.Equal(t, 2, p2.Servers)
	require.Len(t, p2.Curves, 1)
	require.Equal(t, Cynthia, p2.Curves[0].Model)
	require.Contains(t, p2.Why(MVAHybrid), "phases are of one PS; the trace has 2")
}

func TestRunErrors(t *testing.T) {
	t.Parallel()
	good := toyCluster()
	tr, err := good.Synthesize(zoo.Toy())
	require.NoError(t, err)
	bad := &trace.Trace{Meta: trace.Meta{Bandwidth: 100, Batch: 1}, Steps: []trace.Step{{Ops: []trace.Op{
		{Name: "d", Resource: trace.Resource{Kind: trace.Downlink}, End: 1e9, Bytes: 100},
	}}}}
	for name, tc := range map[string]struct {
		tr     *trace.Trace
		c      Cluster
		ws     []int
		models []Model
		want   string
	}{
		"no workers":    {tr, good, nil, AllModels(), "no worker counts"},
		"descending":    {tr, good, []int{2, 1}, AllModels(), "ascending"},
		"zero workers":  {tr, good, []int{0, 1}, AllModels(), "ascending integers ≥ 1"},
		"no models":     {tr, good, []int{1}, nil, "no models"},
		"unknown model": {tr, good, []int{1}, []Model{"oracle"}, `unknown model "oracle"`},
		"no bandwidth":  {&trace.Trace{Meta: trace.Meta{Batch: 1}}, Cluster{}, []int{1}, AllModels(), "bandwidth 0"},
		"no batch":      {&trace.Trace{Meta: trace.Meta{Bandwidth: 1}}, Cluster{}, []int{1}, AllModels(), "batch 0"},
		"coarse fails":  {bad, Cluster{}, []int{1}, []Model{Cynthia}, "no downlink or no uplink"},
	} {
		_, err := Run(tc.tr, tc.c, tc.ws, tc.models)
		require.ErrorContains(t, err, tc.want, name)
	}
	_, err = Cluster{}.Synthesize(zoo.Toy())
	require.ErrorContains(t, err, "bandwidth 0")
	_, err = Cluster{Bandwidth: math.Inf(1)}.Synthesize(zoo.Toy())
	require.ErrorContains(t, err, "bandwidth +Inf")
}

func TestModelsParseAndNames(t *testing.T) {
	t.Parallel()
	ms, err := ParseModels("simulator, mva-hybrid,cynthia")
	require.NoError(t, err)
	require.Equal(t, []Model{Simulator, MVAHybrid, Cynthia}, ms)
	_, err = ParseModels("simulator,simulator")
	require.ErrorContains(t, err, "named twice")
	_, err = ParseModels("lin")
	require.ErrorContains(t, err, `unknown model "lin"`)
	// The names the icpe20-throughput experiments write.
	require.Equal(t, "Lin et al. MVA (hybrid)", MVAHybrid.Label())
	require.Equal(t, "mascots18-mva-hybrid", MVAHybrid.Tag())
	require.Equal(t, "icpe20 simulator", Simulator.Label())
	require.Equal(t, "icpe20-simulator", Simulator.Tag())
	require.Equal(t, "Cynthia (icpe20 restatement)", Cynthia.Label())
	require.Equal(t, "cynthia", Cynthia.Tag())
	require.Equal(t, "10 Gbit/s: Lin et al. MVA (exact)", Series(1.25e9, MVAExact))
}

// BenchmarkRunCoarse is the coarse models alone (FromTrace, three MVA
// variants and Cynthia for W = 1..16) on a 100-step toy trace.
func BenchmarkRunCoarse(b *testing.B) {
	c := toyCluster()
	c.ProfileSteps = 100
	tr, err := c.Synthesize(zoo.Toy())
	require.NoError(b, err)
	ws, err := ParseWorkers("1..16")
	require.NoError(b, err)
	models := []Model{MVAExact, MVAApproximate, MVAHybrid, Cynthia}
	for b.Loop() {
		if _, err := Run(tr, c, ws, models); err != nil {
			b.Fatal(err)
		}
	}
}

// TestMVAUnderBSPSaysWhy: MVA under bsp is n/a with the reason as one note
// (issue 26 item 4: an approximation with its reference, or a clear
// reason), not three bare "asp only" cells.
func TestMVAUnderBSPSaysWhy(t *testing.T) {
	t.Parallel()
	c := toyCluster()
	c.Sync, c.Paper, c.Steps = sim.BSP, true, 100
	tr, err := c.Synthesize(zoo.Toy())
	require.NoError(t, err)
	p, err := Run(tr, c, []int{1, 2}, AllModels())
	require.NoError(t, err)
	n := 0
	for _, s := range p.Notes {
		if strings.HasPrefix(s, "MVA n/a under bsp: ") {
			n++
			require.Contains(t, s, "fork-join")
		}
	}
	require.Equal(t, 1, n, "one note for the three MVA variants: %q", p.Notes)
	require.Len(t, p.Unavailable, 3)
}

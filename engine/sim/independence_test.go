package sim

import (
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"

	"pslab/engine/dataset"
	"pslab/engine/trace"
	"pslab/engine/zoo"
)

// zooTrace synthesizes a trace of a zoo profile at 10 Gbit/s: steps
// profiled steps (1 is deterministic), compute jitter (CV), HTTP/2 window
// (0: flow control off) and servers PSs.
func zooTrace(t testing.TB, model string, steps int, jitter float64, window int64, servers int) *trace.Trace {
	t.Helper()
	tab, err := dataset.Read(filepath.Join("..", "..", "datasets", "zoo", model+".arrow"), zoo.ProfileSchema, dataset.Allocator)
	require.NoError(t, err)
	p, err := zoo.ProfileFromTable(tab)
	require.NoError(t, err)
	tr, err := zoo.Synthesize(p, zoo.Options{Steps: steps, Servers: servers, Bandwidth: 1.25e9, Window: window,
		Jitter: jitter, Alpha: 1e-10, Beta: 2e-5, Seed: 1})
	require.NoError(t, err)
	return tr
}

// TestLockstepIsUnstable documents why Staggered exists: two workers
// started together on a deterministic AlexNet trace stay in exact lockstep
// (each transfer shared 1/2 from start to end) at about half the link
// bound, and a 1 ns head start of one worker is enough to leave it.
func TestLockstepIsUnstable(t *testing.T) {
	t.Parallel()
	tr := zooTrace(t, "alexnet", 1, 0, 0, 1)
	cfg := Config{Workers: 2, Steps: 1000, Link: Link{Mode: WholeStream}}
	together, err := Run(tr, cfg)
	require.NoError(t, err)
	cfg.StartOffsets = []float64{1e-9, 0}
	nudged, err := Run(tr, cfg)
	require.NoError(t, err)
	require.Greater(t, nudged.Throughput, 1.8*together.Throughput, "together %.1f, nudged %.1f", together.Throughput, nudged.Throughput)
}

// TestOrderIndependence: the throughput does not depend on which worker
// is number 0 (start offsets permuted) nor on a 1 ns shift of one
// worker's start, which changes the order of every simultaneous event
// after it. A deterministic trace can settle in one of several periodic
// modes, and which one a run reaches depends on its start to the
// nanosecond (see doc.go), so the claim is about the distribution: over R
// replications with random start offsets, each variant's mean lies within
// the joint 95% interval of the two means. In -short mode only the first
// case runs.
func TestOrderIndependence(t *testing.T) {
	t.Parallel()
	cases := []struct {
		model         string
		steps         int
		jitter        float64
		window        int64
		servers, W, N int
	}{
		{"alexnet", 1, 0, 0, 1, 2, 300},
		{"alexnet", 1, 0, 0, 1, 5, 300},
		{"alexnet", 1, 0, 4 << 20, 1, 4, 300},
		{"alexnet", 10, 0.05, 0, 2, 6, 300},
		{"vgg16", 1, 0, 0, 1, 8, 200},
		{"resnet18", 10, 0.05, 8 << 20, 1, 8, 300},
		{"resnet18", 1, 0, 0, 2, 12, 200},
	}
	const R = 10
	for _, c := range cases {
		name := fmt.Sprintf("%s-s%d-win%d-ps%d-W%d", c.model, c.steps, c.window, c.servers, c.W)
		t.Run(name, func(t *testing.T) {
			if testing.Short() && c != cases[0] {
				t.Skip("-short: the first case only")
			}
			t.Parallel()
			tr := zooTrace(t, c.model, c.steps, c.jitter, c.window, c.servers)
			pr, err := Compile(tr)
			require.NoError(t, err)
			mode := Multiplex
			if c.window == 0 {
				mode = WholeStream
			}
			r := rand.New(rand.NewPCG(uint64(c.W), 9))
			var base, perm, nudge [R][]float64
			for i := range R {
				base[i] = make([]float64, c.W)
				for w := range base[i] {
					base[i][w] = r.Float64() * pr.meanStep
				}
				perm[i] = make([]float64, c.W)
				for w, j := range r.Perm(c.W) {
					perm[i][w] = base[i][j]
				}
				nudge[i] = append([]float64(nil), base[i]...)
				nudge[i][0] += 1e-9
			}
			estimate := func(offs [R][]float64) (float64, float64) {
				return replicated(R, func(i int) float64 {
					res, err := pr.Run(Config{Workers: c.W, Steps: c.N, Link: Link{Mode: mode}, StartOffsets: offs[i], Seed: uint64(i)})
					require.NoError(t, err)
					return res.Output.Throughput
				})
			}
			x0, h0 := estimate(base)
			for v, offs := range map[string][R][]float64{"permuted": perm, "nudged 1 ns": nudge} {
				x, h := estimate(offs)
				joint := math.Hypot(h0, h) + 1e-9
				require.InDelta(t, 0, x/x0-1, joint, "%s: %.2f vs %.2f examples/s (joint ±%.2f%%)", v, x, x0, 100*joint)
			}
		})
	}
}

// replicated returns the mean of f(0..r−1) and the relative half-width of
// its 95% interval (Student's t).
func replicated(r int, f func(i int) float64) (mean, halfWidth float64) {
	x := make([]float64, r)
	for i := range x {
		x[i] = f(i)
	}
	m, sd := stat.MeanStdDev(x, nil)
	return m, distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(r - 1)}.Quantile(0.975) * sd / math.Sqrt(float64(r)) / m
}

// TestAgreesWithReference compares the simulator with refSim on 24
// traces: deterministic (one profiled step) and sampled, HTTP/2 and flow
// control off, 1 and 2 PSs, W = 1..16, workers started at the same random
// offsets and sampling the same steps, R replications each. Both answers
// go through the same output analysis (MSER-5 on the step completions);
// the two means must agree within the joint 95% interval over the
// replications, plus 1e-6 relative for rounding. In -short mode only the
// AlexNet cases with W ≤ 2 run (between them: both step counts, windows
// and PS counts).
func TestAgreesWithReference(t *testing.T) {
	t.Parallel()
	type tc struct {
		model         string
		steps         int
		window        int64
		servers, W, N int
	}
	var cases []tc
	for _, model := range []string{"alexnet", "resnet18", "vgg16"} {
		for _, steps := range []int{1, 10} {
			for _, win := range []int64{0, 4 << 20} {
				for _, servers := range []int{1, 2} {
					W := 1 + (len(cases)*7)%16
					// W·N completions: at least 1,200, fewer steps for large W
					// (the reference costs O(W) per event).
					cases = append(cases, tc{model, steps, win, servers, W, max(1200/W, 100)})
				}
			}
		}
	}
	require.GreaterOrEqual(t, len(cases), 20)
	for _, c := range cases {
		name := fmt.Sprintf("%s-s%d-win%d-ps%d-W%d", c.model, c.steps, c.window, c.servers, c.W)
		t.Run(name, func(t *testing.T) {
			if testing.Short() && (c.model != "alexnet" || c.W > 2) {
				t.Skip("-short: AlexNet cases with W ≤ 2 only")
			}
			t.Parallel()
			jitter := 0.0
			if c.steps > 1 {
				jitter = 0.05
			}
			tr := zooTrace(t, c.model, c.steps, jitter, c.window, c.servers)
			pr, err := Compile(tr)
			require.NoError(t, err)
			mode := Multiplex
			if c.window == 0 {
				mode = WholeStream
			}
			const R = 6
			r := rand.New(rand.NewPCG(uint64(c.W), 11))
			var offs [R][]float64
			for i := range offs {
				offs[i] = make([]float64, c.W)
				for w := range offs[i] {
					offs[i][w] = r.Float64() * pr.meanStep
				}
			}
			xRef, hRef := replicated(R, func(i int) float64 {
				ref := newRefSim(tr, c.W, float64(c.window), uint64(i), offs[i])
				ref.run(c.N)
				return ref.throughput().Throughput
			})
			xSim, hSim := replicated(R, func(i int) float64 {
				res, err := pr.Run(Config{Workers: c.W, Steps: c.N, Link: Link{Mode: mode}, StartOffsets: offs[i], Seed: uint64(i)})
				require.NoError(t, err)
				return res.Output.Throughput
			})
			joint := math.Hypot(hRef, hSim) + 1e-6
			require.InDelta(t, 0, xSim/xRef-1, joint, "simulator %.3f vs reference %.3f examples/s (joint ±%.3f%%)", xSim, xRef, 100*joint)
		})
	}
}

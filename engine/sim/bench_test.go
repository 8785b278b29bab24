package sim

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"pslab/engine/trace"
	"pslab/engine/zoo"
)

// BenchmarkEventLoop measures the event loop on the Inception-sized
// synthetic trace (665 events per step) with W = 4, N = 250.
func BenchmarkEventLoop(b *testing.B) {
	benchLoop(b, inceptionLike(20, 0.1, 1, 1), Config{Workers: 4, Steps: 250})
}

// BenchmarkEventLoopTwoPS: the same with M = 2 (shares recomputed by Share).
func BenchmarkEventLoopTwoPS(b *testing.B) {
	benchLoop(b, inceptionLike(20, 0.1, 2, 1), Config{Workers: 4, Steps: 250})
}

// BenchmarkEventLoopTIC: flow control off, TIC order (priority queues).
func BenchmarkEventLoopTIC(b *testing.B) {
	benchLoop(b, inceptionLike(20, 0.1, 1, 1), Config{Workers: 4, Steps: 250, Link: Link{Mode: WholeStream, Order: TIC}})
}

// BenchmarkEventLoopProcessor: the first benchmark with the overheads
// queued on the processors (OverheadOn = Processor).
func BenchmarkEventLoopProcessor(b *testing.B) {
	benchLoop(b, inceptionLike(20, 0.1, 1, 1), Config{Workers: 4, Steps: 250, OverheadOn: Processor})
}

// BenchmarkEventLoopColocated: W = 4 nodes, each with a PS shard sharing
// its NIC (Config.Colocated; max-min rates recomputed per instant).
func BenchmarkEventLoopColocated(b *testing.B) {
	benchLoop(b, inceptionLike(20, 0.1, 4, 1), Config{Workers: 4, Steps: 250, Colocated: true})
}

func benchLoop(b *testing.B, tr *trace.Trace, cfg Config) {
	// allocations of a 10× shorter run: the difference is per-event cost
	short := cfg
	short.Steps /= 10
	base := testing.AllocsPerRun(1, func() { _, _ = Run(tr, short) })
	full := testing.AllocsPerRun(1, func() { _, _ = Run(tr, cfg) })
	var events int64
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		r, err := Run(tr, cfg)
		if err != nil {
			b.Fatal(err)
		}
		events += r.Events
	}
	b.ReportMetric(float64(events)/b.Elapsed().Seconds(), "events/s")
	b.ReportMetric(b.Elapsed().Seconds()*1e9/float64(events), "ns/event")
	b.ReportMetric((full-base)/float64(events/int64(b.N)), "allocs/event")
}

// BenchmarkInceptionSweep is the icpe20-fig22 workload on one core:
// W = 2..10, 1000 steps per worker, on the Inception-sized synthetic trace
// (95 layers, 100 MB, 0.45 s compute at batch 128, 10 Gbps).
func BenchmarkInceptionSweep(b *testing.B) {
	tr := inceptionLike(100, 0.05, 1, 1)
	prev := runtime.GOMAXPROCS(1)
	defer runtime.GOMAXPROCS(prev)
	var events int64
	for b.Loop() {
		for w := 2; w <= 10; w++ {
			r, err := Run(tr, Config{Workers: w, Seed: 1})
			if err != nil {
				b.Fatal(err)
			}
			events += r.Events
		}
	}
	b.ReportMetric(b.Elapsed().Seconds()/float64(b.N), "s/sweep")
	b.ReportMetric(float64(events)/b.Elapsed().Seconds(), "events/s")
}

// BenchmarkInceptionSweepParallel runs the same sweep with Sweep on all
// GOMAXPROCS cores.
func BenchmarkInceptionSweepParallel(b *testing.B) {
	tr := inceptionLike(100, 0.05, 1, 1)
	for b.Loop() {
		if _, err := Sweep(tr, Config{Seed: 1}, []int{2, 3, 4, 5, 6, 7, 8, 9, 10}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(b.Elapsed().Seconds()/float64(b.N), "s/sweep")
}

// BenchmarkZooInceptionSweep: the sweep on a trace synthesized by
// engine/zoo from the PipeDream Inception-v3 profile (326 layers, 194 with
// parameters), compiled once as callers should, skipped when the profiles
// are absent. events/s is on wall time; events/cpu-s on the process's CPU
// time, steadier on a shared machine.
func BenchmarkZooInceptionSweep(b *testing.B) {
	pr, err := Compile(zooInception(b))
	if err != nil {
		b.Fatal(err)
	}
	prev := runtime.GOMAXPROCS(1)
	defer runtime.GOMAXPROCS(prev)
	var events int64
	cpu0 := cpuSeconds()
	for b.Loop() {
		for w := 2; w <= 10; w++ {
			r, err := pr.Run(Config{Workers: w, Seed: 1})
			if err != nil {
				b.Fatal(err)
			}
			events += r.Events
		}
	}
	b.ReportMetric(b.Elapsed().Seconds()/float64(b.N), "s/sweep")
	b.ReportMetric(float64(events)/b.Elapsed().Seconds(), "events/s")
	if cpu := cpuSeconds() - cpu0; cpu > 0 {
		b.ReportMetric(float64(events)/cpu, "events/cpu-s")
	}
}

// zooInception is the trace of BenchmarkZooInceptionSweep: 100 steps
// synthesized by engine/zoo from the PipeDream Inception-v3 profile. The
// benchmark is skipped when the profiles are absent.
func zooInception(b *testing.B) *trace.Trace {
	path := filepath.Join("..", "..", "..", "shared", "datasets", "pipedream-profiles", "inception_v3.graph.txt")
	f, err := os.Open(path)
	if err != nil {
		b.Skipf("profile not available: %v", err)
	}
	p, err := zoo.Parse(f, "inception_v3.graph.txt")
	f.Close()
	if err != nil {
		b.Fatal(err)
	}
	tr, err := zoo.Synthesize(p, zoo.Options{Steps: 100, Batch: 128, Bandwidth: 1.25e9, Window: 28e6, Alpha: 1e-10, Beta: 5e-5, Jitter: 0.05, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	return tr
}

// BenchmarkSetup is the setup of one run of a sweep after the first: the
// zoo Inception-v3 trace compiled once, each iteration resolves a Config
// (W = 10, a new seed) and prepares the run up to its event loop (state
// allocated, first steps started). Issue #16 asks ≤ 1 ms and ≤ 100
// allocs/op.
func BenchmarkSetup(b *testing.B) {
	pr, err := Compile(zooInception(b))
	if err != nil {
		b.Fatal(err)
	}
	if _, err := pr.Run(Config{Workers: 10, Steps: 2, Warmup: 1}); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	seed := uint64(0)
	for b.Loop() {
		seed++
		cfg := Config{Workers: 10, Seed: seed}
		p, err := resolve(&pr.meta, &cfg)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := setup(pr.variant(&p), &p, &cfg); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSetupUncompiled is the same setup with the trace compiled (and
// validated) every time, as sim.Run does.
func BenchmarkSetupUncompiled(b *testing.B) {
	tr := zooInception(b)
	b.ReportAllocs()
	seed := uint64(0)
	for b.Loop() {
		seed++
		pr, err := Compile(tr)
		if err != nil {
			b.Fatal(err)
		}
		cfg := Config{Workers: 10, Seed: seed}
		p, err := resolve(&pr.meta, &cfg)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := setup(pr.variant(&p), &p, &cfg); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAnalyse measures the output analysis of one run (MSER-5 and
// batch means) on 100,000 step completions, O(completions).
func BenchmarkAnalyse(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 1))
	z := make([]float64, 100000/MSERBatch)
	for i := range z {
		z[i] = 1 + 0.1*r.NormFloat64()
	}
	means := make([]float64, Batches)
	b.ReportAllocs()
	for b.Loop() {
		analyse(z, 32, means)
	}
}

// BenchmarkEstimate measures a converged estimate (±1%, replications in
// parallel) of the Inception-sized synthetic trace at W = 4: under ASP
// (MSER-5, doublings continued) and BSP (regenerative).
func BenchmarkEstimate(b *testing.B) {
	for _, y := range []Sync{ASP, BSP} {
		b.Run(y.String(), func(b *testing.B) { benchmarkEstimate(b, y) })
	}
}

func benchmarkEstimate(b *testing.B, y Sync) {
	pr, err := Compile(inceptionLike(20, 0.1, 1, 1))
	if err != nil {
		b.Fatal(err)
	}
	var events int64
	for b.Loop() {
		e, err := pr.Estimate(Config{Workers: 4, Seed: 1, Sync: y}, Precision{})
		if err != nil {
			b.Fatal(err)
		}
		events += e.Events
	}
	b.ReportMetric(float64(events)/b.Elapsed().Seconds(), "events/s")
}

package sim

import (
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
// parameters), skipped when the profiles are absent.
func BenchmarkZooInceptionSweep(b *testing.B) {
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

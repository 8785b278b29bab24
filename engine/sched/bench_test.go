package sched

import (
	"math/rand/v2"
	"pslab/engine/cpubench"
	"testing"
)

// BenchmarkHELL100Nodes1e5Jobs: mascots18 Fig. 12a setting — 100 nodes, the
// four Table III DNNs (X from the exact-MVA test fixture), malleable HELL with
// filling, load 0.6, exactly 10⁵ Poisson arrivals (the stopping rule is held
// off until the cap). One op = one full run.
func BenchmarkHELL100Nodes1e5Jobs(b *testing.B) {
	benchRun(b, HELL{}, 0.6)
}

// BenchmarkKNEE100Nodes1e5Jobs is the same run with malleable KNEE.
func BenchmarkKNEE100Nodes1e5Jobs(b *testing.B) {
	benchRun(b, KNEE{}, 0.6)
}

func benchRun(b *testing.B, p Policy, load float64) {
	wl := tableIIIWith(b, 100)
	cfg := Config{Nodes: 100, Workload: wl, Policy: p, Load: load, MaxJobs: 100_000, MinJobs: 1_000_000}
	b.ReportAllocs()
	cpubench.Report(b, func() {
		for b.Loop() {
			r, err := Run(cfg, rand.New(rand.NewPCG(1, 2)))
			if err != nil || r.Arrived != 100_000 {
				b.Fatal(err, r.Arrived)
			}
		}
	})
}

// BenchmarkHELLAllocate is one HELL+filling decision for 40 jobs on 100
// nodes (the per-event cost).
func BenchmarkHELLAllocate(b *testing.B) {
	wl := tableIIIWith(b, 100)
	a, err := HELL{}.New(Env{Nodes: 100, Types: wl.Types})
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 1))
	jobs := make([]JobState, 40)
	for i := range jobs {
		jobs[i] = JobState{ID: i, Type: rng.IntN(4), Size: 1e8, Remaining: 1e8 * rng.Float64()}
	}
	alloc := make([]int, len(jobs))
	b.ReportAllocs()
	for b.Loop() {
		clear(alloc)
		a.Allocate(0, jobs, alloc)
	}
}

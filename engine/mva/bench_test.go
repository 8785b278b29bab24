package mva

import (
	"fmt"
	"math/rand/v2"
	"pslab/engine/cpubench"
	"testing"
)

// allVariants lists every Variant, for benchmarks and tests.
var allVariants = []Variant{Exact, Approximate, Hybrid, HybridPerClass, HybridFixedPoint, Schweitzer}

// (a) Homogeneous MVA, K = 1..1000 in one Curve call, every variant
// (issue #16 target: < 1 ms each).
func BenchmarkCurveHybrid1000(b *testing.B) {
	for _, v := range allVariants {
		b.Run(v.String(), func(b *testing.B) {
			b.ReportAllocs()
			cpubench.Report(b, func() {
				for b.Loop() {
					if _, err := Curve(fig7, 1000, 1, v); err != nil {
						b.Fatal(err)
					}
				}
			})
		})
	}
}

// sixteenWorkers is the Fig. 6 network of variant v with 16 distinct worker
// classes of population 1 each (2^16 = 65,536 population vectors for the
// recursive variants) × 4 stations, demands in seconds.
func sixteenWorkers(v Variant) (Model, Options) {
	rng := rand.New(rand.NewPCG(16, 4))
	link, opt, err := v.setup(Options{})
	if err != nil {
		panic(err)
	}
	m := Model{Stations: stationsFor(link)}
	for k := 0; k < 16; k++ {
		m.Classes = append(m.Classes, Class{Name: fmt.Sprint(k), Population: 1, Demands: []float64{
			0.02 + 0.02*rng.Float64(), 0.05 + 0.05*rng.Float64(), 0.01 + 0.01*rng.Float64(), 0.05 + 0.05*rng.Float64()}})
	}
	return m, opt
}

// (b) The 16-class exact-size solve, every variant (issue #16 target:
// < 1 s each).
func BenchmarkSolve16DistinctClasses(b *testing.B) {
	for _, v := range allVariants {
		b.Run(v.String(), func(b *testing.B) {
			m, opt := sixteenWorkers(v)
			b.ReportAllocs()
			cpubench.Report(b, func() {
				for b.Loop() {
					if _, err := Solve(m, opt); err != nil {
						b.Fatal(err)
					}
				}
			})
		})
	}
}

// Bard–Schweitzer on three large heterogeneous classes.
func BenchmarkSchweitzerLarge(b *testing.B) {
	m := Model{
		Stations: []Station{{Kind: Delay}, {Kind: PS}, {Kind: FCFS}},
		Classes: []Class{
			{Population: 5000, Demands: []float64{1, 0.0001, 0.0002}},
			{Population: 7000, Demands: []float64{2, 0.0003, 0.0001}},
			{Population: 9000, Demands: []float64{3, 0.0001, 0.0001}},
		},
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Solve(m, Options{Method: BardSchweitzer}); err != nil {
			b.Fatal(err)
		}
	}
}

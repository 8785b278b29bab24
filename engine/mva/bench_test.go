package mva

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// (a) Homogeneous hybrid MVA, K = 1..1000 in one Curve call (target < 1 ms).
func BenchmarkCurveHybrid1000(b *testing.B) {
	for _, v := range []Variant{Exact, Hybrid, HybridFixedPoint} {
		b.Run(v.String(), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Curve(fig7, 1000, 1, v); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// (b) Exact MVA with 16 distinct worker classes of population 1 each
// (2^16 = 65,536 population vectors) × 4 stations (target < 1 s).
func BenchmarkSolve16DistinctClasses(b *testing.B) {
	rng := rand.New(rand.NewPCG(16, 4))
	m := Model{Stations: stationsFor(PS)}
	for k := 0; k < 16; k++ {
		m.Classes = append(m.Classes, Class{Name: fmt.Sprint(k), Population: 1, Demands: []float64{
			0.02 + 0.02*rng.Float64(), 0.05 + 0.05*rng.Float64(), 0.01 + 0.01*rng.Float64(), 0.05 + 0.05*rng.Float64()}})
	}
	for _, tc := range []struct {
		name string
		link Kind
		opt  Options
	}{{"Exact", PS, Options{}}, {"HybridFixedPoint", HybridLink, Options{Argument: TotalFixedPoint}}} {
		b.Run(tc.name, func(b *testing.B) {
			m.Stations[UplinkStation].Kind, m.Stations[DownlinkStation].Kind = tc.link, tc.link
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Solve(m, tc.opt); err != nil {
					b.Fatal(err)
				}
			}
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

package predict

import (
	"flag"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"pslab/engine/cpubench"
	"pslab/engine/dataset"
	"pslab/engine/sim"
	"pslab/engine/zoo"
)

// benchSteps is the Cluster.Steps of BenchmarkRunProfile64Nodes8GPUs:
// 0, predict's default (each replication's initial length sim.InitialSteps);
// -bench-steps 100 measures the fixed 100 steps per worker it used before.
var benchSteps = flag.Int("bench-steps", 0, "BenchmarkRunProfile64Nodes8GPUs: Cluster.Steps (0: predict's default)")

// BenchmarkRunProfile64Nodes8GPUs is the issue #18 budget: W = 1..64 nodes
// × 8 GPUs, every model, on the 292-layer Kineto sample (datasets/byo) at
// 10 Gbit/s, the simulator a converged estimate (±1%); asp runs the
// simulator, the three MVA variants and Cynthia, bsp the simulator,
// Cynthia BSP and zhang. Target: ≤ 10 s of CPU per op (cpu-ns/op; -cpu 1
// for wall time).
func BenchmarkRunProfile64Nodes8GPUs(b *testing.B) {
	t, err := dataset.Read(filepath.Join("..", "..", "datasets", "byo", "kineto-hta-rank0.arrow"), zoo.ProfileSchema, dataset.Allocator)
	require.NoError(b, err)
	p, err := zoo.ProfileFromTable(t)
	require.NoError(b, err)
	ws, err := ParseWorkers("1..64")
	require.NoError(b, err)
	for _, y := range []sim.Sync{sim.ASP, sim.BSP} {
		b.Run(y.String(), func(b *testing.B) {
			c := Cluster{Bandwidth: 1.25e9, Link: sim.Link{Window: 28e6}, Jitter: 0.05, Steps: *benchSteps, GPUsPerNode: 8, Sync: y, Seed: 1,
				Precision: sim.Precision{MaxEvents: 4e9}}
			cpubench.Report(b, func() {
				for b.Loop() {
					if _, err := RunProfile(p, c, ws, AllModels()); err != nil {
						b.Fatal(err)
					}
				}
			})
		})
	}
}

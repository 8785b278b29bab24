package predict

import (
	"flag"
	"fmt"
	"math"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/stat"

	"pslab/engine/cpubench"
	"pslab/engine/dataset"
	"pslab/engine/sim"
	"pslab/engine/zoo"
)

var scalingMax = flag.Int("scaling-max", 256, "largest cluster, in nodes, of BenchmarkClusterScaling")

// scalingConverged makes BenchmarkClusterScaling time converged estimates
// (predict's default) instead of 100 steps of icpe20's procedure.
var scalingConverged = flag.Bool("scaling-converged", false, "BenchmarkClusterScaling: converged estimates (±1%) instead of -paper -steps 100")

// BenchmarkClusterScaling is issue #30's sweep: one simulator point of
// ResNet-50 (datasets/zoo), 8 GPUs per node, BSP, 100 steps (icpe20's
// procedure, Paper), 10 Gbit/s, at 8, 16, ..., 256 nodes, with one PS
// shard per node colocated on it (-colocate) and on hosts of their own
// (-ps = nodes). It reports the CPU seconds of each point and the
// exponent k of CPU ∝ nodes^k fitted by least squares on the log-log
// points (gonum/stat), and beside it the exponents of the simulated
// events and of the CPU time per event (their sum is k): how much of the
// growth is the work simulated and how much the cost of simulating it. -scaling-max bounds the sweep (the 256-node
// colocated point takes about a minute); -scaling-converged times
// predict's default, converged estimates, instead of -paper -steps 100.
func BenchmarkClusterScaling(b *testing.B) {
	t, err := dataset.Read(filepath.Join("..", "..", "datasets", "zoo", "resnet50.arrow"), zoo.ProfileSchema, dataset.Allocator)
	require.NoError(b, err)
	p, err := zoo.ProfileFromTable(t)
	require.NoError(b, err)
	for _, colocate := range []bool{true, false} {
		name := "separate"
		if colocate {
			name = "colocated"
		}
		b.Run(name, func(b *testing.B) {
			var logN, logCPU, logEvents []float64
			for b.Loop() {
				logN, logCPU, logEvents = logN[:0], logCPU[:0], logEvents[:0]
				for n := 8; n <= *scalingMax; n *= 2 {
					c := Cluster{Bandwidth: 1.25e9, Link: sim.Link{Window: 28e6}, Jitter: 0.05, Steps: 100, Paper: true,
						GPUsPerNode: 8, Sync: sim.BSP, Seed: 1, Servers: n, Colocate: colocate}
					if *scalingConverged { // predict's default: a converged estimate (±1%), regenerative under BSP
						c.Steps, c.Paper, c.Precision = 0, false, sim.Precision{MaxEvents: 1e10}
					}
					var runErr error
					var events atomic.Int64
					c.Progress = &events
					d := cpubench.Time(func() { _, runErr = RunProfile(p, c, []int{n}, []Model{Simulator}) })
					require.NoError(b, runErr)
					b.ReportMetric(d.Seconds(), fmt.Sprintf("cpu-s@%dnodes", n))
					b.ReportMetric(float64(d.Nanoseconds())/float64(events.Load()), fmt.Sprintf("cpu-ns/event@%dnodes", n))
					logN, logCPU = append(logN, math.Log(float64(n))), append(logCPU, math.Log(d.Seconds()))
					logEvents = append(logEvents, math.Log(float64(events.Load())))
				}
			}
			if len(logN) > 1 {
				_, k := stat.LinearRegression(logN, logCPU, nil, false)
				b.ReportMetric(k, "exponent")
				_, ke := stat.LinearRegression(logN, logEvents, nil, false)
				b.ReportMetric(ke, "events-exponent")
				b.ReportMetric(k-ke, "per-event-exponent")
			}
		})
	}
}

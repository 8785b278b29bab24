package sim

import (
	"testing"

	"github.com/stretchr/testify/require"

	"pslab/engine/trace"
)

// sharedPSTrace is one step: a 1000-byte pull, 0.1 s of compute, a
// 1000-byte push and a 0.3 s PS op, at 1e9 bytes/s (transfers take 1 µs
// alone).
func sharedPSTrace() *trace.Trace {
	return traceOf(1e9, 0, newStep().
		op("d", "downlink", 1000, 0).
		op("f", "worker", 0, 0.1, "d").
		op("u", "uplink", 1000, 0, "f").
		op("p", "ps", 0, 0.3, "u").step())
}

// TestSharedPSProcessorSharing: with Config.SharedPS the PS processor is
// shared. Worker 1 starts 0.2 s after worker 0; worker 0's PS op runs
// alone for 0.2 s, then both share it, so it ends 0.2 s later (0.1 s of
// work at 1/2), and worker 1's op gets the processor alone for its last
// 0.2 s. Without SharedPS each worker's op takes its 0.3 s.
func TestSharedPSProcessorSharing(t *testing.T) {
	t.Parallel()
	tr := sharedPSTrace()
	cfg := Config{Workers: 2, Steps: 1, Warmup: NoWarmup, Link: Link{Mode: WholeStream}, StartOffsets: []float64{0, 0.2}, SharedPS: true}
	ss, _, err := spans(tr, cfg)
	require.NoError(t, err)
	const us = 1e-6
	require.InDelta(t, 0.5+2*us, endOf(ss, 0, 0, "p"), 1e-9)
	require.InDelta(t, 0.7+2*us, endOf(ss, 1, 0, "p"), 1e-9)
	cfg.SharedPS = false
	ss, _, err = spans(tr, cfg)
	require.NoError(t, err)
	require.InDelta(t, 0.4+2*us, endOf(ss, 0, 0, "p"), 1e-9)
	require.InDelta(t, 0.6+2*us, endOf(ss, 1, 0, "p"), 1e-9)
}

// TestSharedPSBSP: W workers in BSP lockstep put W simultaneous 0.3 s PS
// ops on the shared processor, so a step takes 0.1 + 0.3·W s plus the
// transfers (W·1 µs each way), and W·d with d the op alone equals a PS of
// W times the work per worker, the reading predict.Host relies on.
func TestSharedPSBSP(t *testing.T) {
	t.Parallel()
	tr := sharedPSTrace()
	for _, w := range []int{1, 2, 4} {
		r, err := Run(tr, Config{Workers: w, Steps: 5, Warmup: w, Sync: BSP, Link: Link{Mode: WholeStream}, SharedPS: true})
		require.NoError(t, err)
		step := 0.1 + 0.3*float64(w) + 2*float64(w)*1e-6
		require.InDelta(t, float64(w)/step, r.Throughput, 1e-9*r.Throughput, "W = %d", w)
	}
	r, err := Run(tr, Config{Workers: 4, Steps: 5, Warmup: 4, Sync: BSP, Link: Link{Mode: WholeStream}})
	require.NoError(t, err)
	require.InDelta(t, 4/(0.4+8e-6), r.Throughput, 1e-9*r.Throughput, "a processor per worker")
}

func TestSharedPSNotColocated(t *testing.T) {
	t.Parallel()
	tr := sharedPSTrace()
	_, err := Run(tr, Config{Workers: 1, Colocated: true, SharedPS: true})
	require.ErrorContains(t, err, "Config.SharedPS: not with Colocated")
}

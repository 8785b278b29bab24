package analysis

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"pslab/engine/trace"
)

const ms = int64(1e6)

// tr is a transfer with wire times in ms.
func tr(step int, dir trace.Kind, k int, first, last int64) Transfer {
	return Transfer{Step: step, Dir: dir, Tensor: k, Bytes: 100, FirstByte: first * ms, LastByte: last * ms, Available: last*ms + ms}
}

func TestExtractPhasesFromTransmissionGaps(t *testing.T) {
	t.Parallel()
	// step 0 (skipped as warm-up) and steps 1, 2; two tensors per direction
	ts := []Transfer{
		tr(0, trace.Downlink, 0, 1, 50), tr(0, trace.Uplink, 0, 60, 70),
		// step 1: D 100..110 (tensor 1 ends last), U 120..135, next D at 140
		tr(1, trace.Downlink, 0, 100, 104), tr(1, trace.Downlink, 1, 101, 110),
		tr(1, trace.Uplink, 1, 120, 125), tr(1, trace.Uplink, 0, 126, 135),
		// step 2: D 140..146, U 150..158 (no next step: no S^S)
		tr(2, trace.Downlink, 0, 140, 143), tr(2, trace.Downlink, 1, 141, 146),
		tr(2, trace.Uplink, 1, 150, 152), tr(2, trace.Uplink, 0, 153, 158),
	}
	p, err := ExtractPhases(ts, 1)
	require.NoError(t, err)
	require.Equal(t, 2, p.Steps)
	require.InDelta(t, (10+6)/2e3, p.SD, 1e-12)
	require.InDelta(t, (10+4)/2e3, p.SW, 1e-12)
	require.InDelta(t, (15+8)/2e3, p.SU, 1e-12)
	require.InDelta(t, 5/1e3, p.SS, 1e-12, "only step 1 has a next downlink")
}

func TestExtractPhasesErrors(t *testing.T) {
	t.Parallel()
	_, err := ExtractPhases(nil, 0)
	require.ErrorContains(t, err, "no transfers")
	overlap := []Transfer{tr(0, trace.Downlink, 0, 1, 10), tr(0, trace.Uplink, 0, 5, 12), tr(1, trace.Downlink, 0, 20, 21), tr(1, trace.Uplink, 0, 22, 23)}
	_, err = ExtractPhases(overlap, 0)
	require.ErrorContains(t, err, "step 0: uplink starts 5000000 ns before the downlink ends")
	noWire := []Transfer{{Step: 0, Dir: trace.Downlink}}
	_, err = ExtractPhases(noWire, 0)
	require.ErrorContains(t, err, "no wire times")
	short := []Transfer{tr(0, trace.Downlink, 0, 1, 2), tr(0, trace.Uplink, 0, 2, 3)}
	_, err = ExtractPhases(short, 0)
	require.ErrorContains(t, err, "need at least 2 steps")
}

func steps(startEnd ...int64) StepTimes {
	var s StepTimes
	for i := 0; i < len(startEnd); i += 2 {
		s.Start = append(s.Start, startEnd[i]*ms)
		s.End = append(s.End, startEnd[i+1]*ms)
	}
	return s
}

func TestThroughputOneWorker(t *testing.T) {
	t.Parallel()
	// 4 steps ending at 10, 30, 60, 100 ms; last 2 steps: 2 steps in 70 ms
	w := steps(0, 10, 10, 30, 30, 60, 60, 100)
	x, err := Throughput([]StepTimes{w}, 8, 2)
	require.NoError(t, err)
	require.InDelta(t, 8*2/0.070, x, 1e-9)
	// all steps: from the first start, 4 steps in 100 ms
	x, err = Throughput([]StepTimes{w}, 8, 4)
	require.NoError(t, err)
	require.InDelta(t, 8*4/0.1, x, 1e-9)
}

func TestThroughputTwoWorkersPooled(t *testing.T) {
	t.Parallel()
	// worker a: steps end 10, 20, 30, 40; worker b: 15, 35, 55, 75.
	// pooled ends 10 15 20 30 | 35 40 55 75; warm-up = 2·(4−2) = 4 ends,
	// so begin = 30; a is done at 40: 2 ends (35, 40) in 10 ms.
	a := steps(0, 10, 10, 20, 20, 30, 30, 40)
	b := steps(0, 15, 15, 35, 35, 55, 55, 75)
	x, err := Throughput([]StepTimes{a, b}, 10, 2)
	require.NoError(t, err)
	require.InDelta(t, 10*2/0.010, x, 1e-6)
}

func TestThroughputDriftedWorkersUseWholeTail(t *testing.T) {
	t.Parallel()
	// pooled ends 10 20 30 40 | 50 60 70 90: a finishes at 40, not after
	// the warm-up's end (4th end = 40), so the window runs to the last
	// end: 4 ends in (40, 90].
	a := steps(0, 10, 10, 20, 20, 30, 30, 40)
	b := steps(0, 50, 50, 60, 60, 70, 70, 90)
	x, err := Throughput([]StepTimes{a, b}, 1, 2)
	require.NoError(t, err)
	require.InDelta(t, 4/0.050, x, 1e-9)
}

func TestThroughputErrors(t *testing.T) {
	t.Parallel()
	a := steps(0, 10, 10, 20)
	_, err := Throughput(nil, 1, 1)
	require.ErrorContains(t, err, "no workers")
	_, err = Throughput([]StepTimes{a}, 0, 1)
	require.ErrorContains(t, err, "batch 0")
	_, err = Throughput([]StepTimes{a}, 1, 3)
	require.ErrorContains(t, err, "average over 3 of 2 steps")
	_, err = Throughput([]StepTimes{a, steps(0, 10)}, 1, 1)
	require.ErrorContains(t, err, "worker 1 has 1/1 step times")
	_, err = Throughput([]StepTimes{steps(0, 20, 20, 10)}, 1, 1)
	require.ErrorContains(t, err, "not increasing")
}

func TestMeanStd(t *testing.T) {
	t.Parallel()
	m, s := MeanStd([]float64{2, 4, 4, 4, 5, 5, 7, 9})
	require.InDelta(t, 5, m, 1e-12)
	require.InDelta(t, math.Sqrt(32.0/7), s, 1e-12, "sample deviation, n−1")
	m, s = MeanStd([]float64{3})
	require.Equal(t, 3.0, m)
	require.Equal(t, 0.0, s)
	m, s = MeanStd(nil)
	require.Zero(t, m+s)
}

func TestFitOverheadRecoversLine(t *testing.T) {
	t.Parallel()
	const alpha, beta = 2e-9, 50e-6 // s/byte, s
	var ts []Transfer
	for _, b := range []int64{1000, 50000, 200000, 1000000} {
		over := int64(math.Round((alpha*float64(b) + beta) * 1e9))
		ts = append(ts, Transfer{Bytes: b, LastByte: 1e9, Available: 1e9 + over})
	}
	ts = append(ts, Transfer{Bytes: 5, Available: 7}) // no wire times: skipped
	o, err := FitOverhead(ts)
	require.NoError(t, err)
	require.Equal(t, 4, o.Samples)
	require.InDelta(t, alpha, o.Alpha, 1e-13)
	require.InDelta(t, beta, o.Beta, 1e-9)
}

func TestFitOverheadNeverNegative(t *testing.T) {
	t.Parallel()
	// overhead falls with size: α would be negative, so α = 0, β = mean
	ts := []Transfer{{Bytes: 100, LastByte: 1, Available: 1 + 3000}, {Bytes: 200, LastByte: 1, Available: 1 + 1000}}
	o, err := FitOverhead(ts)
	require.NoError(t, err)
	require.Equal(t, 0.0, o.Alpha)
	require.InDelta(t, 2e-6, o.Beta, 1e-15)
	// steep line through the origin's left: β would be negative
	ts = []Transfer{{Bytes: 100, LastByte: 1, Available: 1 + 100}, {Bytes: 200, LastByte: 1, Available: 1 + 300}}
	o, err = FitOverhead(ts)
	require.NoError(t, err)
	require.Equal(t, 0.0, o.Beta)
	require.InDelta(t, (100*100e-9+200*300e-9)/(100*100+200*200), o.Alpha, 1e-18)
	_, err = FitOverhead(ts[:1])
	require.ErrorContains(t, err, "need ≥ 2")
}

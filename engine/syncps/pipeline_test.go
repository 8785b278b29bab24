package syncps

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// twoLayerSteps is the hand-worked example of Fig. 2's pipelines: layers A
// (input side) and B (output side), two iterations; the second iteration's IO
// (12 s) is longer than the first iteration, so 1 s of it is exposed.
func twoLayerSteps() []Step {
	layers := []LayerTimes{
		{Name: "A", FP: 1, BP: 2, FC: 2, AG: 1, BC: 1},
		{Name: "B", FP: 1, BP: 1, FC: 3, AG: 1, BC: 2},
	}
	return []Step{{IO: 3, UP: 1, Layers: layers}, {IO: 12, UP: 1, Layers: layers}}
}

func TestPipelineHandComputedTwoIterations(t *testing.T) {
	t.Parallel()
	tr, err := RunPipeline(twoLayerSteps())
	require.NoError(t, err)
	require.Len(t, tr, 2)

	// Iteration 1. IO 0→3; FP 3→5. Backward order B then A:
	//   BP: B 5+1=6,          A 6+2=8               (type I)
	//   FC: B 6+3=9,          A max(8,9)+2=11       (type II)
	//   AG: B 9+1=10,         A max(11,10)+1=12
	//   BC: B 10+2=12,        A max(12,12)+1=13
	//   UP 13+1=14.
	it := tr[0]
	require.Equal(t, 1, it.Iteration)
	require.Equal(t, 3.0, it.IODone)
	require.Equal(t, 3.0, it.Start)
	require.Equal(t, 5.0, it.FPDone)
	require.Equal(t, []float64{8, 6}, it.BPDone)
	require.Equal(t, []float64{11, 9}, it.FCDone)
	require.Equal(t, []float64{12, 10}, it.AGDone)
	require.Equal(t, []float64{13, 12}, it.BCDone)
	require.Equal(t, 14.0, it.UPDone)
	require.Equal(t, 14.0, it.Time)
	// Eq. 5: e(io^1) = t_io^1; Eq. 6: e(fc) = 11−8, e(ag) = 12−11, e(bc) = 13−12.
	require.Equal(t, Iteration{IO: 3, FP: 2, BP: 3, FC: 3, AG: 1, BC: 1, UP: 1}, it.Exposed)

	// Iteration 2. IO is type I: τ_io^2 = 3+12 = 15. Eq. 5: e = max(0, 15−14) = 1.
	// Training starts at 15; every τ is iteration 1's shifted by 12.
	it = tr[1]
	require.Equal(t, 15.0, it.IODone)
	require.Equal(t, 15.0, it.Start)
	require.Equal(t, 17.0, it.FPDone)
	require.Equal(t, []float64{20, 18}, it.BPDone)
	require.Equal(t, []float64{23, 21}, it.FCDone)
	require.Equal(t, []float64{24, 22}, it.AGDone)
	require.Equal(t, []float64{25, 24}, it.BCDone)
	require.Equal(t, 26.0, it.UPDone)
	require.Equal(t, 12.0, it.Time)
	require.Equal(t, Iteration{IO: 1, FP: 2, BP: 3, FC: 3, AG: 1, BC: 1, UP: 1}, it.Exposed)
}

func TestPipelineHidesShortIO(t *testing.T) {
	t.Parallel()
	steps := twoLayerSteps()
	steps[1].IO = 5 // τ_io^2 = 8 < τ_DT^1 = 14: fully hidden
	tr, err := RunPipeline(steps)
	require.NoError(t, err)
	require.Equal(t, 8.0, tr[1].IODone)
	require.Equal(t, 0.0, tr[1].Exposed.IO)
	require.Equal(t, 14.0, tr[1].Start)
	require.Equal(t, 11.0, tr[1].Time)
}

func TestPipelineBackwardHidesCommunication(t *testing.T) {
	t.Parallel()
	// Output-side layer with a long BP of the input-side layer: B's gradient
	// (FC+AG+BC = 3) moves entirely while A computes (BP 5), so only A's own
	// communication is exposed.
	layers := []LayerTimes{
		{Name: "A", BP: 5, FC: 1, AG: 1, BC: 1},
		{Name: "B", BP: 1, FC: 1, AG: 1, BC: 1},
	}
	tr, err := RunPipeline([]Step{{Layers: layers}})
	require.NoError(t, err)
	require.Equal(t, Iteration{BP: 6, FC: 1, AG: 1, BC: 1}, tr[0].Exposed)
	require.Equal(t, 9.0, tr[0].Time)
}

func TestPipelineExposedTimesSumToIterationTime(t *testing.T) {
	t.Parallel()
	tr, err := RunPipeline(twoLayerSteps())
	require.NoError(t, err)
	for _, it := range tr {
		e := it.Exposed
		require.InDelta(t, it.Time, e.IO+e.FP+e.BP+e.FC+e.AG+e.BC+e.UP, 1e-12)
	}
}

// Not parallel: testing.AllocsPerRun refuses to run in parallel tests.
func TestPipelineReusesTraceWithoutAllocating(t *testing.T) {
	s := twoLayerSteps()[0]
	var p Pipeline
	var tr IterationTrace
	require.NoError(t, p.Next(s, &tr))
	allocs := testing.AllocsPerRun(100, func() {
		if err := p.Next(s, &tr); err != nil {
			panic(err)
		}
	})
	require.Zero(t, allocs)
}

func TestPipelineInvalidInput(t *testing.T) {
	t.Parallel()
	bad := func(mut func(*Step)) error {
		s := twoLayerSteps()[0]
		s.Layers = append([]LayerTimes(nil), s.Layers...)
		mut(&s)
		var p Pipeline
		var tr IterationTrace
		err := p.Next(s, &tr)
		if err == nil {
			return nil
		}
		require.Zero(t, p, "pipeline must not advance on error")
		return err
	}
	require.ErrorContains(t, bad(func(s *Step) { s.Layers = nil }), "no layers")
	require.ErrorContains(t, bad(func(s *Step) { s.IO = -1 }), "IO must be finite and ≥ 0, got -1")
	require.ErrorContains(t, bad(func(s *Step) { s.UP = nan() }), "UP must be finite")
	require.ErrorContains(t, bad(func(s *Step) { s.Layers[1].AG = -0.5 }), `layer 1 "B": AG must be finite and ≥ 0, got -0.5`)
	require.ErrorContains(t, bad(func(s *Step) { s.Layers[0].FC = inf() }), `layer 0 "A": FC`)
}

// Type II processes queue behind the previous layer's same process: a slow
// PS (AG) or a slow return path (BC) delays the next layer even though its
// predecessor process finished earlier.
func TestPipelineTypeIIQueues(t *testing.T) {
	t.Parallel()
	// BP 1 each: τ_bp B = 1, A = 2; FC 1 each: τ_fc B = 2, A = max(2,2)+1 = 3.
	slowAG := []LayerTimes{{Name: "A", BP: 1, FC: 1, AG: 5, BC: 1}, {Name: "B", BP: 1, FC: 1, AG: 5, BC: 1}}
	// AG: B 2+5 = 7, A max(3,7)+5 = 12; BC: B 8, A max(12,8)+1 = 13.
	tr, err := RunPipeline([]Step{{Layers: slowAG}})
	require.NoError(t, err)
	require.Equal(t, []float64{12, 7}, tr[0].AGDone)
	require.Equal(t, []float64{13, 8}, tr[0].BCDone)
	require.Equal(t, Iteration{BP: 2, FC: 1, AG: 9, BC: 1}, tr[0].Exposed)

	slowBC := []LayerTimes{{Name: "A", BP: 1, FC: 1, AG: 1, BC: 4}, {Name: "B", BP: 1, FC: 1, AG: 1, BC: 4}}
	// AG: B 3, A max(3,3)+1 = 4; BC: B 3+4 = 7, A max(4,7)+4 = 11.
	tr, err = RunPipeline([]Step{{Layers: slowBC}})
	require.NoError(t, err)
	require.Equal(t, []float64{4, 3}, tr[0].AGDone)
	require.Equal(t, []float64{11, 7}, tr[0].BCDone)
	require.Equal(t, 11.0, tr[0].Time)
}

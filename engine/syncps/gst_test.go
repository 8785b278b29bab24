package syncps

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// heterogeneous is a 2-iteration, 2-worker schedule worked by hand below.
func heterogeneous() Schedule {
	return Schedule{
		{
			{IO: 1, FP: 2, BP: 3, FC: 1, AG: 1, BC: 1, UP: 1},
			{IO: 1, FP: 4, BP: 3, FC: 1, AG: 1, BC: 2, UP: 1},
		},
		{
			{IO: 1, FP: 2, BP: 3, FC: 1, AG: 1, BC: 1, UP: 1},
			{IO: 0, FP: 1, BP: 1, FC: 1, AG: 1, BC: 1, UP: 1},
		},
	}
}

func TestGSTHandComputed(t *testing.T) {
	t.Parallel()
	s := heterogeneous()
	// m = 1: io + fp + bp + fc + ag.
	require.Equal(t, 8.0, s.GST(0, 0))  // 1+2+3+1+1
	require.Equal(t, 10.0, s.GST(0, 1)) // 1+4+3+1+1
	// m > 1 (Z-1: fc and ag included): bc^{m−1} + up^{m−1} + io + fp + bp + fc + ag.
	require.Equal(t, 10.0, s.GST(1, 0)) // 1+1 + 1+2+3+1+1
	require.Equal(t, 7.0, s.GST(1, 1))  // 2+1 + 0+1+1+1+1
}

func TestEpochBarrierAndExactHandComputed(t *testing.T) {
	t.Parallel()
	s := heterogeneous()
	// Exact: worker 0: 8+10+(1+1) = 20; worker 1: 10+7+(1+1) = 19 → 20.
	exact, err := s.EpochExact()
	require.NoError(t, err)
	require.Equal(t, 20.0, exact)
	// Barrier (Z-2): max(8,10) + max(10,7) + max(2,2) = 22 > 20: the slow
	// worker of iteration 1 holds everyone back although it is fast later.
	barrier, err := s.EpochBarrier()
	require.NoError(t, err)
	require.Equal(t, 22.0, barrier)
}

func TestEpochFormsAgreeForIdenticalWorkers(t *testing.T) {
	t.Parallel()
	row := heterogeneous()[0][0]
	s := Schedule{{row, row, row}, {row, row, row}, {row, row, row}}
	exact, err := s.EpochExact()
	require.NoError(t, err)
	barrier, err := s.EpochBarrier()
	require.NoError(t, err)
	require.Equal(t, exact, barrier)
	require.Equal(t, 8.0+10+10+2, exact)
}

// Z-1: with fc and ag in every GST, Eq. 2 telescopes to the pipeline's
// completion time τ_DT^M; the printed Eq. 1 (without them) would not.
func TestEpochOfPipelineTraceEqualsCompletionTime(t *testing.T) {
	t.Parallel()
	tr, err := RunPipeline(twoLayerSteps())
	require.NoError(t, err)
	s := Schedule{{tr[0].Exposed}, {tr[1].Exposed}}
	exact, err := s.EpochExact()
	require.NoError(t, err)
	require.Equal(t, tr[1].UPDone, exact)
	printed := exact - tr[1].Exposed.FC - tr[1].Exposed.AG
	require.NotEqual(t, tr[1].UPDone, printed)
}

func TestScheduleInvalid(t *testing.T) {
	t.Parallel()
	_, err := Schedule{}.EpochBarrier()
	require.ErrorContains(t, err, "no iterations")
	_, err = Schedule{{}}.EpochExact()
	require.ErrorContains(t, err, "no workers")
	s := heterogeneous()
	s[1] = s[1][:1]
	_, err = s.EpochExact()
	require.ErrorContains(t, err, "iteration 1 has 1 workers, iteration 0 has 2")
	s = heterogeneous()
	s[1][1].BC = -2
	_, err = s.EpochBarrier()
	require.ErrorContains(t, err, "iteration 1 worker 1: BC must be finite and ≥ 0, got -2")
	s = heterogeneous()
	s[0][0].FP = nan()
	_, err = s.EpochExact()
	require.ErrorContains(t, err, "iteration 0 worker 0: FP must be finite")
}

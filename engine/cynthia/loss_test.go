package cynthia

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestLossValueHandComputed(t *testing.T) {
	t.Parallel()
	l := Loss{Beta0: 100, Beta1: 4}
	v, err := l.Value(BSP, 46, 9)
	require.NoError(t, err)
	require.InDelta(t, 2, v, 1e-15) // 100/(46+4)
	v, err = l.Value(ASP, 46, 9)
	require.NoError(t, err)
	require.InDelta(t, 6, v, 1e-15) // 100·3/50
	// ASP loss at fixed s grows with n (Fig. 4b); BSP does not (Fig. 4a).
	a4, _ := l.Value(ASP, 46, 4)
	require.Less(t, a4, v)
	b4, _ := l.Value(BSP, 46, 4)
	require.Equal(t, 2.0, b4)
}

func TestLossIterationsHandComputed(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		l    Loss
		sync Sync
		goal float64
		n    int
		want int
	}{
		// Eq. 15: 8000/0.8 = 10000 exactly despite float rounding.
		{"bsp exact", Loss{8000, 0}, BSP, 0.8, 1, 10000},
		// Eq. 15: 100/0.3 − 3.5 = 329.83 → 330.
		{"bsp ceil", Loss{100, 3.5}, BSP, 0.3, 1, 330},
		// Eq. 20: 300/(0.8·√11) − 20/11 = 111.25 → 112.
		{"asp n=11", Loss{300, 20}, ASP, 0.8, 11, 112},
		// Eq. 20: 375/√15 − 20/15 = 95.49 → 96.
		{"asp n=15", Loss{300, 20}, ASP, 0.8, 15, 96},
		// A goal met before the first iteration still needs one.
		{"clamp", Loss{1, 5}, BSP, 10, 1, 1},
	} {
		got, err := tc.l.Iterations(tc.sync, tc.goal, tc.n)
		require.NoError(t, err, tc.name)
		require.Equal(t, tc.want, got, tc.name)
	}
}

// TestLossIterationsReachGoal: s from Eq. 15/20 reaches the goal and s−1
// does not (ASP: the total n·s over all workers, C-2).
func TestLossIterationsReachGoal(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		l := Loss{Beta0: 1 + 1e4*rng.Float64(), Beta1: 50 * rng.Float64()}
		goal := 0.05 + rng.Float64()
		n := 1 + rng.IntN(64)
		for _, sync := range []Sync{BSP, ASP} {
			s, err := l.Iterations(sync, goal, n)
			require.NoError(t, err)
			per := 1
			if sync == ASP {
				per = n
			}
			v, err := l.Value(sync, float64(per*s), n)
			require.NoError(t, err)
			require.LessOrEqual(t, v, goal*(1+1e-9))
			if s > 1 {
				// One fewer iteration per worker must miss the goal.
				v, err = l.Value(sync, float64(per*(s-1)), n)
				require.NoError(t, err)
				require.Greater(t, v, goal)
			}
		}
	}
}

func TestLossInvalid(t *testing.T) {
	t.Parallel()
	_, err := Loss{Beta0: 0}.Iterations(BSP, 1, 1)
	require.ErrorContains(t, err, "Beta0")
	_, err = Loss{Beta0: 1, Beta1: -1}.Iterations(BSP, 1, 1)
	require.ErrorContains(t, err, "Beta1")
	_, err = Loss{Beta0: 1}.Iterations(BSP, 0, 1)
	require.ErrorContains(t, err, "goal")
	_, err = Loss{Beta0: 1}.Iterations(ASP, 1, 0)
	require.ErrorContains(t, err, "workers")
	_, err = Loss{Beta0: 1}.Iterations(Sync(3), 1, 1)
	require.ErrorContains(t, err, "Sync")
	_, err = Loss{Beta0: 1e300}.Iterations(BSP, 1e-10, 1)
	require.ErrorContains(t, err, "iterations")
	_, err = Loss{Beta0: 1}.Value(BSP, math.NaN(), 1)
	require.ErrorContains(t, err, "s must")
	_, err = Loss{Beta0: 1}.Value(BSP, 0, 1)
	require.ErrorContains(t, err, "s + Beta1")
	_, err = Loss{Beta0: 1}.Value(ASP, 1, 0)
	require.ErrorContains(t, err, "workers")
	_, err = Loss{Beta0: 1}.Value(Sync(0), 1, 1)
	require.ErrorContains(t, err, "Sync")
	require.NoError(t, Loss{Beta0: 1}.Validate())
}

func TestRounding(t *testing.T) {
	t.Parallel()
	require.Equal(t, 10000.0, ceilTol(8000/0.8))
	require.Equal(t, 3.0, ceilTol(2.001))
	require.Equal(t, 16.0, floorTol(16.308))
	require.Equal(t, 3.0, floorTol(2.9999999999999996))
	require.Equal(t, 0.0, floorTol(0.5))
}

package syncps

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/integrate/quad"
)

func TestExpectedMaxNormalClosedForms(t *testing.T) {
	t.Parallel()
	// N = 1: the mean itself.
	e, err := ExpectedMaxNormal(1, 3, 2)
	require.NoError(t, err)
	require.InDelta(t, 3, e, 1e-12)
	// N = 2: μ + σ/√π.
	e, err = ExpectedMaxNormal(2, 3, 2)
	require.NoError(t, err)
	require.InDelta(t, 3+2/math.Sqrt(math.Pi), e, 1e-12)
	// N = 3: μ + 3σ/(2√π).
	e, err = ExpectedMaxNormal(3, -1, 0.5)
	require.NoError(t, err)
	require.InDelta(t, -1+0.5*3/(2*math.Sqrt(math.Pi)), e, 1e-12)
	// E[max of N standard normals], derived independently with 30-digit
	// mpmath quadrature of ∫ z·N·Φ^{N−1}(z)·φ(z) dz (agree with Harter's
	// 1961 tables to their printed digits).
	for _, c := range []struct {
		n    int
		want float64
	}{{5, 1.16296447364052}, {10, 1.53875273083517}, {100, 2.50759363644168},
		{1000, 3.24143576913344}, {1000000, 4.86289748619646}} {
		e, err := ExpectedMaxNormal(c.n, 0, 1)
		require.NoError(t, err)
		require.InDelta(t, c.want, e, 1e-11, "N=%d", c.n)
	}
	// σ = 0: degenerate, the mean.
	e, err = ExpectedMaxNormal(50, 7, 0)
	require.NoError(t, err)
	require.Equal(t, 7.0, e)
}

func TestExpectedMaxNormalMatchesMonteCarlo(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{1, 2, 7, 64} {
		exact, err := ExpectedMaxNormal(n, 0.2, 0.03)
		require.NoError(t, err)
		const samples = 20000
		mc, err := MonteCarloMaxNormal(rng, n, 0.2, 0.03, samples)
		require.NoError(t, err)
		// The max has standard deviation ≤ σ, so 5σ/√samples bounds the error.
		require.InDelta(t, exact, mc, 5*0.03/math.Sqrt(samples), "N=%d", n)
	}
}

func TestMonteCarloMaxNormalIsDeterministic(t *testing.T) {
	t.Parallel()
	a, err := MonteCarloMaxNormal(rand.New(rand.NewPCG(9, 9)), 5, 0, 1, 100)
	require.NoError(t, err)
	b, err := MonteCarloMaxNormal(rand.New(rand.NewPCG(9, 9)), 5, 0, 1, 100)
	require.NoError(t, err)
	require.Equal(t, a, b)
	c, err := MonteCarloMaxNormal(rand.New(rand.NewPCG(9, 10)), 5, 0, 1, 100)
	require.NoError(t, err)
	require.NotEqual(t, a, c)
}

func TestExpectedMaxNormalGrowsWithWorkers(t *testing.T) {
	t.Parallel()
	prev := math.Inf(-1)
	for _, n := range []int{1, 2, 3, 4, 8, 16, 1000, 1000000} {
		e, err := ExpectedMaxNormal(n, 0, 1)
		require.NoError(t, err)
		require.Greater(t, e, prev)
		require.Less(t, e, math.Sqrt(2*math.Log(float64(n)))+1e-9) // classical upper bound
		prev = e
	}
}

func TestMaxCDFAndDensity(t *testing.T) {
	t.Parallel()
	// Eq. 8: F_max = F^N; at the mean F = 1/2.
	require.InDelta(t, 0.25, MaxCDF(2, 1, 3, 1), 1e-15)
	require.InDelta(t, 0.125, MaxCDF(3, 1, 3, 1), 1e-15)
	// f_max is a density: it integrates to 1 and is the derivative of F_max.
	area := quad.Fixed(func(x float64) float64 { return MaxDensity(4, 1, 0.5, x) }, -6, 8, 400, nil, 0)
	require.InDelta(t, 1, area, 1e-10)
	const h = 1e-5
	slope := (MaxCDF(4, 1, 0.5, 1.3+h) - MaxCDF(4, 1, 0.5, 1.3-h)) / (2 * h)
	require.InDelta(t, slope, MaxDensity(4, 1, 0.5, 1.3), 1e-8)
}

func TestGSTSigmaAddsVariances(t *testing.T) {
	t.Parallel()
	require.InDelta(t, 2.0, GSTSigma(1, 4), 1e-15)
	require.InDelta(t, 0.3*math.Sqrt(6), GSTSigma(0.3, 6), 1e-15)
}

func TestScalabilityInvalidInputs(t *testing.T) {
	t.Parallel()
	_, err := ExpectedMaxNormal(0, 0, 1)
	require.ErrorContains(t, err, "workers must be ≥ 1, got 0")
	_, err = ExpectedMaxNormal(2, nan(), 1)
	require.ErrorContains(t, err, "mean must be finite")
	_, err = ExpectedMaxNormal(2, 0, -1)
	require.ErrorContains(t, err, "sigma must be finite and ≥ 0, got -1")
	rng := rand.New(rand.NewPCG(1, 1))
	_, err = MonteCarloMaxNormal(rng, 2, 0, 1, 0)
	require.ErrorContains(t, err, "samples must be ≥ 1")
	_, err = MonteCarloMaxNormal(rng, 2, 0, inf(), 10)
	require.ErrorContains(t, err, "sigma must be finite")
	require.PanicsWithValue(t, "syncps: nil *rand.Rand", func() { _, _ = MonteCarloMaxNormal(nil, 2, 0, 1, 1) })
	require.Panics(t, func() { MaxCDF(0, 0, 1, 0) })
	require.Panics(t, func() { MaxDensity(2, 0, 0, 0) })
}

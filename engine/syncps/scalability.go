package syncps

import (
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/integrate/quad"
	"gonum.org/v1/gonum/stat/distuv"
)

// Integration grid for ExpectedMaxNormal: composite Gauss–Legendre over
// μ ± maxNormalHalfWidth·σ. The truncated tails carry less than 1e-40 of the
// probability for any n below 1e30.
const (
	maxNormalHalfWidth = 14.0
	maxNormalPanels    = 28
	maxNormalPoints    = 24 // per panel
)

// GSTSigma returns the standard deviation σ(m) of a worker's GST, in seconds,
// when each of processes independent processes has standard deviation
// perProcess seconds (Eq. 7, ambiguity Z-5): variances add, so
// σ(m) = perProcess·√processes.
func GSTSigma(perProcess float64, processes int) float64 {
	return perProcess * math.Sqrt(float64(processes))
}

// MaxCDF returns F_max(t) = F(t)^n of Eq. 8 (dimensionless): the probability
// that the largest of n independent Normal(mu, sigma) GSTs is ≤ t seconds.
// F is the normal CDF of Eq. 7. MaxCDF panics if n < 1 or sigma ≤ 0.
func MaxCDF(n int, mu, sigma, t float64) float64 {
	d := normal(n, mu, sigma)
	return math.Pow(d.CDF(t), float64(n))
}

// MaxDensity returns f_max(t) = n·F(t)^{n−1}·f(t), the derivative of Eq. 8,
// in 1/seconds. MaxDensity panics if n < 1 or sigma ≤ 0.
func MaxDensity(n int, mu, sigma, t float64) float64 {
	d := normal(n, mu, sigma)
	return maxDensity(d, float64(n), t)
}

func maxDensity(d distuv.Normal, n, t float64) float64 {
	return n * math.Pow(d.CDF(t), n-1) * d.Prob(t)
}

func normal(n int, mu, sigma float64) distuv.Normal {
	if n < 1 {
		panic("syncps: number of workers < 1")
	}
	if !(sigma > 0) {
		panic("syncps: non-positive sigma")
	}
	return distuv.Normal{Mu: mu, Sigma: sigma}
}

// ExpectedMaxNormal returns E[max of n iid Normal(mu, sigma)] in seconds, the
// per-iteration term of Eq. 9 (ambiguity Z-6: the paper's E[f_max(m, t)] is
// read as ∫ t·f_max(m, t) dt). It integrates μ + ∫ (t−μ)·f_max(t) dt with
// composite Gauss–Legendre quadrature (gonum quad.Legendre, 28 panels of 24
// points over μ ± 14σ); it does not allocate. sigma = 0 gives mu.
// It returns an error if n < 1, mu is not finite or sigma is negative or not
// finite.
func ExpectedMaxNormal(n int, mu, sigma float64) (float64, error) {
	if n < 1 {
		return 0, fmt.Errorf("syncps: expected max: workers must be ≥ 1, got %d", n)
	}
	if math.IsNaN(mu) || math.IsInf(mu, 0) {
		return 0, fmt.Errorf("syncps: expected max: mean must be finite, got %g", mu)
	}
	if err := checkNonNegative("sigma", sigma); err != nil {
		return 0, fmt.Errorf("syncps: expected max: %w", err)
	}
	if sigma == 0 {
		return mu, nil
	}
	d := distuv.Normal{Mu: mu, Sigma: sigma}
	nf := float64(n)
	// Gauss–Legendre nodes and weights on [−1, 1] from gonum's quad rule,
	// mapped onto each panel: ∫_a^{a+w} g ≈ (w/2)·Σ_i w_i·g(a + w(x_i+1)/2).
	var x, wt [maxNormalPoints]float64
	quad.Legendre{}.FixedLocations(x[:], wt[:], -1, 1)
	lo := mu - maxNormalHalfWidth*sigma
	width := 2 * maxNormalHalfWidth * sigma / maxNormalPanels
	var sum float64
	for p := range maxNormalPanels {
		a := lo + float64(p)*width
		var panel float64
		for i := range x {
			t := a + width*(x[i]+1)/2
			panel += wt[i] * (t - mu) * maxDensity(d, nf, t) // (t−μ)·f_max(t)
		}
		sum += panel * width / 2
	}
	return mu + sum, nil
}

// MonteCarloMaxNormal estimates E[max of n iid Normal(mu, sigma)] in seconds
// from samples draws of the maximum using rng, as a check of
// ExpectedMaxNormal. The same rng state gives the same result. It returns an
// error for n < 1, samples < 1, non-finite mu or negative or non-finite
// sigma, and panics if rng is nil.
func MonteCarloMaxNormal(rng *rand.Rand, n int, mu, sigma float64, samples int) (float64, error) {
	if rng == nil {
		panic("syncps: nil *rand.Rand")
	}
	if n < 1 {
		return 0, fmt.Errorf("syncps: monte carlo max: workers must be ≥ 1, got %d", n)
	}
	if samples < 1 {
		return 0, fmt.Errorf("syncps: monte carlo max: samples must be ≥ 1, got %d", samples)
	}
	if math.IsNaN(mu) || math.IsInf(mu, 0) {
		return 0, fmt.Errorf("syncps: monte carlo max: mean must be finite, got %g", mu)
	}
	if err := checkNonNegative("sigma", sigma); err != nil {
		return 0, fmt.Errorf("syncps: monte carlo max: %w", err)
	}
	var sum float64
	for range samples {
		worst := math.Inf(-1)
		for range n {
			worst = math.Max(worst, rng.NormFloat64())
		}
		sum += worst
	}
	return mu + sigma*sum/float64(samples), nil
}

package sched

import (
	"math"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// The statistics here run once per stopping-rule check (every 10% of the
// completions) and once per run, never per event, so gonum/stat fits; only
// the standard error of the slope, which gonum/stat does not provide, is
// written out.

// batchMeans splits x into b equal consecutive batches (the first len(x) mod
// b samples, the oldest, are dropped) and returns the batch means. It returns
// nil when there are fewer samples than batches.
func batchMeans(x []float64, b int) []float64 {
	m := len(x) / b
	if b < 2 || m < 1 {
		return nil
	}
	x = x[len(x)-m*b:]
	out := make([]float64, b)
	for k := range out {
		out[k] = stat.Mean(x[k*m:(k+1)*m], nil)
	}
	return out
}

// ciHalfWidth is the half-width of the two-sided 95% Student-t confidence
// interval of the mean of the batch means bm (len(bm) ≥ 2).
func ciHalfWidth(bm []float64) float64 {
	n := float64(len(bm))
	sd := stat.StdDev(bm, nil)
	t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: n - 1}.Quantile(0.975)
	return t * stat.StdErr(sd, n)
}

// mean is the sample mean of x, 0 for an empty x.
func mean(x []float64) float64 {
	if len(x) == 0 {
		return 0
	}
	return stat.Mean(x, nil)
}

// trendingUp reports whether the per-batch mean number of jobs in system n
// grows through the run: the mean over the last third of the batches exceeds
// the first third's by more than 50% and by more than one job, and the
// least-squares slope over all batches is positive with t-statistic > 3.
// Both conditions are needed: the t-test alone is fooled by the strong
// autocorrelation of a busy stable system, the ratio alone by noise.
func trendingUp(n []float64) bool {
	k := len(n) / 3
	if k < 1 || len(n) < 3 {
		return false
	}
	first, last := mean(n[:k]), mean(n[len(n)-k:])
	if !(last > 1.5*first && last > first+1) {
		return false
	}
	// Least squares n_b = a + s·b, and the standard error of s.
	B := float64(len(n))
	xs := make([]float64, len(n))
	for b := range xs {
		xs[b] = float64(b)
	}
	a, s := stat.LinearRegression(xs, n, nil, false)
	sxx := B * (B*B - 1) / 12 // Σ (b − xm)² over b = 0..B−1
	res := 0.0
	for b, v := range n {
		r := v - a - s*float64(b)
		res += r * r
	}
	se := math.Sqrt(res / (B - 2) / sxx)
	return s > 0 && (se == 0 || s/se > 3)
}

package sched

import (
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

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
		s := 0.0
		for _, v := range x[k*m : (k+1)*m] {
			s += v
		}
		out[k] = s / float64(m)
	}
	return out
}

// ciHalfWidth is the half-width of the two-sided 95% Student-t confidence
// interval of the mean of the batch means bm (len(bm) ≥ 2).
func ciHalfWidth(bm []float64) float64 {
	n := float64(len(bm))
	mean := 0.0
	for _, v := range bm {
		mean += v
	}
	mean /= n
	ss := 0.0
	for _, v := range bm {
		ss += (v - mean) * (v - mean)
	}
	sd := math.Sqrt(ss / (n - 1))
	t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: n - 1}.Quantile(0.975)
	return t * sd / math.Sqrt(n)
}

func mean(x []float64) float64 {
	if len(x) == 0 {
		return 0
	}
	s := 0.0
	for _, v := range x {
		s += v
	}
	return s / float64(len(x))
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
	// Least squares n_b = a + s·b.
	B := float64(len(n))
	xm := (B - 1) / 2
	ym := mean(n)
	sxx, sxy := 0.0, 0.0
	for b, v := range n {
		dx := float64(b) - xm
		sxx += dx * dx
		sxy += dx * (v - ym)
	}
	s := sxy / sxx
	res := 0.0
	for b, v := range n {
		r := v - ym - s*(float64(b)-xm)
		res += r * r
	}
	se := math.Sqrt(res / (B - 2) / sxx)
	return s > 0 && (se == 0 || s/se > 3)
}

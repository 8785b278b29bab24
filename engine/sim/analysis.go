package sim

import (
	"math"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// Steady-state output analysis of one run (see doc.go, "Output
// analysis"). The observations are the times between consecutive step
// completions counted over all workers, x₁, x₂, …, from time 0 to the end
// of the measurement window; their mean is 1/StepRate.

// MSERBatch is the batch size of MSER-5: observations are averaged in
// groups of five before the truncation rule is applied (White, Cobb,
// Spratt, "A comparison of five steady-state truncation heuristics",
// WSC 2000).
const MSERBatch = 5

// Batches is the number of batches of the batch-means confidence interval
// (Law & Kelton, Simulation Modeling and Analysis, §9.5.3: 10 to 30).
const Batches = 20

// Output is the steady-state analysis of one run.
type Output struct {
	// Transient is the number of step completions, counted over all
	// workers from time 0, that MSER-5 deletes as the warm-up.
	Transient int
	// TransientOK is false when MSER-5's truncation point lies in the
	// second half of the run: the run is too short to show a steady state,
	// and Transient is then clipped to half of it.
	TransientOK bool
	// Throughput is examples/s after the transient, over the completions
	// after Transient up to the window end: Batch × the sum of the
	// workers' own step rates (workerRates), or Batch × completions / time
	// where a worker completed fewer than two steps there.
	Throughput float64
	// Lo and Hi bound the 95% confidence interval of Throughput by batch
	// means (Batches batches of consecutive completions after the
	// transient), examples/s. With fewer than Batches·MSERBatch
	// completions after the transient there is no interval: Lo = 0 and
	// Hi = +Inf. Hi is also +Inf when the interval of the mean time
	// between completions reaches 0.
	Lo, Hi float64
	// HalfWidth is the relative half-width of the interval of the mean
	// time between completions (≈ (Hi − Lo)/(2·Throughput)); +Inf when
	// there is no interval.
	HalfWidth float64
	// Lag1 is the lag-1 autocorrelation of the batch means; the batches
	// count as uncorrelated when it is at most 1.645/√Batches (a one-sided
	// 5% test of ρ₁ = 0; Law & Kelton §9.5.3). 0 when there is no
	// interval or the batch means are all equal.
	Lag1 float64
	// Uncorrelated reports Lag1 ≤ 1.645/√Batches.
	Uncorrelated bool
	// Cycles, under BSP, are the regeneration cycles of the run: the times
	// between consecutive barrier releases up to the window end, s (Count
	// is 0 under ASP). At a release every worker starts a step with every
	// resource idle, so the cycles are independent and identically
	// distributed, each completing exactly W steps (the regenerative
	// method, Law & Kelton §9.5.4; see doc.go).
	Cycles StepStats
	// BeforeCycles is the number of step completions before the first
	// barrier release: the transient the regenerative method deletes.
	BeforeCycles int
}

// lag1Limit is the one-sided 5% critical value of the lag-1
// autocorrelation of Batches independent batch means.
var lag1Limit = 1.645 / math.Sqrt(Batches)

// mser5 returns the MSER truncation point d* (in groups) of the group
// means z: the d in [0, m/2] minimising the squared standard error of the
// mean of z[d:], Σ_{i≥d} (z_i − z̄_d)² / (m − d)². Ties go to the smallest
// d. ok is false when d* = m/2, the edge of the search: the series is
// still moving at half of the run, which is too short. The search stops
// at m/2 because beyond it MSER's denominator rewards short, quiet tails
// (a periodic steady state has many); White et al. reject such points.
// It allocates nothing.
func mser5(z []float64) (d int, ok bool) {
	m := len(z)
	if m < 4 {
		return 0, false
	}
	var s, s2 float64
	for _, v := range z {
		s += v
		s2 += v * v
	}
	best := math.Inf(1)
	for i := 0; i <= m/2; i++ {
		n := float64(m - i)
		if v := max(s2-s*s/n, 0) / (n * n); v < best {
			best, d = v, i
		}
		s -= z[i]
		s2 -= z[i] * z[i]
	}
	return d, d < m/2
}

// workerRates is the steady-state step rate (steps/s) of the completions
// from index from on: the sum over workers of each worker's own rate,
// (its completions − 1) / (its last − its first completion time). ok is
// false when a worker has fewer than two completions there.
//
// Why not completions / span: under a barrier (BSP) the completions come
// in bursts of W, one per step, and a window that starts or ends inside a
// burst counts part of it without the gap before it. That biased
// completions/span upwards by about one burst in the steps kept: +0.8%
// at W = 64, 100 steps per worker, +4% at 16 steps (predict's 1..64
// nodes × 8 GPUs BSP sweep, measured 2026-11-28), so a converged estimate
// moved with the run length by more than its interval. Each worker's own
// rate has no such edge: between two of its completions lie exactly its
// steps.
func workerRates(worker []int32, t []float64, from, workers int) (rate float64, ok bool) {
	if from < 0 || from >= len(t) {
		return 0, false
	}
	first, last := make([]float64, workers), make([]float64, workers)
	n := make([]int, workers)
	for i := from; i < len(t); i++ {
		w := worker[i]
		if n[w] == 0 {
			first[w] = t[i]
		}
		last[w] = t[i]
		n[w]++
	}
	for w := range n {
		if n[w] < 2 || !(last[w] > first[w]) {
			return 0, false
		}
		rate += float64(n[w]-1) / (last[w] - first[w])
	}
	return rate, true
}

// tQuantile is the 0.975 quantile of Student's t with Batches − 1 degrees
// of freedom.
var tQuantile = distuv.StudentsT{Mu: 0, Sigma: 1, Nu: Batches - 1}.Quantile(0.975)

// analyse computes the Output of group durations z (seconds, each the
// time spanned by MSERBatch consecutive completions) for batch examples
// per step. means is scratch space of length Batches.
func analyse(z []float64, batch float64, means []float64) Output {
	out := Output{Hi: math.Inf(1), HalfWidth: math.Inf(1)}
	d, ok := mser5(z)
	out.Transient, out.TransientOK = d*MSERBatch, ok
	rest := z[d:]
	var span float64
	for _, v := range rest {
		span += v
	}
	if span <= 0 {
		return out // no completions, or all at one instant: no rate
	}
	out.Throughput = batch * float64(len(rest)*MSERBatch) / span
	k := len(rest) / Batches // groups per batch
	if k == 0 {
		return out
	}
	rest = rest[len(rest)-k*Batches:] // drop the oldest extra groups
	for j := range means {
		var b float64
		for _, v := range rest[j*k : (j+1)*k] {
			b += v
		}
		means[j] = b / float64(k*MSERBatch) // mean time between completions
	}
	mean, sd := stat.MeanStdDev(means, nil)
	h := tQuantile * sd / math.Sqrt(Batches)
	out.HalfWidth = h / mean
	out.Lo = batch / (mean + h)
	out.Hi = math.Inf(1)
	if mean > h {
		out.Hi = batch / (mean - h)
	}
	out.Lag1 = 0
	if sd > 0 {
		out.Lag1 = lag1(means, mean)
	}
	out.Uncorrelated = out.Lag1 <= lag1Limit
	return out
}

// lag1 is the lag-1 sample autocorrelation of x about its mean.
func lag1(x []float64, mean float64) float64 {
	var num, den float64
	for i, v := range x {
		den += (v - mean) * (v - mean)
		if i > 0 {
			num += (v - mean) * (x[i-1] - mean)
		}
	}
	return num / den
}

package experiment

import (
	"math"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// MinReplications is the fewest independent replications an experiment
// judged on intervals runs (issue: at least 10 seeds from a fixed rule).
const MinReplications = 10

// Seeds returns n replication seeds drawn in order from the experiment's
// generator (Env.Rand, seeded by the spec's seed): a fixed rule, so no
// seed is chosen by its outcome and the same spec gives the same seeds.
// Seeds(n)[0] is the seed a single-run kind draws first (Rand().Uint64() | 1),
// so replication 0 is the run such a kind made before it replicated.
func (e *Env) Seeds(n int) []uint64 {
	r := e.Rand()
	out := make([]uint64, n)
	for i := range out {
		out[i] = r.Uint64() | 1
	}
	return out
}

// MetricCI records name as the mean of the replications' samples, and
// name.ci95_lo and name.ci95_hi as the bounds of its 95% confidence
// interval (Student's t with len(samples) − 1 degrees of freedom), which
// golden interval checks judge. With fewer than two samples the bounds
// are ±Inf.
func (r *Result) MetricCI(name string, samples []float64) {
	mean, lo, hi := MeanCI(samples)
	r.Metrics[name] = mean
	r.Metrics[name+".ci95_lo"] = lo
	r.Metrics[name+".ci95_hi"] = hi
}

// MeanCI returns the mean of samples and its 95% confidence interval by
// Student's t; the bounds are ±Inf with fewer than two samples.
func MeanCI(samples []float64) (mean, lo, hi float64) {
	mean = stat.Mean(samples, nil)
	if len(samples) < 2 {
		return mean, math.Inf(-1), math.Inf(1)
	}
	n := float64(len(samples))
	h := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: n - 1}.Quantile(0.975) * stat.StdDev(samples, nil) / math.Sqrt(n)
	return mean, mean - h, mean + h
}

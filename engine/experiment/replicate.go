package experiment

import (
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// MinReplications is the fewest independent replications an experiment
// judged on intervals runs (issue: at least 10 seeds from a fixed rule).
const MinReplications = 10

// MaxReplications is the most replications an experiment may ask for.
const MaxReplications = 1000

// CheckReplications returns an error naming params.replications unless
// MinReplications ≤ n ≤ MaxReplications.
func (e *Env) CheckReplications(n int) error {
	if n < MinReplications || n > MaxReplications {
		return e.Errorf("replications", "replications %d, need %d to %d (independent replications, each with its own seed)", n, MinReplications, MaxReplications)
	}
	return nil
}

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

// ReplicationRands returns the generators of n independent replications:
// replication i's is a PCG seeded by Seeds(n)[i], so replication i draws
// the same numbers whatever n is, and no replication shares a stream.
func (e *Env) ReplicationRands(n int) []*rand.Rand {
	out := make([]*rand.Rand, n)
	for i, s := range e.Seeds(n) {
		out[i] = rand.New(rand.NewPCG(s, replicationStream))
	}
	return out
}

// replicationStream is the PCG stream of every replication generator
// (the SplitMix64 increment): any fixed odd constant would do.
const replicationStream = 0x9e3779b97f4a7c15

// Replicated collects named samples, one per replication, and records
// each as MetricCI in the order the names were first added.
type Replicated struct {
	names   []string
	samples map[string][]float64
}

// Add appends v to the samples of name.
func (r *Replicated) Add(name string, v float64) {
	if r.samples == nil {
		r.samples = map[string][]float64{}
	}
	if _, ok := r.samples[name]; !ok {
		r.names = append(r.names, name)
	}
	r.samples[name] = append(r.samples[name], v)
}

// Samples returns the samples of name, in replication order.
func (r *Replicated) Samples(name string) []float64 { return slices.Clone(r.samples[name]) }

// Record records every name's samples on res (Result.MetricCI).
func (r *Replicated) Record(res *Result) {
	for _, n := range r.names {
		res.MetricCI(n, r.samples[n])
	}
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

// MetricInterval records name as v, and name.ci95_lo and name.ci95_hi as
// lo and hi: a 95% interval computed by the kind (golden interval checks
// judge it; they fail one that does not contain v).
func (r *Result) MetricInterval(name string, v, lo, hi float64) {
	r.Metrics[name] = v
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

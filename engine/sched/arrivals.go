package sched

import (
	"math"
	"math/rand/v2"
)

// poisson generates the mascots18 synthetic arrival stream (§V-B):
// exponential inter-arrival times with rate lambda (jobs/s), a job type drawn
// by weight (uniform by default), and a size of E·|D| examples with E ~
// Gaussian(Epochs, EpochsVariance) truncated to E ≥ 1 (CATALOGUE M-6: the
// variance is taken literally, σ = √variance; epochs are not rounded, so a
// job may end mid-epoch). Per arrival it draws, in this order: the
// inter-arrival time, the type, the epochs.
type poisson struct {
	rng    *rand.Rand
	lambda float64
	t      float64
	cum    []float64
	types  []JobType
}

func newPoisson(rng *rand.Rand, lambda float64, wl Workload) *poisson {
	p := &poisson{rng: rng, lambda: lambda, types: wl.Types}
	s := 0.0
	for _, q := range wl.probabilities() {
		s += q
		p.cum = append(p.cum, s)
	}
	return p
}

func (p *poisson) next() Arrival {
	p.t += p.rng.ExpFloat64() / p.lambda
	u := p.rng.Float64()
	typ := len(p.cum) - 1
	for k, c := range p.cum {
		if u < c {
			typ = k
			break
		}
	}
	t := p.types[typ]
	e := t.Epochs
	if t.EpochsVariance > 0 {
		e += math.Sqrt(t.EpochsVariance) * p.rng.NormFloat64()
	}
	return Arrival{Time: p.t, Type: typ, Examples: math.Max(e, 1) * t.Examples}
}

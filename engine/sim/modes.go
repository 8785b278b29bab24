package sim

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// OperatingMode is one operating mode of an Estimate: the replications
// that settled in it.
type OperatingMode struct {
	Throughput float64 // mean of its replications, examples/s
	// Lo and Hi bound the 95% interval of its mean (Student's t over its
	// replications), examples/s; ±Inf with one replication.
	Lo, Hi float64
	// Frequency is the fraction of the replications in it, and
	// FrequencyLo, FrequencyHi its 95% Wilson score interval.
	Frequency, FrequencyLo, FrequencyHi float64
	// Replications is the number of replications in it.
	Replications int
}

// BimodalityThreshold is the bimodality coefficient of a uniform
// distribution; a larger one suggests two modes.
const BimodalityThreshold = 5.0 / 9

// modes fills e.Bimodality and e.Modes from e.Samples; modes closer than
// 2·target (relative) are one.
func (e *Estimate) modes(target float64) {
	e.Bimodality, e.Modes = 0, nil
	n := float64(len(e.Samples))
	if n < 4 || stat.StdDev(e.Samples, nil) == 0 {
		return
	}
	g, k := stat.Skew(e.Samples, nil), stat.ExKurtosis(e.Samples, nil)
	e.Bimodality = (g*g + 1) / (k + 3*(n-1)*(n-1)/((n-2)*(n-3)))
	if e.Bimodality <= BimodalityThreshold {
		return
	}
	s := slices.Clone(e.Samples)
	slices.Sort(s)
	cut := 1
	for i := 2; i < len(s); i++ {
		if s[i]-s[i-1] > s[cut]-s[cut-1] {
			cut = i
		}
	}
	if stat.Mean(s[cut:], nil)-stat.Mean(s[:cut], nil) <= 2*target*e.Throughput {
		return
	}
	e.Modes = []OperatingMode{operatingMode(s[:cut], len(s)), operatingMode(s[cut:], len(s))}
}

// operatingMode summarizes the samples of one mode out of n replications.
func operatingMode(samples []float64, n int) OperatingMode {
	m := OperatingMode{Throughput: stat.Mean(samples, nil), Lo: math.Inf(-1), Hi: math.Inf(1), Replications: len(samples)}
	if k := float64(len(samples)); k > 1 {
		h := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: k - 1}.Quantile(0.975) * stat.StdDev(samples, nil) / math.Sqrt(k)
		m.Lo, m.Hi = m.Throughput-h, m.Throughput+h
	}
	m.Frequency = float64(len(samples)) / float64(n)
	m.FrequencyLo, m.FrequencyHi = Wilson(len(samples), n)
	return m
}

// Wilson is the 95% Wilson score interval of a proportion of k in n
// (Wilson, JASA 1927; Brown, Cai, DasGupta, Statist. Sci. 2001): the
// interval of an operating mode's frequency, here over replications and
// for the testbed's runs (experiments judge both with it).
func Wilson(k, n int) (lo, hi float64) {
	const z = 1.959963984540054
	p, nf := float64(k)/float64(n), float64(n)
	d := 1 + z*z/nf
	c := (p + z*z/(2*nf)) / d
	h := z * math.Sqrt(p*(1-p)/nf+z*z/(4*nf*nf)) / d
	return max(c-h, 0), min(c+h, 1)
}

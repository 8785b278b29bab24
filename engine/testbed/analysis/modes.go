package analysis

import (
	"math"
	"math/cmplx"
	"math/rand/v2"
	"slices"
	"sort"
	"sync"

	"gonum.org/v1/gonum/stat"
)

// BimodalityThreshold is the bimodality coefficient of a uniform
// distribution (5/9); a larger one suggests more than one mode (engine/sim's
// BimodalityThreshold).
const BimodalityThreshold = 5.0 / 9

// MinModeRuns is the fewest runs Modes tests (the bimodality coefficient
// needs n ≥ 4, and so does a gap test with a spread on both sides).
const MinModeRuns = 4

// Bimodality is the sample bimodality coefficient of xs,
// BC = (g² + 1)/(k + 3(n−1)²/((n−2)(n−3))), g the sample skewness and k
// the sample excess kurtosis (SAS Institute; Pfister et al., Front.
// Psychol. 2013); 0 when n < MinModeRuns or the values do not vary.
func Bimodality(xs []float64) float64 {
	n := float64(len(xs))
	if len(xs) < MinModeRuns || stat.StdDev(xs, nil) == 0 {
		return 0
	}
	g, k := stat.Skew(xs, nil), stat.ExKurtosis(xs, nil)
	return (g*g + 1) / (k + 3*(n-1)*(n-1)/((n-2)*(n-3)))
}

// Mode is one operating mode of a point: the runs on one side of the
// split Modes found.
type Mode struct {
	// Mean is the mean of its runs' values (examples/s).
	Mean float64
	// Frequency is the share of the point's runs in it (0..1).
	Frequency float64
	// Runs are the indices of its runs in the values given to Modes, in
	// increasing order.
	Runs []int
}

// GapAlpha is the significance level of the gap test of Modes.
const GapAlpha = 0.05

// gapDraws is the number of normal samples GapQuantile draws per n.
const gapDraws = 20000

// gapQuantiles caches GapQuantile by n.
var gapQuantiles sync.Map

// GapStatistic splits the sorted values xs at the largest gap between
// neighbours and returns the gap over the pooled standard deviation
// within the two groups (√(Σ squared deviations from each group's
// mean/(n−2))), and the index in sorted order where the upper group
// starts. It is +Inf when the groups do not vary and the gap is not 0,
// and 0 for fewer than 3 values.
func GapStatistic(xs []float64) (g float64, cut int) {
	if len(xs) < 3 {
		return 0, 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	cut = 1
	for i := 2; i < len(s); i++ {
		if s[i]-s[i-1] > s[cut]-s[cut-1] {
			cut = i
		}
	}
	ss := 0.0
	for _, part := range [][]float64{s[:cut], s[cut:]} {
		m := stat.Mean(part, nil)
		for _, x := range part {
			ss += (x - m) * (x - m)
		}
	}
	gap := s[cut] - s[cut-1]
	w := math.Sqrt(ss / float64(len(s)-2))
	switch {
	case gap == 0:
		return 0, cut
	case w == 0:
		return math.Inf(1), cut
	}
	return gap / w, cut
}

// GapQuantile is the 1−GapAlpha quantile of GapStatistic for n
// independent normal values (scale-free, so one distribution per n),
// estimated from gapDraws samples of a PCG generator seeded with n, so
// it is the same number on every machine and run; cached. It panics if
// n < 4.
func GapQuantile(n int) float64 {
	if n < MinModeRuns {
		panic("analysis: GapQuantile needs n ≥ 4")
	}
	if q, ok := gapQuantiles.Load(n); ok {
		return q.(float64)
	}
	r := rand.New(rand.NewPCG(1, uint64(n)))
	gs := make([]float64, gapDraws)
	xs := make([]float64, n)
	for d := range gs {
		for i := range xs {
			xs[i] = r.NormFloat64()
		}
		gs[d], _ = GapStatistic(xs)
	}
	slices.Sort(gs)
	q := gs[int(math.Ceil((1-GapAlpha)*gapDraws))-1]
	gapQuantiles.Store(n, q)
	return q
}

// Modes tests a point's run values xs for operating modes. engine/sim
// tests its replications with the bimodality coefficient alone, but with
// the 3 to 15 runs of a testbed point the coefficient cannot flag even
// two perfectly separated clusters (10 runs split 5/5 give 0.566, 7 runs
// split 4/3 give 0.44 < 5/9), so here it is reported (bc) and the test is
// a gap test: the values are split at the largest gap between sorted
// neighbours (as engine/sim splits them), and the two groups are modes
// when that gap, over the pooled spread within the groups
// (GapStatistic), exceeds what n normal values give with probability
// GapAlpha (GapQuantile), and their means differ by more than
// 2·target·mean(xs) (the width of the interval the precision target
// allows, engine/sim's rule). It returns the modes low first, nil when
// there is one mode or fewer than MinModeRuns values.
func Modes(xs []float64, target float64) (bc float64, modes []Mode) {
	bc = Bimodality(xs)
	if len(xs) < MinModeRuns {
		return bc, nil
	}
	g, cut := GapStatistic(xs)
	if !(g > GapQuantile(len(xs))) {
		return bc, nil
	}
	idx := make([]int, len(xs))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return xs[idx[a]] < xs[idx[b]] })
	group := func(ix []int) Mode {
		m := Mode{Runs: slices.Clone(ix), Frequency: float64(len(ix)) / float64(len(xs))}
		slices.Sort(m.Runs)
		for _, i := range ix {
			m.Mean += xs[i]
		}
		m.Mean /= float64(len(ix))
		return m
	}
	lo, hi := group(idx[:cut]), group(idx[cut:])
	if hi.Mean-lo.Mean <= 2*target*stat.Mean(xs, nil) {
		return bc, nil
	}
	return bc, []Mode{lo, hi}
}

// Synchrony is the signature of a run's operating mode: how close
// together the workers start their steps. At every step start t of worker
// 0 among its last `last` steps, each worker w has a phase
// φ_w = (t − its latest step start ≤ t)/(its step length there), worker
// 0's phase being 0, and the synchrony there is the mean resultant length
// |Σ_w exp(2πi·φ_w)|/W of the phases (Kuramoto's order parameter); the
// run's synchrony is its mean over those instants. 1: the workers start
// their steps together (lockstep); near 0: they are spread evenly over
// the step (interleaved). The circular spread of step starts is
// √(−2·ln R)/(2π) steps. One worker: 1. Instants at which a worker has
// not started or has ended are left out; NaN if none is left.
func Synchrony(workers []StepTimes, last int) float64 {
	if len(workers) <= 1 {
		return 1
	}
	ref := workers[0].Start
	sum, n := 0.0, 0
	for j := max(0, len(ref)-last); j < len(ref); j++ {
		t := ref[j]
		var z complex128
		ok := true
		for _, w := range workers {
			st := w.Start
			k := sort.Search(len(st), func(i int) bool { return st[i] > t }) - 1
			if k < 0 || k >= len(w.End) || t >= w.End[k] && k == len(st)-1 {
				ok = false
				break
			}
			next := w.End[k]
			if k+1 < len(st) {
				next = st[k+1]
			}
			if next <= st[k] {
				ok = false
				break
			}
			phi := float64(t-st[k]) / float64(next-st[k])
			z += cmplx.Exp(complex(0, 2*math.Pi*phi))
		}
		if ok {
			sum += cmplx.Abs(z) / float64(len(workers))
			n++
		}
	}
	if n == 0 {
		return math.NaN()
	}
	return sum / float64(n)
}

// StartSpread is the spread of the workers' first step starts (s): the
// latest less the earliest, a candidate for what selects a run's mode
// (the order in which the workers start). 0 for one worker.
func StartSpread(workers []StepTimes) float64 {
	lo, hi := int64(math.MaxInt64), int64(math.MinInt64)
	for _, w := range workers {
		if len(w.Start) == 0 {
			continue
		}
		lo, hi = min(lo, w.Start[0]), max(hi, w.Start[0])
	}
	if hi < lo {
		return 0
	}
	return float64(hi-lo) / 1e9
}

package testbed

import (
	"fmt"
	"math"
	"sort"
)

// StepTimes are the start and end of every step of one worker (unix ns on
// one clock).
type StepTimes struct {
	Start, End []int64
}

// Throughput returns the time-averaged throughput of one run, in
// examples/s, over the last `last` of the workers' steps (icpe20 §4.1: the
// measurement reference is "the time-average over the last 50 SGD steps
// out of 100"; CATALOGUE I-16 decision):
//
//   - every worker ran the same number n of steps;
//
//   - the window starts when the slowest worker ends step n−last (or, if
//     last = n, when the last worker starts) and ends when the first
//     worker ends its last step, so that all workers run in the whole
//     window and none is warming up or alone at the end;
//
//   - N_w(t), the steps worker w completed by t, is interpolated linearly
//     between its step ends, and
//
//     throughput = batch · Σ_w (N_w(end) − N_w(begin)) / (end − begin).
//
// With one worker this is batch·last/(end of step n − end of step n−last).
func Throughput(workers []StepTimes, batch, last int) (float64, error) {
	if len(workers) == 0 {
		return 0, fmt.Errorf("testbed: throughput: no workers")
	}
	if batch <= 0 {
		return 0, fmt.Errorf("testbed: throughput: batch %d, need > 0", batch)
	}
	n := len(workers[0].End)
	if last < 1 || last > n {
		return 0, fmt.Errorf("testbed: throughput: average over %d of %d steps", last, n)
	}
	var begin, end int64 = math.MinInt64, math.MaxInt64
	for w, st := range workers {
		if len(st.End) != n || len(st.Start) != n {
			return 0, fmt.Errorf("testbed: throughput: worker %d has %d/%d step times, worker 0 has %d", w, len(st.Start), len(st.End), n)
		}
		if !sort.SliceIsSorted(st.End, func(i, j int) bool { return st.End[i] < st.End[j] }) {
			return 0, fmt.Errorf("testbed: throughput: worker %d step ends are not increasing", w)
		}
		b := st.Start[0]
		if last < n {
			b = st.End[n-last-1]
		}
		begin, end = max(begin, b), min(end, st.End[n-1])
	}
	if end <= begin {
		return 0, fmt.Errorf("testbed: throughput: workers do not overlap in their last %d steps (window %d..%d ns)", last, begin, end)
	}
	var steps float64
	for _, st := range workers {
		steps += completed(st, end) - completed(st, begin)
	}
	return float64(batch) * steps / (float64(end-begin) / 1e9), nil
}

// completed returns the steps worker st completed by time t, linearly
// interpolated between step ends (from the first step's start).
func completed(st StepTimes, t int64) float64 {
	prev, count := st.Start[0], 0.0
	if t <= prev {
		return 0
	}
	for _, e := range st.End {
		if t <= e {
			if e == prev {
				return count
			}
			return count + float64(t-prev)/float64(e-prev)
		}
		prev, count = e, count+1
	}
	return count
}

// MeanStd returns the mean and the sample standard deviation (n−1) of xs;
// the deviation of a single value is 0.
func MeanStd(xs []float64) (mean, std float64) {
	if len(xs) == 0 {
		return 0, 0
	}
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	if len(xs) == 1 {
		return mean, 0
	}
	var ss float64
	for _, x := range xs {
		ss += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(ss / float64(len(xs)-1))
}

package analysis

import (
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// StepTimes are the start and end of every step of one worker (unix ns on
// one clock).
type StepTimes struct {
	Start, End []int64
}

// Throughput returns the time-averaged throughput of one run, in
// examples/s, over the last `last` of the workers' steps (icpe20 §4.1: the
// measurement reference is "the time-average over the last 50 SGD steps
// out of 100"; CATALOGUE I-16 decision). Every worker ran the same number
// n of steps. The step ends of all workers are pooled and sorted, e_1 ≤ …
// ≤ e_{W·n}; the first W·(n−last) of them are the warm-up, so
//
//	begin = e_{W·(n−last)}   (the first step's earliest start if last = n)
//	end   = the first instant a worker ends its last step, or, if that is
//	        not after begin (a worker finished while others were still
//	        warming up: ASP workers can drift that far apart), e_{W·n}
//	throughput = batch · #{step ends in (begin, end]} / (end − begin).
//
// Ending when the first worker is done keeps the window free of the tail
// in which fewer workers compete. begin and end are step ends themselves,
// so the count has no rounding bias. With one worker this is
// batch·last/(end of step n − end of step n−last).
func Throughput(workers []StepTimes, batch, last int) (float64, error) {
	w, err := averagingWindow(workers, batch, last)
	if err != nil {
		return 0, err
	}
	return float64(batch) * float64(len(w.ends)) / (float64(w.end-w.begin) / 1e9), nil
}

// window is the averaging window of one run (Throughput): the pooled step
// ends in (begin, end] (unix ns), in order.
type window struct {
	begin, end int64
	ends       []int64
}

// averagingWindow is the window Throughput averages over.
func averagingWindow(workers []StepTimes, batch, last int) (window, error) {
	if len(workers) == 0 {
		return window{}, fmt.Errorf("testbed: throughput: no workers")
	}
	if batch <= 0 {
		return window{}, fmt.Errorf("testbed: throughput: batch %d, need > 0", batch)
	}
	n := len(workers[0].End)
	if last < 1 || last > n {
		return window{}, fmt.Errorf("testbed: throughput: average over %d of %d steps", last, n)
	}
	var ends []int64
	first, firstDone := int64(math.MaxInt64), int64(math.MaxInt64)
	for w, st := range workers {
		if len(st.End) != n || len(st.Start) != n {
			return window{}, fmt.Errorf("testbed: throughput: worker %d has %d/%d step times, worker 0 has %d", w, len(st.Start), len(st.End), n)
		}
		if !slices.IsSorted(st.End) {
			return window{}, fmt.Errorf("testbed: throughput: worker %d step ends are not increasing", w)
		}
		ends = append(ends, st.End...)
		first, firstDone = min(first, st.Start[0]), min(firstDone, st.End[n-1])
	}
	slices.Sort(ends)
	warm := len(workers) * (n - last)
	begin := first
	if warm > 0 {
		begin = ends[warm-1]
	}
	end := firstDone
	if end <= begin {
		end = ends[len(ends)-1]
	}
	if end <= begin {
		return window{}, fmt.Errorf("testbed: throughput: empty averaging window (%d..%d ns)", begin, end)
	}
	count := 0
	for _, e := range ends {
		if e <= end {
			count++
		}
	}
	return window{begin: begin, end: end, ends: ends[warm:count]}, nil
}

// BatchCI returns the relative half-width of the 95% confidence interval
// of a throughput point by batch means: the averaging window of each
// repetition (Throughput) is cut into k batches of consecutive step ends
// (fewer if it holds fewer than k)
// (equal counts, each batch from the previous batch's last end to its
// own, so no batch has a rounding bias), each batch's throughput is
// batch·count/duration, and over the n = k·repetitions batch throughputs
// x the interval is t(0.975, n−1)·sd(x)/(mean(x)·√n). Unlike a CI over
// step durations it does not count the legitimate spread of asynchronous
// workers' steps against a steady aggregate rate.
func BatchCI(runs [][]StepTimes, batch, last, k int) (float64, error) {
	var x []float64
	for r, workers := range runs {
		w, err := averagingWindow(workers, batch, last)
		if err != nil {
			return 0, err
		}
		m := len(w.ends)
		nb := min(k, m) // a short window gives fewer batches
		prev := w.begin
		for j := range nb {
			lo, hi := j*m/nb, (j+1)*m/nb
			t := w.ends[hi-1]
			if t <= prev {
				return 0, fmt.Errorf("testbed: batch CI: repetition %d batch %d has zero duration", r, j)
			}
			x = append(x, float64(batch)*float64(hi-lo)/(float64(t-prev)/1e9))
			prev = t
		}
	}
	if len(x) < 2 {
		return math.Inf(1), nil // no spread to estimate
	}
	mean, sd := stat.MeanStdDev(x, nil)
	q := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(len(x) - 1)}.Quantile(0.975)
	return q * sd / (mean * math.Sqrt(float64(len(x)))), nil
}

// MeanStd returns the mean and the sample standard deviation (n−1) of xs
// (gonum stat.MeanStdDev); the deviation of a single value is 0.
func MeanStd(xs []float64) (mean, std float64) {
	switch len(xs) {
	case 0:
		return 0, 0
	case 1:
		return xs[0], 0
	}
	return stat.MeanStdDev(xs, nil)
}

package analysis

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/stat"
)

// z95 is the two-sided 95% quantile of the standard normal distribution.
const z95 = 1.959964

// StepsForCI is the number of independent step times whose mean has a 95%
// confidence interval within ±ci (relative) when their coefficient of
// variation is cv: ⌈(z·cv/ci)²⌉.
func StepsForCI(cv, ci float64) int {
	return int(math.Ceil(math.Pow(z95*cv/ci, 2)))
}

// StepCI returns the relative half-width of the 95% confidence interval
// of a throughput point from the step times in its averaging windows:
// z·CV/√N over the N = repetitions·W·average step durations, and the CV.
// runs holds the step times of every worker of each repetition, as
// BatchCI takes them.
func StepCI(runs [][]StepTimes, last int) (ci, cv float64) {
	var d []float64
	for _, workers := range runs {
		for _, st := range workers {
			n := len(st.End)
			for s := max(0, n-last); s < n; s++ {
				d = append(d, float64(st.End[s]-st.Start[s]))
			}
		}
	}
	if len(d) < 2 {
		return math.Inf(1), math.NaN()
	}
	mean, std := stat.MeanStdDev(d, nil)
	cv = std / mean
	return z95 * cv / math.Sqrt(float64(len(d))), cv
}

// MedianStep is the median step duration of st after skip warm-up steps
// (s).
func MedianStep(st StepTimes, skip int) float64 {
	var d []float64
	for s := min(skip, len(st.End)-1); s < len(st.End); s++ {
		d = append(d, float64(st.End[s]-st.Start[s])/1e9)
	}
	slices.Sort(d)
	if n := len(d); n%2 == 0 {
		return (d[n/2-1] + d[n/2]) / 2
	}
	return d[len(d)/2]
}

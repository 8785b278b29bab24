package measured

import "math"

// RelError is a model's signed relative error (pred − meas)/meas against a
// measurement, with its approximate 95% interval [Lo, Hi].
type RelError struct{ E, Lo, Hi float64 }

// NewRelError is the relative error of pred against meas (> 0), two
// independent estimates with relative 95% half-widths hp and hm (0 when
// exact or unknown; NaN counts as 0). Their ratio r = pred/meas has the relative
// half-width h = √(hp² + hm²) to first order, so the error lies in
// [r(1 − h) − 1, r(1 + h) − 1].
func NewRelError(pred, meas, hp, hm float64) RelError {
	r, e := pred/meas, (pred-meas)/meas
	h := math.Hypot(orZero(hp), orZero(hm))
	if !(h > 0) {
		return RelError{E: e, Lo: e, Hi: e}
	}
	return RelError{E: e, Lo: min(e, r*(1-h)-1), Hi: max(e, r*(1+h)-1)}
}

// Abs is |E| and the interval of |E|: [0, max] when the interval of E
// contains 0.
func (ri RelError) Abs() (e, lo, hi float64) {
	e, lo, hi = math.Abs(ri.E), math.Abs(ri.Lo), math.Abs(ri.Hi)
	if ri.Lo <= 0 && ri.Hi >= 0 {
		return e, 0, math.Max(lo, hi)
	}
	return e, math.Min(lo, hi), math.Max(lo, hi)
}

// orZero is v, or 0 when v is NaN.
func orZero(v float64) float64 {
	if math.IsNaN(v) {
		return 0
	}
	return v
}

// AbsErrors accumulates a model's |relative errors| against several
// measurements with their 95% intervals (RelError.Abs). The mean's
// interval is the mean of the points' interval ends and the largest's the
// largest of each end: every point at its worst together, so
// conservative. The zero value is empty.
type AbsErrors struct {
	// N is the number of errors added.
	N int
	// Max is the largest |error|, [MaxLo, MaxHi] its interval.
	Max, MaxLo, MaxHi float64
	// Interval reports whether any error had an interval wider than its
	// value.
	Interval bool

	sum, lo, hi float64
}

// Add adds one error.
func (a *AbsErrors) Add(re RelError) {
	e, lo, hi := re.Abs()
	a.Interval = a.Interval || lo < e || hi > e
	a.sum, a.lo, a.hi = a.sum+e, a.lo+lo, a.hi+hi
	a.Max, a.MaxLo, a.MaxHi = math.Max(a.Max, e), math.Max(a.MaxLo, lo), math.Max(a.MaxHi, hi)
	a.N++
}

// Mean is the mean |error| and its interval; zeros when empty.
func (a AbsErrors) Mean() (mean, lo, hi float64) {
	if a.N == 0 {
		return 0, 0, 0
	}
	n := float64(a.N)
	return a.sum / n, a.lo / n, a.hi / n
}

// Scaled is re with every value multiplied by k (e.g. 100 for percent);
// its Abs is k times re's.
func (re RelError) Scaled(k float64) RelError {
	return RelError{E: k * re.E, Lo: k * re.Lo, Hi: k * re.Hi}
}

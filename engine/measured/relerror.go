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

package sim

import (
	"errors"
	"fmt"
)

// FitOverhead fits the parsing-overhead model of icpe20 §3.2.1 (Fig. 10),
// overhead = alpha·size + beta, to measured points by least squares.
// sizes are in bytes, overheads in seconds; alpha is returned in seconds per
// byte and beta in seconds.
//
// The fit is constrained to alpha ≥ 0 and beta ≥ 0 (an overhead cannot
// shrink with size or be negative): when the ordinary least-squares line has
// a negative coefficient, FitOverhead returns the best fit on the boundary
// (the better of the line through the origin and the constant line, each
// clamped at zero), which is the exact constrained optimum for two
// coefficients. It returns an error for fewer than 2 points, slices of
// different lengths, NaN or infinite values, a negative size, and sizes that
// are all equal (the slope is undetermined).
func FitOverhead(sizes []float64, overheads []float64) (alpha, beta float64, err error) {
	if len(sizes) != len(overheads) {
		return 0, 0, fmt.Errorf("sim: FitOverhead: %d sizes but %d overheads", len(sizes), len(overheads))
	}
	if len(sizes) < 2 {
		return 0, 0, fmt.Errorf("sim: FitOverhead: %d points; need at least 2", len(sizes))
	}
	n := float64(len(sizes))
	var mx, my float64
	for i, x := range sizes {
		y := overheads[i]
		if !finite(x) || x < 0 {
			return 0, 0, fmt.Errorf("sim: FitOverhead: sizes[%d] = %g bytes; want finite and ≥ 0", i, x)
		}
		if !finite(y) {
			return 0, 0, fmt.Errorf("sim: FitOverhead: overheads[%d] = %g s; want finite", i, y)
		}
		mx += x
		my += y
	}
	mx /= n
	my /= n
	var sxx, sxy, xx, xy float64
	for i, x := range sizes {
		y := overheads[i]
		sxx += (x - mx) * (x - mx)
		sxy += (x - mx) * (y - my)
		xx += x * x
		xy += x * y
	}
	if sxx == 0 {
		return 0, 0, errors.New("sim: FitOverhead: all sizes are equal; the slope alpha is undetermined")
	}
	alpha = sxy / sxx
	beta = my - alpha*mx
	if alpha >= 0 && beta >= 0 {
		return alpha, beta, nil
	}
	sse := func(a, b float64) float64 {
		s := 0.0
		for i, x := range sizes {
			r := overheads[i] - a*x - b
			s += r * r
		}
		return s
	}
	a0 := max(xy/xx, 0) // beta = 0
	b0 := max(my, 0)    // alpha = 0
	if sse(a0, 0) <= sse(0, b0) {
		return a0, 0, nil
	}
	return 0, b0, nil
}

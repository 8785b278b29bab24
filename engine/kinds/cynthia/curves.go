package cynthia

import (
	"fmt"
	"math"
	"strconv"
)

// curveTol is the relative tolerance of the shape tests: a step smaller
// than curveTol·|y| counts as flat (float noise of equal predictions).
const curveTol = 1e-9

// curveShape summarizes a curve y(x) sampled at increasing x.
type curveShape struct {
	// ArgMin is the x of the smallest y (the first one on ties).
	ArgMin float64
	// NonIncreasing: no step goes up by more than curveTol (relative).
	NonIncreasing bool
	// NonDecreasing: no step goes down by more than curveTol (relative).
	NonDecreasing bool
	// UShaped: the minimum is at an interior point and both ends are
	// higher than it (by more than curveTol).
	UShaped bool
	// Spread is (max − min)/min, dimensionless; 0 for a flat curve.
	Spread float64
}

// shapeOf computes the shape of the curve ys over xs (same length, at
// least one point, x increasing, y > 0 for a meaningful Spread).
func shapeOf(xs, ys []float64) curveShape {
	if len(xs) != len(ys) || len(ys) == 0 {
		panic(fmt.Sprintf("kinds: shapeOf with %d x and %d y values", len(xs), len(ys)))
	}
	s := curveShape{NonIncreasing: true, NonDecreasing: true}
	lo, hi, imin := ys[0], ys[0], 0
	for i := 1; i < len(ys); i++ {
		d := ys[i] - ys[i-1]
		tol := curveTol * math.Max(math.Abs(ys[i]), math.Abs(ys[i-1]))
		if d > tol {
			s.NonIncreasing = false
		}
		if d < -tol {
			s.NonDecreasing = false
		}
		if ys[i] < lo {
			lo, imin = ys[i], i
		}
		hi = math.Max(hi, ys[i])
	}
	s.ArgMin = xs[imin]
	higher := func(y float64) bool { return y-lo > curveTol*math.Abs(lo) }
	s.UShaped = imin > 0 && imin < len(ys)-1 && higher(ys[0]) && higher(ys[len(ys)-1])
	if lo != 0 {
		s.Spread = (hi - lo) / math.Abs(lo)
	}
	return s
}

// oneIf is 1 for true and 0 for false, for metrics.
func oneIf(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// xKey formats a swept value for a metric name: "x4", "x0.5".
func xKey(x float64) string { return "x" + strconv.FormatFloat(x, 'g', -1, 64) }

// curve is one computed series: its points in sweep order.
type curve struct {
	xs, ys []float64
}

func (c curve) at(x float64) (float64, bool) {
	for i, v := range c.xs {
		if v == x {
			return c.ys[i], true
		}
	}
	return 0, false
}

// ratioStats compares curve a with curve b at their common x in [from, to]
// (to = 0: no upper end): the largest and smallest relative excess
// (a/b − 1)·100 in percent and where the largest occurs. ok is false when
// no common x exists or b is 0 at one.
func ratioStats(a, b curve, from, to float64) (maxPct, argMax, minPct float64, ok bool) {
	maxPct, minPct = math.Inf(-1), math.Inf(1)
	for i, x := range a.xs {
		if x < from || (to > 0 && x > to) {
			continue
		}
		yb, found := b.at(x)
		if !found || yb == 0 {
			continue
		}
		p := (a.ys[i]/yb - 1) * 100
		if p > maxPct {
			maxPct, argMax = p, x
		}
		minPct = math.Min(minPct, p)
		ok = true
	}
	return maxPct, argMax, minPct, ok
}

package cynthia

import (
	"fmt"
	"math"
)

// maxIterations bounds iteration counts so they fit an int and a float64
// exactly; larger values are reported as errors.
const maxIterations = 1 << 50

// Loss is the fitted training-loss model of Eq. (1):
//
//	BSP: f(s, n) = β0 / (s + β1)
//	ASP: f(s, n) = β0·√n / (s + β1)
//
// with s the total number of iterations and n the number of workers. The
// paper gives no fitted values (C-10).
type Loss struct {
	// Beta0 is β0 (loss units × iterations). Must be > 0.
	Beta0 float64
	// Beta1 is β1 in iterations. Must be >= 0 (the ASP reduction behind
	// Eq. 21 needs β1 >= 0). The paper notes β0 > β1 "in general".
	Beta1 float64
}

// Validate reports the first invalid field of l.
func (l Loss) Validate() error { return prefixed(l.check()) }

func (l Loss) check() error {
	if err := checkPositive("loss", "", "Beta0", l.Beta0); err != nil {
		return err
	}
	return checkNonNegative("loss", "", "Beta1", l.Beta1)
}

// Value is f_loss(s, n) of Eq. (1) for s >= 0 total iterations and n >= 1
// workers (n is ignored for BSP). The result is in the loss's units.
func (l Loss) Value(sync Sync, s float64, n int) (float64, error) {
	if err := l.check(); err != nil {
		return 0, prefixed(err)
	}
	if err := checkNonNegative("loss", "", "s", s); err != nil {
		return 0, prefixed(err)
	}
	if s+l.Beta1 <= 0 {
		return 0, fmt.Errorf("cynthia: loss: s + Beta1 must be > 0, got %g", s+l.Beta1)
	}
	switch sync {
	case BSP:
		return l.Beta0 / (s + l.Beta1), nil
	case ASP:
		if n < 1 {
			return 0, fmt.Errorf("cynthia: loss: workers must be >= 1, got %d", n)
		}
		return l.Beta0 * math.Sqrt(float64(n)) / (s + l.Beta1), nil
	}
	return 0, fmt.Errorf("cynthia: loss: Sync must be BSP or ASP, got %v", sync)
}

// Iterations is the s that reaches the loss goal (a loss value > 0):
//
//	BSP, Eq. (15): s = ⌈β0/goal − β1⌉, the global iterations (n ignored);
//	ASP, Eq. (20): s = ⌈β0/(goal·√n) − β1/n⌉, the iterations per worker.
//
// The result is at least 1 (s ∈ ℤ⁺ in Eq. 8–10): a goal already met at
// s = 0 still needs one iteration. The ceiling ignores a relative excess of
// 1e-9 over an integer, so rounding noise such as 8/0.8 = 10.000000000000002
// does not add an iteration.
func (l Loss) Iterations(sync Sync, goal float64, n int) (int, error) {
	if err := l.check(); err != nil {
		return 0, prefixed(err)
	}
	if err := checkPositive("loss", "", "goal", goal); err != nil {
		return 0, prefixed(err)
	}
	var s float64
	switch sync {
	case BSP:
		s = l.Beta0/goal - l.Beta1
	case ASP:
		if n < 1 {
			return 0, fmt.Errorf("cynthia: loss: workers must be >= 1, got %d", n)
		}
		nf := float64(n)
		s = l.Beta0/(goal*math.Sqrt(nf)) - l.Beta1/nf
	default:
		return 0, fmt.Errorf("cynthia: loss: Sync must be BSP or ASP, got %v", sync)
	}
	c := ceilTol(s)
	if c > maxIterations {
		return 0, fmt.Errorf("cynthia: loss: goal %g needs %g iterations, more than %d", goal, c, maxIterations)
	}
	if c < 1 {
		return 1, nil
	}
	return int(c), nil
}

// ceilTol is math.Ceil that treats x within a relative 1e-9 above an
// integer as that integer.
func ceilTol(x float64) float64 {
	r := math.Round(x)
	if math.Abs(x-r) <= 1e-9*math.Max(1, math.Abs(x)) {
		return r
	}
	return math.Ceil(x)
}

// floorTol is math.Floor that treats x within a relative 1e-9 below an
// integer as that integer.
func floorTol(x float64) float64 {
	r := math.Round(x)
	if math.Abs(x-r) <= 1e-9*math.Max(1, math.Abs(x)) {
		return r
	}
	return math.Floor(x)
}

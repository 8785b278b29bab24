package experiment

import (
	"fmt"
	"math"
	"strconv"
)

// MaxSweepPoints bounds the number of points of a sweep: the length of
// Values, and (To−From)/Step+1 for a range. Parse refuses a sweep with more
// points, naming the key, before anything is allocated or looped over. It
// is the default worker limit (DefaultMaxWorkers), so a step-1 workers sweep
// up to that limit is still one spec; a finer sweep is a mistake (a step of
// 1e-300), not an experiment.
const MaxSweepPoints = 1 << 16

// Sweep is the swept variable: either explicit Values or From..To by Step
// (Step 0: 1). Parse accepts only finite values, Step >= 0, To >= From and
// at most MaxSweepPoints points; Len says why a sweep built otherwise is
// invalid.
type Sweep struct {
	Var    string
	Values []float64
	From   float64
	To     float64
	Step   float64
}

// sweepTol is the tolerance of the range's upper end, in steps: 0.1 + 2·0.1
// must reach To = 0.3.
const sweepTol = 1e-9

// Len returns the number of points of s without computing them, or an
// error naming the sweep key that makes s invalid: a value that is not
// finite, a negative step, To < From, or more than MaxSweepPoints points.
func (s Sweep) Len() (int, error) {
	if _, err := s.validate(); err != nil {
		return 0, err
	}
	n, _, err := s.count()
	return n, err
}

// Points returns the swept values; nil when s is invalid (see Len).
func (s Sweep) Points() []float64 {
	n, err := s.Len()
	if err != nil || n == 0 {
		return nil
	}
	if len(s.Values) > 0 {
		return s.Values
	}
	out := make([]float64, n)
	for i := range out {
		out[i] = s.at(i)
	}
	return out
}

// step is the range's step (0: 1).
func (s Sweep) step() float64 {
	if s.Step == 0 {
		return 1
	}
	return s.Step
}

// at is the i-th point of the range, with the binary error of the
// multiplication rounded away (0.1 + 2·0.1 must be 0.3, as the user wrote
// it).
func (s Sweep) at(i int) float64 {
	x := s.From + float64(i)*s.step()
	x, _ = strconv.ParseFloat(strconv.FormatFloat(x, 'g', 12, 64), 64)
	return x
}

// in reports whether the i-th point of the range is at most To (within
// sweepTol steps), before rounding.
func (s Sweep) in(i int) bool {
	return s.From+float64(i)*s.step() <= s.To+sweepTol*math.Abs(s.step())
}

// validate checks that every value of s is finite, the step is not
// negative and the range not empty. key is the offending key under
// [sweep] ("" for the table).
func (s Sweep) validate() (key string, err error) {
	if len(s.Values) > 0 {
		for i, v := range s.Values {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return "values", fmt.Errorf("sweep.values[%d] = %v: not a finite number", i, v)
			}
		}
		return "", nil
	}
	if s.Var == "" {
		return "", nil
	}
	for _, f := range []struct {
		key string
		v   float64
	}{{"from", s.From}, {"to", s.To}, {"step", s.Step}} {
		if math.IsNaN(f.v) || math.IsInf(f.v, 0) {
			return f.key, fmt.Errorf("sweep.%s = %v: not a finite number", f.key, f.v)
		}
	}
	if s.Step < 0 {
		return "step", fmt.Errorf("sweep.step = %v: must be > 0 (0 or absent: 1)", s.Step)
	}
	if s.To < s.From {
		return "", fmt.Errorf("sweep %q from %v to %v by %v is empty", s.Var, s.From, s.To, s.Step)
	}
	return "", nil
}

// count is the number of points of a valid s, computed from the bounds
// (nothing is allocated), or an error naming the key to change when it
// exceeds MaxSweepPoints.
func (s Sweep) count() (n int, key string, err error) {
	if len(s.Values) > 0 {
		if len(s.Values) > MaxSweepPoints {
			return 0, "values", fmt.Errorf("sweep.values: %d values, at most %d (experiment.MaxSweepPoints)", len(s.Values), MaxSweepPoints)
		}
		return len(s.Values), "", nil
	}
	if s.Var == "" {
		return 0, "", nil
	}
	step := s.step()
	q := math.Floor((s.To-s.From)/step + sweepTol) // may be +Inf
	if q >= MaxSweepPoints {
		key, v := "to", s.To
		if s.Step != 0 {
			key, v = "step", s.Step
		}
		return 0, key, fmt.Errorf("sweep.%s = %v: sweep %q from %v to %v by %v has %s points, at most %d (experiment.MaxSweepPoints); "+
			"use a larger step or a narrower range", key, v, s.Var, s.From, s.To, step, strconv.FormatFloat(q+1, 'g', 6, 64), MaxSweepPoints)
	}
	// q+1 points by the formula; the loop's own test (x <= To within
	// sweepTol steps) decides the last one when rounding disagrees.
	n = int(q) + 1
	if n > 1 && !s.in(n-1) {
		n--
	} else if n < MaxSweepPoints && s.in(n) && s.at(n) > s.at(n-1) {
		n++
	}
	if n > 1 && s.at(1) == s.at(0) {
		key, v := "to", s.To
		if s.Step != 0 {
			key, v = "step", s.Step
		}
		return 0, key, fmt.Errorf("sweep.%s = %v: sweep %q from %v by %v repeats its points (a step below the precision of from)", key, v, s.Var, s.From, step)
	}
	return n, "", nil
}

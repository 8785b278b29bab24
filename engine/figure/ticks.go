package figure

import (
	"math"
	"slices"
	"strconv"

	"gonum.org/v1/plot"
)

// logTicks marks a log axis at 1, 2 and 5 times each power of ten with
// labels (every power of ten alone when the axis spans more than four
// decades) and the other digits without, so that every log axis has
// several labelled values, written as plain numbers; an axis spanning less
// than a decade gets evenly spaced ticks.
type logTicks struct{}

// Ticks returns the ticks between min and max (both > 0).
func (logTicks) Ticks(min, max float64) []plot.Tick {
	if !(min > 0) || !(max > min) {
		return plot.LogTicks{}.Ticks(min, max)
	}
	if max/min < 10 { // less than a decade: evenly spaced values read best
		return niceTicks{step: niceStep(min, max, 7)}.Ticks(min, max)
	}
	lo, hi := int(math.Floor(math.Log10(min))), int(math.Ceil(math.Log10(max)))
	labelled := map[int]bool{1: true, 2: true, 5: true}
	if hi-lo > 4 {
		labelled = map[int]bool{1: true}
	}
	var out []plot.Tick
	for e := lo; e <= hi; e++ {
		p := math.Pow(10, float64(e))
		for d := 1; d <= 9; d++ {
			v := round12(float64(d) * p)
			if v < min*(1-1e-9) || v > max*(1+1e-9) {
				continue
			}
			t := plot.Tick{Value: v}
			if labelled[d] {
				t.Label = strconv.FormatFloat(v, 'g', -1, 64)
			}
			out = append(out, t)
		}
	}
	return out
}

// round12 rounds away the binary error of a decimal product (3·0.1).
func round12(v float64) float64 {
	v, _ = strconv.ParseFloat(strconv.FormatFloat(v, 'g', 12, 64), 64)
	return v
}

// niceStep returns the step among 1, 2, 2.5 and 5 times a power of ten
// that divides [min, max] into the number of intervals closest to want.
func niceStep(min, max float64, want int) float64 {
	span := max - min
	if !(span > 0) || math.IsInf(span, 0) {
		return 1
	}
	best, bestDiff := 0.0, math.Inf(1)
	e := math.Floor(math.Log10(span / float64(want)))
	for _, p := range []float64{e - 1, e, e + 1} {
		for _, m := range []float64{1, 2, 2.5, 5} {
			step := round12(m * math.Pow(10, p))
			n := math.Ceil(max/step-1e-9) - math.Floor(min/step+1e-9)
			if d := math.Abs(n - float64(want)); d < bestDiff {
				best, bestDiff = step, d
			}
		}
	}
	return best
}

// niceTicks marks a linear axis at every multiple of step, labelled with
// as many decimals as the step needs, and half-way between them without
// labels.
type niceTicks struct{ step float64 }

// Ticks returns the ticks between min and max.
func (n niceTicks) Ticks(min, max float64) []plot.Tick {
	if !(n.step > 0) || !(max >= min) || math.IsInf(max-min, 0) {
		return plot.DefaultTicks{}.Ticks(min, max)
	}
	dec := decimals(n.step)
	var out []plot.Tick
	half := n.step / 2
	for k := math.Ceil(min/half - 1e-9); k*half <= max*(1+1e-12)+1e-12 && len(out) < 200; k++ {
		v := round12(k * half)
		if v == 0 {
			v = 0 // not -0, which prints "-0"
		}
		t := plot.Tick{Value: v}
		if int(k)%2 == 0 {
			t.Label = strconv.FormatFloat(v, 'f', dec, 64)
		}
		out = append(out, t)
	}
	return out
}

// decimals is the number of decimals that writes every multiple of step.
func decimals(step float64) int {
	for d := 0; d < 12; d++ {
		p := math.Pow(10, float64(d))
		if math.Abs(step*p-math.Round(step*p)) < 1e-9*p {
			return d
		}
	}
	return 12
}

// valueTicks marks an axis at each of a sweep's values (workers W = 1..7,
// loads 0.1..0.7): every value gets a tick, and labels go on every k-th
// value from the first, k the smallest that keeps labels apart on an axis
// about axisPoints long.
type valueTicks struct {
	values []float64
	log    bool
}

// axisPoints is the approximate length of an x axis in points, and
// charPoints the width of a tick label's character.
const axisPoints, charPoints = 430.0, 5.5

// Ticks returns the values between min and max.
func (v valueTicks) Ticks(min, max float64) []plot.Tick {
	var in []float64
	for _, x := range v.values {
		if x >= min-1e-12*math.Abs(min) && x <= max+1e-12*math.Abs(max) {
			in = append(in, x)
		}
	}
	pos := func(x float64) float64 {
		if v.log {
			return axisPoints * math.Log(x/min) / math.Log(max/min)
		}
		return axisPoints * (x - min) / (max - min)
	}
	labels := make([]string, len(in))
	for i, x := range in {
		labels[i] = strconv.FormatFloat(x, 'g', -1, 64)
	}
	k := 1
	for ; k < len(in); k++ {
		ok := true
		for i := k; i < len(in); i += k {
			w := (float64(len(labels[i-k])) + float64(len(labels[i]))) / 2 * charPoints
			if pos(in[i])-pos(in[i-k]) < w+6 {
				ok = false
				break
			}
		}
		if ok {
			break
		}
	}
	out := make([]plot.Tick, len(in))
	for i, x := range in {
		out[i] = plot.Tick{Value: x}
		if i%k == 0 {
			out[i].Label = labels[i]
		}
	}
	return out
}

// sweepValues returns the distinct x values of the series, sorted, if
// they look like a sweep's: at most maxSweep values, each written with at
// most four significant digits (1..16 workers, 0.05 steps of a rate;
// not the event times of a timeline). Otherwise it returns nil. A series
// of one point (an optimum marked on a curve) is not part of the sweep.
func sweepValues(ser []*series, log bool) []float64 {
	const maxSweep = 24
	var xs []float64
	for _, s := range ser {
		if len(s.x) == 1 && len(ser) > 1 {
			continue
		}
		for _, x := range s.x {
			if !slices.Contains(xs, x) {
				xs = append(xs, x)
			}
		}
	}
	if len(xs) < 2 || len(xs) > maxSweep {
		return nil
	}
	for _, x := range xs {
		if x != round12(x) || len(strconv.FormatFloat(math.Abs(x), 'e', -1, 64)) > len("1.234e+00") || (log && !(x > 0)) {
			return nil
		}
	}
	slices.Sort(xs)
	return xs
}

// categoryTicks labels the positions 0..n-1 of a dot plot's categories.
type categoryTicks []string

// Ticks returns a labelled tick at every category.
func (c categoryTicks) Ticks(min, max float64) []plot.Tick {
	out := make([]plot.Tick, len(c))
	for i, l := range c {
		out[i] = plot.Tick{Value: float64(i), Label: l}
	}
	return out
}

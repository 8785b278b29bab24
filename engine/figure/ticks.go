package figure

import (
	"math"
	"strconv"

	"gonum.org/v1/plot"
)

// logTicks marks a log axis at 1, 2 and 5 times each power of ten with
// labels (every power of ten alone when the axis spans more than four
// decades) and the other digits without, so that every log axis has
// several labelled values, written as plain numbers; an axis spanning less
// than a decade gets gonum's evenly spaced ticks.
type logTicks struct{}

// Ticks returns the ticks between min and max (both > 0).
func (logTicks) Ticks(min, max float64) []plot.Tick {
	if !(min > 0) || !(max > min) {
		return plot.LogTicks{}.Ticks(min, max)
	}
	if max/min < 10 { // less than a decade: evenly spaced values read best
		return plot.DefaultTicks{}.Ticks(min, max)
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
			v := float64(d) * p
			// Round away the binary error of d·10^e (3·0.1).
			v, _ = strconv.ParseFloat(strconv.FormatFloat(v, 'g', 12, 64), 64)
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

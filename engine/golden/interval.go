package golden

import (
	"fmt"
	"math"
)

// Interval checks (Check.Interval) are judged on the 95% interval the
// result records beside the value: holds, misses or inconclusive.

// Verdicts of an Interval check.
const (
	Holds        = "holds"
	Misses       = "misses"
	Inconclusive = "inconclusive"
)

// Verdict judges the interval [lo, hi] against the check: Holds when
// every value in it satisfies the check, Misses when none does,
// Inconclusive otherwise.
func (c *Check) Verdict(lo, hi float64) string {
	if c.Holds(lo) && c.Holds(hi) { // the satisfying set is an interval
		return Holds
	}
	d := c.Allowed()
	var miss bool
	switch c.Op {
	case "le":
		miss = lo > c.Expected+d
	case "ge":
		miss = hi < c.Expected-d
	case "lt":
		miss = lo >= c.Expected
	case "gt":
		miss = hi <= c.Expected
	default:
		miss = hi < c.Expected-d || lo > c.Expected+d
	}
	if miss {
		return Misses
	}
	return Inconclusive
}

// evaluateInterval judges an Interval check on its 95% interval.
func (o *Outcome) evaluateInterval(look Lookup) {
	c := o.Check
	lo, okLo := look(c.Metric+".ci95_lo", "", 0, "")
	hi, okHi := look(c.Metric+".ci95_hi", "", 0, "")
	if !okLo || !okHi || !(lo <= o.Got && o.Got <= hi) {
		o.Message = fmt.Sprintf("%s = %.6g: no 95%% interval around it in the result (%s.ci95_lo, .ci95_hi)", c.Name(), o.Got, c.Metric)
		return
	}
	o.Lo, o.Hi, o.Verdict = lo, hi, c.Verdict(lo, hi)
	name := fmt.Sprintf("%s = %.6g [%.6g, %.6g]", c.Name(), o.Got, lo, hi)
	bound := fmt.Sprintf("%s %.6g ± %.3g", c.Op, c.Expected, c.Allowed())
	switch {
	case o.Verdict == Holds && (c.Deviation != "" || c.Inconclusive != ""):
		o.Message = fmt.Sprintf("%s now holds (%s): remove the recorded deviation or inconclusive", name, bound)
	case o.Verdict == Holds:
		o.Pass = true
		o.Message = fmt.Sprintf("%s holds: %s (%s)", name, bound, c.Source)
	case o.Verdict == Misses && c.Deviation == "":
		o.Message = fmt.Sprintf("%s misses %s (%s): record a deviation", name, bound, c.Source)
	case o.Verdict == Misses:
		o.checkPinned("paper: "+bound, true, look)
	case c.Inconclusive == "":
		o.Message = fmt.Sprintf("%s is inconclusive against %s (%s): record why (inconclusive = …) or narrow the interval", name, bound, c.Source)
	default:
		o.checkPinned("paper: "+bound, false, look)
	}
}

// checkPinned passes a recorded deviation (deviates) or inconclusive check
// whose value is still its pinned one.
func (o *Outcome) checkPinned(claim string, deviates bool, look Lookup) {
	c := o.Check
	reason, err := c.reason(o.Got, look)
	switch {
	case err != nil:
		o.Message = err.Error()
	case c.Pinned == nil:
		o.Message = fmt.Sprintf("%s = %.6g: a deviation or inconclusive check must pin the value the run gets (make update-golden writes pinned = …)", c.Name(), o.Got)
	case math.Abs(o.Got-*c.Pinned) > c.PinnedAllowed():
		o.Message = fmt.Sprintf("%s = %.6g moved from its pinned %.6g ± %.3g: a recorded deviation changed; review it (make update-golden re-pins)", c.Name(), o.Got, *c.Pinned, c.PinnedAllowed())
	case deviates:
		o.Pass, o.Deviates, o.Reason = true, true, reason
		o.Message = fmt.Sprintf("%s = %.6g, %s (deviation: %s)", c.Name(), o.Got, claim, reason)
	default:
		o.Pass, o.Reason = true, reason
		o.Message = fmt.Sprintf("%s = %.6g [%.6g, %.6g], %s (inconclusive: %s)", c.Name(), o.Got, o.Lo, o.Hi, claim, reason)
	}
}

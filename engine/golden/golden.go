// Package golden evaluates an experiment's golden checks:
// golden/<paper>/<name>.toml lists the values an experiment must produce.
//
// A check selects a value (a named metric, or the y of a series at x or at a
// category), compares it with Expected by Op within a tolerance, and says
// where Expected comes from:
//
//   - "paper …": a number or bound printed in a paper (with section);
//   - "derived …": computed by hand or formula from paper inputs;
//   - "regression": the value pslab produced when the check was written.
//
// The tolerance has one definition: Tol is absolute when TolKind is "abs"
// and relative to |Expected| when TolKind is "rel" (default "abs"); the
// allowed distance is d = Tol or Tol·|Expected|. Op "approx" (default)
// passes when |got − expected| ≤ d, "le" when got ≤ expected + d, "ge" when
// got ≥ expected − d, "lt" when got < expected and "gt" when got > expected.
//
// Update rewrites only the Expected values of regression checks; paper and
// derived values are never rewritten. A paper claim the reproduction misses
// is kept as it is and marked with Deviation, the written reason: it is
// then reported instead of failing, and a deviation whose check passes again
// fails, so stale deviations are removed.
package golden

import (
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"

	"pslab/engine/atomicfile"
	"pslab/engine/tomlfile"
)

// Check is one golden check.
type Check struct {
	Metric    string
	Series    string
	X         float64
	Category  string
	Op        string
	Expected  float64
	Tol       float64
	TolKind   string `toml:"tol_kind"`
	Source    string
	Deviation string
	// Interval judges the check on the value's 95% confidence interval,
	// looked up as the metrics <Metric>.ci95_lo and <Metric>.ci95_hi: the
	// claim holds when the whole interval satisfies it, misses (a
	// Deviation is then required) when none of it does, and is
	// inconclusive (Inconclusive is then required) otherwise.
	Interval bool
	// Inconclusive is the recorded reason why an Interval check can
	// neither hold nor miss (its interval straddles the bound).
	Inconclusive string
	// Pinned is, on a deviation or an inconclusive check, the value the run gets (written by
	// Update, like a regression value), so that a deviation that grows
	// fails loudly instead of passing as "still missed".
	Pinned *float64
	// PinnedTol is the allowed distance from Pinned relative to |Pinned|
	// (0 means DefaultPinnedTol): the run's own 95% interval where the
	// value is an estimate, rounding where it is deterministic.
	PinnedTol float64 `toml:"pinned_tol"`
	Note      string
}

// DefaultPinnedTol is Check.PinnedTol when zero: the value of a
// deterministic run (same seed, same bytes) up to rounding.
const DefaultPinnedTol = 1e-6

// File is a golden file.
type File struct {
	Path   string
	Checks []Check `toml:"check"`
}

// Load decodes a golden file strictly and validates every check.
func Load(path string) (*File, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(path, b)
}

// Parse is Load on the content b of the golden file named path.
func Parse(path string, b []byte) (*File, error) {
	var g File
	f, err := tomlfile.DecodeBytes(path, b, &g)
	if err != nil {
		if located := locateDecodeError(path, b); located != nil {
			return nil, located
		}
		return nil, err
	}
	g.Path = path
	if len(g.Checks) == 0 {
		return nil, fmt.Errorf("%s: no [[check]] entries", path)
	}
	lines := newCheckLines(b)
	for i := range g.Checks {
		c := &g.Checks[i]
		// Errors name check i's own [[check]] header line.
		at := checkAt{f: f, line: lines.header(i)}
		if c.Op == "" {
			c.Op = "approx"
		}
		if c.TolKind == "" {
			c.TolKind = "abs"
		}
		switch {
		case (c.Metric == "") == (c.Series == ""):
			return nil, at.Errorf("check %d: set exactly one of metric or series", i)
		case !oneOf(c.Op, "approx", "le", "ge", "lt", "gt"):
			return nil, at.Errorf("check %d: op %q (want approx, le, ge, lt or gt)", i, c.Op)
		case !oneOf(c.TolKind, "abs", "rel"):
			return nil, at.Errorf("check %d: tol_kind %q (want abs or rel)", i, c.TolKind)
		case c.Tol < 0 || math.IsNaN(c.Tol) || math.IsNaN(c.Expected) || math.IsInf(c.Expected, 0):
			return nil, at.Errorf("check %d: tolerance %v and expected %v must be finite, tolerance ≥ 0", i, c.Tol, c.Expected)
		case !(strings.HasPrefix(c.Source, "paper") || strings.HasPrefix(c.Source, "derived") || c.Source == "regression"):
			return nil, at.Errorf("check %d: source %q must start with \"paper\" or \"derived\", or be \"regression\"", i, c.Source)
		case c.Source == "regression" && c.Op != "approx":
			return nil, at.Errorf("check %d: a regression check must use op approx", i)
		case c.Source == "regression" && c.Deviation != "":
			return nil, at.Errorf("check %d: a regression check cannot be a deviation", i)
		case c.Deviation == "" && c.Inconclusive == "" && (c.Pinned != nil || c.PinnedTol != 0):
			return nil, at.Errorf("check %d: pinned and pinned_tol belong to a deviation or an inconclusive check", i)
		case c.Interval && (c.Metric == "" || c.Source == "regression"):
			return nil, at.Errorf("check %d: interval needs a metric and a paper or derived source", i)
		case c.Inconclusive != "" && (!c.Interval || c.Deviation != ""):
			return nil, at.Errorf("check %d: inconclusive belongs to an interval check without a deviation", i)
		case c.Pinned != nil && (math.IsNaN(*c.Pinned) || math.IsInf(*c.Pinned, 0)):
			return nil, at.Errorf("check %d: pinned %v must be finite", i, *c.Pinned)
		case math.IsNaN(c.PinnedTol) || c.PinnedTol < 0 || c.PinnedTol >= 1:
			return nil, at.Errorf("check %d: pinned_tol %v must be in [0, 1) (relative)", i, c.PinnedTol)
		}
	}
	return &g, nil
}

// checkAt locates errors at the line of one [[check]].
type checkAt struct {
	f    *tomlfile.File
	line int
}

// Errorf returns an error at "path:line: ".
func (a checkAt) Errorf(format string, args ...any) error {
	return fmt.Errorf("%s:%d: %s", a.f.Path, a.line, fmt.Sprintf(format, args...))
}

// PinnedAllowed returns the allowed distance from Pinned.
func (c *Check) PinnedAllowed() float64 {
	tol := c.PinnedTol
	if tol == 0 {
		tol = DefaultPinnedTol
	}
	return tol * math.Abs(*c.Pinned)
}

func oneOf(s string, set ...string) bool {
	for _, x := range set {
		if s == x {
			return true
		}
	}
	return false
}

// Name describes what the check selects.
func (c *Check) Name() string {
	if c.Metric != "" {
		return c.Metric
	}
	if c.Category != "" {
		return c.Series + "[" + c.Category + "]"
	}
	return c.Series + "@" + strconv.FormatFloat(c.X, 'g', -1, 64)
}

// Allowed returns the allowed distance d.
func (c *Check) Allowed() float64 {
	if c.TolKind == "rel" {
		return c.Tol * math.Abs(c.Expected)
	}
	return c.Tol
}

// Holds reports whether got satisfies the check.
func (c *Check) Holds(got float64) bool {
	if math.IsNaN(got) {
		return false
	}
	d := c.Allowed()
	switch c.Op {
	case "le":
		return got <= c.Expected+d
	case "ge":
		return got >= c.Expected-d
	case "lt":
		return got < c.Expected
	case "gt":
		return got > c.Expected
	}
	return math.Abs(got-c.Expected) <= d
}

// Lookup finds the value a check selects.
type Lookup func(metric, series string, x float64, category string) (float64, bool)

// Outcome is the evaluation of one check.
type Outcome struct {
	Check *Check
	Got   float64
	Found bool
	// Pass: the check holds, or it is a recorded deviation that still fails.
	Pass bool
	// Deviates: a recorded deviation (a paper claim this reproduction misses).
	Deviates bool
	// Verdict is Holds, Misses or Inconclusive for an Interval check ("" for
	// the others), judged on [Lo, Hi], the value's 95% interval.
	Verdict string
	Lo, Hi  float64
	Message string
	// Reason is the deviation or inconclusive text of a passing recorded
	// check, its placeholders filled from the run (Check.reason).
	Reason string
}

// Evaluate evaluates every check of g.
func (g *File) Evaluate(look Lookup) []Outcome {
	out := make([]Outcome, len(g.Checks))
	for i := range g.Checks {
		c := &g.Checks[i]
		got, found := look(c.Metric, c.Series, c.X, c.Category)
		o := Outcome{Check: c, Got: got, Found: found}
		if c.Interval && found {
			o.evaluateInterval(look)
			out[i] = o
			continue
		}
		holds := found && c.Holds(got)
		switch {
		case !found:
			o.Message = fmt.Sprintf("%s: no such value in the result", c.Name())
		case c.Deviation != "" && holds:
			o.Message = fmt.Sprintf("%s = %.6g now satisfies %s %.6g: remove the recorded deviation", c.Name(), got, c.Op, c.Expected)
		case c.Deviation != "":
			o.checkPinned("paper: "+c.Op+" "+strconv.FormatFloat(c.Expected, 'g', 6, 64), true, look)
		case holds:
			o.Pass = true
			o.Message = fmt.Sprintf("%s = %.6g %s %.6g ± %.3g (%s)", c.Name(), got, c.Op, c.Expected, c.Allowed(), c.Source)
		default:
			o.Message = fmt.Sprintf("%s = %.6g, want %s %.6g ± %.3g (%s)", c.Name(), got, c.Op, c.Expected, c.Allowed(), c.Source)
		}
		out[i] = o
	}
	return out
}

// Update rewrites, in the file, the expected value of every regression
// check and the pinned value of every deviation to the value the lookup
// finds (inserting "pinned = …" after the deviation line where there is
// none), and leaves every other line as it is. It returns how many values
// changed.
func (g *File) Update(look Lookup) (int, error) {
	b, err := os.ReadFile(g.Path)
	if err != nil {
		return 0, err
	}
	lines := strings.Split(string(b), "\n")
	out := make([]string, 0, len(lines)+len(g.Checks))
	check, changed := -1, 0
	value := func(c *Check) (float64, error) {
		got, found := look(c.Metric, c.Series, c.X, c.Category)
		if !found || math.IsNaN(got) || math.IsInf(got, 0) {
			return 0, fmt.Errorf("%s: check %d %s: no finite value to record", g.Path, check, c.Name())
		}
		return got, nil
	}
	for _, l := range lines {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "[[check]]") {
			check++
		}
		if check < 0 || check >= len(g.Checks) {
			out = append(out, l)
			continue
		}
		c := &g.Checks[check]
		k, _, _ := strings.Cut(t, "=")
		k = strings.TrimSpace(k)
		indent := l[:len(l)-len(strings.TrimLeft(l, " \t"))]
		switch {
		case k == "expected" && c.Source == "regression":
			got, err := value(c)
			if err != nil {
				return 0, err
			}
			if got != c.Expected {
				changed++
				c.Expected = got
			}
			out = append(out, indent+"expected = "+strconv.FormatFloat(got, 'g', -1, 64))
		case k == "pinned" && (c.Deviation != "" || c.Inconclusive != ""):
			got, err := value(c)
			if err != nil {
				return 0, err
			}
			if c.Pinned == nil || got != *c.Pinned {
				changed++
			}
			c.Pinned = &got
			out = append(out, indent+"pinned = "+strconv.FormatFloat(got, 'g', -1, 64))
		case (k == "deviation" || k == "inconclusive") && c.Pinned == nil:
			got, err := value(c)
			if err != nil {
				return 0, err
			}
			changed++
			c.Pinned = &got
			out = append(out, l, indent+"pinned = "+strconv.FormatFloat(got, 'g', -1, 64))
		default:
			out = append(out, l)
		}
	}
	if changed == 0 {
		return 0, nil
	}
	return changed, atomicfile.Write(g.Path, []byte(strings.Join(out, "\n")))
}

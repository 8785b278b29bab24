package golden

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

const src = `# header comment
[[check]]
metric = "x1"
expected = 5.236
tol = 1e-3
source = "derived: 1/0.191"

[[check]]
series = "exact"
x = 10
expected = 12.0
tol = 1e-9
tol_kind = "rel"
source = "regression"

[[check]]
metric = "err"
op = "le"
expected = 0.10
source = "paper §4.2 \"within 10%\""
deviation = "our testbed is noisier: {got}"
pinned = 0.2
`

func write(t *testing.T, s string) string {
	p := filepath.Join(t.TempDir(), "g.toml")
	require.NoError(t, os.WriteFile(p, []byte(s), 0o644))
	return p
}

func lookup(vals map[string]float64) Lookup {
	return func(metric, series string, x float64, category string) (float64, bool) {
		k := metric
		if k == "" {
			k = series
		}
		v, ok := vals[k]
		return v, ok
	}
}

func TestEvaluate(t *testing.T) {
	t.Parallel()
	g, err := Load(write(t, src))
	require.NoError(t, err)
	out := g.Evaluate(lookup(map[string]float64{"x1": 5.2356, "exact": 12.5, "err": 0.2}))
	require.True(t, out[0].Pass, out[0].Message)
	require.False(t, out[1].Pass, "regression value off by 4%% must fail")
	require.True(t, out[2].Pass && out[2].Deviates, out[2].Message)

	// A deviation whose check passes again fails, so it gets removed.
	out = g.Evaluate(lookup(map[string]float64{"x1": 5.3, "exact": 12, "err": 0.05}))
	require.False(t, out[0].Pass)
	require.True(t, out[1].Pass)
	require.False(t, out[2].Pass)
	require.Contains(t, out[2].Message, "remove the recorded deviation")

	// A deviation that moves from its pinned value fails loudly.
	out = g.Evaluate(lookup(map[string]float64{"x1": 5.2356, "exact": 12, "err": 0.4}))
	require.False(t, out[2].Pass)
	require.Contains(t, out[2].Message, "moved from its pinned 0.2")

	out = g.Evaluate(lookup(map[string]float64{}))
	require.False(t, out[0].Pass)
	require.Contains(t, out[0].Message, "no such value")
}

func TestUpdateRewritesOnlyRegression(t *testing.T) {
	t.Parallel()
	p := write(t, src)
	g, err := Load(p)
	require.NoError(t, err)
	n, err := g.Update(lookup(map[string]float64{"x1": 9, "exact": 12.25, "err": 0.5}))
	require.NoError(t, err)
	require.Equal(t, 2, n, "the regression value and the deviation's pin")
	b, err := os.ReadFile(p)
	require.NoError(t, err)
	require.Contains(t, string(b), "pinned = 0.5\n")     // deviation: re-pinned
	require.Contains(t, string(b), "expected = 5.236\n") // derived: untouched
	require.Contains(t, string(b), "expected = 12.25\n") // regression: updated
	require.Contains(t, string(b), "expected = 0.10\n")  // paper: untouched
	require.Contains(t, string(b), "# header comment\n") // comments kept
	g2, err := Load(p)
	require.NoError(t, err)
	require.Equal(t, 12.25, g2.Checks[1].Expected)
}

func TestLoadRejects(t *testing.T) {
	t.Parallel()
	cases := []struct{ src, want string }{
		{"[[check]]\nmetric = \"a\"\nexpected = 1.0\nsource = \"guess\"\n", `source "guess"`},
		{"[[check]]\nmetric = \"a\"\nseries = \"b\"\nexpected = 1.0\nsource = \"regression\"\n", "exactly one of metric or series"},
		{"[[check]]\nmetric = \"a\"\nexpected = 1.0\nop = \"ne\"\nsource = \"regression\"\n", `op "ne"`},
		{"[[check]]\nmetric = \"a\"\nexpected = 1.0\ntolerance = 1.0\nsource = \"regression\"\n", `g.toml:4: unknown field "check.tolerance"`},
		{"[[check]]\nmetric = \"a\"\nop = \"le\"\nexpected = 1.0\nsource = \"regression\"\n", "must use op approx"},
		{"", "no [[check]] entries"},
		{"[[check]]\nmetric = \"a\"\nexpected = 1.0\npinned = 2.0\nsource = \"paper x\"\n", "pinned and pinned_tol belong to a deviation"},
		{"[[check]]\nmetric = \"a\"\nexpected = 1.0\npinned = inf\ndeviation = \"d\"\nsource = \"paper x\"\n", "pinned +Inf must be finite"},
		{"[[check]]\nmetric = \"a\"\nexpected = 1.0\npinned = 1.0\npinned_tol = -1.0\ndeviation = \"d\"\nsource = \"paper x\"\n", "pinned_tol -1 must be in [0, 1)"},
	}
	for _, c := range cases {
		_, err := Load(write(t, c.src))
		require.ErrorContains(t, err, c.want)
	}
}

// TestUpdatePinsNewDeviation: a deviation written without a pin fails
// until make update-golden inserts one after its text.
func TestUpdatePinsNewDeviation(t *testing.T) {
	t.Parallel()
	p := write(t, "[[check]]\nmetric = \"err\"\nop = \"le\"\nexpected = 0.1\nsource = \"paper x\"\ndeviation = \"misses\"\nnote = \"n\"\n")
	g, err := Load(p)
	require.NoError(t, err)
	look := lookup(map[string]float64{"err": 0.3})
	out := g.Evaluate(look)
	require.False(t, out[0].Pass)
	require.Contains(t, out[0].Message, "must pin")
	n, err := g.Update(look)
	require.NoError(t, err)
	require.Equal(t, 1, n)
	b, err := os.ReadFile(p)
	require.NoError(t, err)
	require.Contains(t, string(b), "deviation = \"misses\"\npinned = 0.3\nnote")
	g, err = Load(p)
	require.NoError(t, err)
	require.True(t, g.Evaluate(look)[0].Pass)
}

// TestIntervalVerdicts: an interval check holds when its whole 95%
// interval satisfies the claim, misses when none of it does (a deviation
// is then required) and is inconclusive otherwise (a recorded reason is
// then required); a verdict that changes fails.
func TestIntervalVerdicts(t *testing.T) {
	t.Parallel()
	c := Check{Metric: "r", Op: "approx", Expected: 0.35, Tol: 0.005, TolKind: "abs"}
	require.Equal(t, Holds, c.Verdict(0.346, 0.354))
	require.Equal(t, Inconclusive, c.Verdict(0.30, 0.40))
	require.Equal(t, Misses, c.Verdict(0.30, 0.34))
	le := Check{Metric: "e", Op: "le", Expected: 10}
	require.Equal(t, Holds, le.Verdict(2, 9))
	require.Equal(t, Inconclusive, le.Verdict(8, 12))
	require.Equal(t, Misses, le.Verdict(11, 12))

	const base = "[[check]]\nmetric = \"r\"\nexpected = 0.35\ntol = 0.005\ninterval = true\nsource = \"paper §VI-B\"\n"
	vals := func(v, lo, hi float64) Lookup {
		return lookup(map[string]float64{"r": v, "r.ci95_lo": lo, "r.ci95_hi": hi})
	}
	eval := func(src string, look Lookup) Outcome {
		g, err := Load(write(t, src))
		require.NoError(t, err)
		return g.Evaluate(look)[0]
	}
	o := eval(base, vals(0.35, 0.346, 0.354))
	require.True(t, o.Pass, o.Message)
	require.Equal(t, Holds, o.Verdict)
	o = eval(base, vals(0.35, 0.30, 0.40))
	require.False(t, o.Pass)
	require.Contains(t, o.Message, "inconclusive")
	withReason := base + "inconclusive = \"±5 pp over 10 seeds ({got})\"\npinned = 0.35\n"
	o = eval(withReason, vals(0.35, 0.30, 0.40))
	require.True(t, o.Pass, o.Message)
	require.False(t, o.Deviates)
	require.Contains(t, o.Message, "inconclusive: ±5 pp over 10 seeds (0.35)")
	o = eval(withReason, vals(0.35, 0.346, 0.354))
	require.False(t, o.Pass, "now holds: the reason must go")
	o = eval(base, vals(0.32, 0.30, 0.34))
	require.False(t, o.Pass)
	require.Contains(t, o.Message, "record a deviation")
	o = eval(base+"deviation = \"d\"\npinned = 0.32\n", vals(0.32, 0.30, 0.34))
	require.True(t, o.Pass && o.Deviates, o.Message)
	o = eval(base, lookup(map[string]float64{"r": 0.35}))
	require.False(t, o.Pass)
	require.Contains(t, o.Message, "no 95% interval")
	for src, want := range map[string]string{
		"[[check]]\nseries = \"s\"\nx = 1\nexpected = 1.0\ninterval = true\nsource = \"paper x\"\n":                                   "interval needs a metric",
		"[[check]]\nmetric = \"a\"\nexpected = 1.0\ninconclusive = \"r\"\nsource = \"paper x\"\n":                                     "inconclusive belongs to an interval check",
		"[[check]]\nmetric = \"a\"\nexpected = 1.0\ninterval = true\ntol = 0.1\nsource = \"regression\"\n":                            "interval needs a metric and a paper or derived source",
		"[[check]]\nmetric = \"a\"\nexpected = 1.0\ninterval = true\ninconclusive = \"r\"\ndeviation = \"d\"\nsource = \"paper x\"\n": "inconclusive belongs to an interval check without a deviation",
	} {
		_, err := Load(write(t, src))
		require.ErrorContains(t, err, want)
	}
}

// A reason quotes the run's numbers: {got}, any metric of the result,
// with an optional format; a placeholder the result lacks fails.
func TestReasonQuotesTheRun(t *testing.T) {
	t.Parallel()
	c := &Check{Metric: "err", Deviation: "err {got} (mean {err.mean:%.1f}%, {points:%d} points, peak {peak}, signed {got:%+.1p}%)"}
	look := lookup(map[string]float64{"err.mean": 12.345, "points": 6, "peak": 3927.9})
	got, err := c.reason(0.41234, look)
	require.NoError(t, err)
	require.Equal(t, "err 0.4123 (mean 12.3%, 6 points, peak 3928, signed +41.2%)", got)
	c.Deviation = "uses {absent.metric} and {got}"
	_, err = c.reason(1, look)
	require.ErrorContains(t, err, "quotes {absent.metric}, which the result does not have")
}

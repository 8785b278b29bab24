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
	require.Equal(t, "our testbed is noisier: 0.4", g.Checks[2].Reason(0.4))

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

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
deviation = "our testbed is noisier"
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
	require.Equal(t, 1, n)
	b, err := os.ReadFile(p)
	require.NoError(t, err)
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
	}
	for _, c := range cases {
		_, err := Load(write(t, c.src))
		require.ErrorContains(t, err, c.want)
	}
}

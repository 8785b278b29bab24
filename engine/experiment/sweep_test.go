package experiment

import (
	"fmt"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// fig6 returns experiments/cynthia/fig6.toml with its sweep lines
// ("var = ...", "from = 1", "to = 16") replaced by sweep.
func fig6(t *testing.T, sweep string) string {
	t.Helper()
	b, err := os.ReadFile("../../experiments/cynthia/fig6.toml")
	require.NoError(t, err)
	old := "var = \"workers\"\nfrom = 1\nto = 16\n"
	require.Contains(t, string(b), old)
	return strings.Replace(string(b), old, sweep, 1)
}

// lineOf is the 1-based line of the first line of text starting with key.
func lineOf(t *testing.T, text, key string) int {
	t.Helper()
	for i, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, key) {
			return i + 1
		}
	}
	t.Fatalf("no line starts with %q", key)
	return 0
}

// TestSweepRefusesNonFiniteAndHugeRanges: a sweep whose from, to or step
// is not finite, or whose step makes more than MaxSweepPoints points, is
// refused by Parse with the file:line of the key and its name. Before the
// fix Parse accepted them (NaN compares false, +Inf passes To >= From) and
// Points looped until "fatal error: out of memory".
func TestSweepRefusesNonFiniteAndHugeRanges(t *testing.T) {
	t.Parallel()
	const file = "experiments/cynthia/fig6.toml"
	for _, c := range []struct{ sweep, key, want string }{
		{"var = \"workers\"\nfrom = nan\nto = 16\n", "from", "sweep.from = NaN"},
		{"var = \"workers\"\nfrom = 1\nto = 16\nstep = nan\n", "step", "sweep.step = NaN"},
		{"var = \"workers\"\nfrom = 1\nto = 16\nstep = 1e-300\n", "step", "sweep.step = 1e-300"},
		{"var = \"workers\"\nfrom = -inf\nto = 16\n", "from", "sweep.from = -Inf"},
		{"var = \"bandwidth\"\nfrom = 1\nto = inf\n", "to", "sweep.to = +Inf"},
		{"var = \"bandwidth\"\nfrom = 1\nto = nan\n", "to", "sweep.to = NaN"},
		{"var = \"bandwidth\"\nfrom = 1e300\nto = 1.0000001e300\n", "to", "sweep.to"},
		{"var = \"bandwidth\"\nfrom = -1.7e308\nto = 1.7e308\nstep = 1\n", "step", "sweep.step = 1"},
		{"var = \"bandwidth\"\nvalues = [1, nan]\n", "values", "sweep.values"},
		{"var = \"bandwidth\"\nfrom = 1\nto = 16\nstep = -1\n", "step", "sweep.step = -1"},
	} {
		t.Run(c.sweep, func(t *testing.T) {
			t.Parallel()
			text := fig6(t, c.sweep)
			s, err := Parse(file, []byte(text))
			if err == nil {
				// The old code accepted the spec; its points never end.
				n := len(s.Sweep.Points())
				t.Fatalf("accepted the sweep (%d points)", n)
			}
			require.ErrorContains(t, err, fmt.Sprintf("%s:%d: ", file, lineOf(t, text, c.key)))
			require.ErrorContains(t, err, c.want)
		})
	}
	// The error of a too-fine step gives the count and the limit.
	_, err := Parse(file, []byte(fig6(t, "var = \"workers\"\nfrom = 1\nto = 16\nstep = 1e-300\n")))
	require.ErrorContains(t, err, fmt.Sprintf("at most %d (experiment.MaxSweepPoints)", MaxSweepPoints))
	// The limit itself is accepted: exactly MaxSweepPoints points.
	s, err := Parse(file, []byte(fig6(t, fmt.Sprintf("var = \"bandwidth\"\nfrom = 1\nto = %d\n", MaxSweepPoints))))
	require.NoError(t, err)
	require.Len(t, s.Sweep.Points(), MaxSweepPoints)
	_, err = Parse(file, []byte(fig6(t, fmt.Sprintf("var = \"bandwidth\"\nfrom = 1\nto = %d\n", MaxSweepPoints+1))))
	require.ErrorContains(t, err, fmt.Sprintf("%d points", MaxSweepPoints+1))
}

// TestSweepPointsBounded: Points on a sweep built in code (not by Parse)
// returns nil for an invalid range instead of looping, and Len agrees
// with Points on valid ones.
func TestSweepPointsBounded(t *testing.T) {
	t.Parallel()
	nan, inf := math.NaN(), math.Inf(1)
	for _, s := range []Sweep{
		{Var: "x", From: nan, To: 3}, {Var: "x", From: 1, To: nan}, {Var: "x", From: 1, To: 3, Step: nan},
		{Var: "x", From: 1, To: inf}, {Var: "x", From: -inf, To: 1}, {Var: "x", From: 1, To: 3, Step: 1e-300},
		{Var: "x", From: 1e300, To: 1e300}, {Var: "x", From: 1, To: 3, Step: -1}, {Var: "x", From: 3, To: 1},
	} {
		pts := s.Points()
		require.LessOrEqual(t, len(pts), MaxSweepPoints, "%+v", s)
		if n, err := s.Len(); err == nil {
			require.Len(t, pts, n, "%+v", s)
		} else {
			require.Nil(t, pts, "%+v", s)
		}
	}
	n, err := Sweep{Var: "x", From: 0.1, To: 0.3, Step: 0.1}.Len()
	require.NoError(t, err)
	require.Equal(t, 3, n)
	require.Equal(t, []float64{0.1, 0.2, 0.3}, Sweep{Var: "x", From: 0.1, To: 0.3, Step: 0.1}.Points())
}

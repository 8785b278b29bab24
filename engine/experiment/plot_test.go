package experiment

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestPlotKeys: a [plot] table with panels, a bound and lines parses, and
// bad ones are reported at their key (cmd/pslab TestFigureSpec: they
// reach the figure).
func TestPlotKeys(t *testing.T) {
	t.Parallel()
	plot := `[plot]
x_label = "x"
y_label = "y (s)"
bound = 0.1
bound_label = "paper: ± 10%"

[[plot.panel]]
match = "testbed"
title = "testbed"

[[plot.panel]]
title = "the rest"

[[plot.line]]
y = 3
label = "limit"
`
	_, err := Parse("experiments/beyond/toy.toml", []byte(strings.Replace(goodSpec, "[plot]\nx_label = \"x\"\ny_label = \"y (s)\"\n", plot, 1)))
	require.NoError(t, err)

	for _, c := range []struct{ plot, want string }{
		{"bound = 1.5\n", "bound 1.5 is not a relative error"},
		{"bound_label = \"x\"\n", "bound_label without a bound"},
		{"x_categories = true\ntype = \"bar\"\n", "x_categories applies to line charts"},
		{"\n[[plot.panel]]\ntitle = \"all\"\n\n[[plot.panel]]\nmatch = \"a\"\n", "only the last [[plot.panel]]"},
		{"\n[[plot.line]]\ny = 1\n", "needs a label"},
		{"\n[[plot.line]]\ny = 1\nlabel = \"l\"\nseries = \"s\"\n", "apply to bar charts only"},
	} {
		spec := strings.Replace(goodSpec, "y_label = \"y (s)\"\n", "y_label = \"y (s)\"\n"+c.plot, 1)
		_, err := Parse("experiments/beyond/toy.toml", []byte(spec))
		require.ErrorContains(t, err, c.want, c.plot)
	}
}

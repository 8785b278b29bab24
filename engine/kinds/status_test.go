package kinds

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"pslab/engine/experiment"
	"pslab/engine/golden"
)

// TestStatusFollowsGolden keeps every experiment's status label true to
// its definition on its golden file (experiment.CheckStatus: "deviates"
// exactly when a paper claim is missed, never "reproduced" with an
// inconclusive claim) without running anything; the runner refuses a
// contradicting label too.
func TestStatusFollowsGolden(t *testing.T) {
	t.Parallel()
	paths, err := experiment.Find(root, nil)
	require.NoError(t, err)
	count := map[string]int{}
	for _, p := range paths {
		s, err := experiment.Load(p)
		require.NoError(t, err)
		g, err := golden.Load(experiment.GoldenPath(root, s))
		require.NoError(t, err)
		require.NoError(t, experiment.CheckStatus(s, g))
		count[s.Status]++
	}
	t.Logf("%d experiments: %d reproduced, %d partial, %d deviate", len(paths), count["reproduced"], count["partial"], count["deviates"])
}

// TestAxesHaveUnits requires every experiment's result table to get a
// unit for y, and for x on a line chart (a bar chart's x is a category),
// from the [plot] table: the label's "(unit)" or x_unit / y_unit. Only a
// y label that names several units (one per series, "time (min) and cost
// (US cents)") may leave y without one.
func TestAxesHaveUnits(t *testing.T) {
	t.Parallel()
	paths, err := experiment.Find(root, nil)
	require.NoError(t, err)
	for _, p := range paths {
		s, err := experiment.Load(p)
		require.NoError(t, err)
		x, y := s.Plot.Units()
		if s.Plot.Type != "bar" {
			require.NotEmpty(t, x, "%s: x label %q names no unit: set x_unit", s.ID, s.Plot.XLabel)
		}
		several := strings.Count(s.Plot.YLabel, "(") > 1 || strings.Contains(s.Plot.YLabel, ";")
		require.True(t, y != "" || several, "%s: y label %q names no unit: set y_unit", s.ID, s.Plot.YLabel)
	}
}

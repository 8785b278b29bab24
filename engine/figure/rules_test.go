package figure

import (
	"regexp"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"pslab/engine/dataset"
)

// mixed has a measured series with its model at ~10⁴ and a prediction at
// ~1, like icpe20 Fig. 14's testbed and Opteron curves.
func mixed(t *testing.T) *dataset.Table {
	tab := dataset.NewTable(dataset.ResultSchema, dataset.Provenance{})
	for x := 1; x <= 4; x++ {
		f := float64(x)
		require.NoError(t, tab.Append("Opteron VGG-16 (pred.): simulator", "", f, 0.8*f, 0.8*f, 0.8*f, "sim", dataset.Derived, 0.0))
		require.NoError(t, tab.Append("testbed VGG-16: simulator", "", f, 5000*f, 5000*f, 5000*f, "sim", dataset.Derived, 0.0))
		require.NoError(t, tab.Append("testbed VGG-16", "", f, 4000*f, 3900*f, 4100*f, "measurement", dataset.Measured, 0.0))
	}
	return tab
}

// TestSplitByMagnitude: series more than 100× apart go to separate panels,
// the larger first; a measured series stays with its model.
func TestSplitByMagnitude(t *testing.T) {
	t.Parallel()
	panels := splitByMagnitude(group(mixed(t)))
	require.Len(t, panels, 2)
	require.Equal(t, "testbed VGG-16: simulator", panels[0][0].name)
	require.Equal(t, "testbed VGG-16", panels[0][1].name)
	require.Equal(t, "Opteron VGG-16 (pred.): simulator", panels[1][0].name)
	require.Len(t, splitByMagnitude(group(table(t))), 1, "series within 100× share a panel")
}

// TestMeasuredSharesModelColour pairs measured series with their model.
func TestMeasuredSharesModelColour(t *testing.T) {
	t.Parallel()
	tab := dataset.NewTable(dataset.ResultSchema, dataset.Provenance{})
	for _, s := range []struct{ name, model, origin string }{
		{"AlexNet measured", "measurement", dataset.Measured},
		{"ResNet-50 measured", "measurement", dataset.Measured},
		{"AlexNet zhang", "zhang", dataset.Derived},
		{"ResNet-50 zhang", "zhang", dataset.Derived},
		{"testbed VGG-16: simulator", "sim", dataset.Derived},
		{"testbed VGG-16: Lin", "lin", dataset.Derived},
		{"testbed VGG-16", "measurement", dataset.Measured},
	} {
		require.NoError(t, tab.Append(s.name, "", 1.0, 1.0, 1.0, 1.0, s.model, s.origin, 0.0))
	}
	ser := group(tab)
	st := styles(ser)
	require.Equal(t, st[ser[0]].colour, st[ser[2]].colour)
	require.Equal(t, st[ser[1]].colour, st[ser[3]].colour)
	require.NotEqual(t, st[ser[0]].colour, st[ser[1]].colour)
	require.Equal(t, st[ser[4]].colour, st[ser[6]].colour)
	require.Equal(t, st[ser[4]].colour, st[ser[5]].colour)
	require.NotEqual(t, st[ser[4]].variant, st[ser[5]].variant, "two models of one colour differ in dashes")

	// Without a measurement, series keep a colour each.
	tab = dataset.NewTable(dataset.ResultSchema, dataset.Provenance{})
	for _, n := range []string{"AlexNet: compute", "AlexNet: bandwidth"} {
		require.NoError(t, tab.Append(n, "", 1.0, 1.0, 1.0, 1.0, "zhang", dataset.Derived, 0.0))
	}
	ser = group(tab)
	st = styles(ser)
	require.NotEqual(t, st[ser[0]].colour, st[ser[1]].colour)
}

// TestLegendOutsideDataArea: every legend entry is drawn right of the
// data area (x beyond Width), and the figure grows by a panel per split.
func TestLegendOutsideDataArea(t *testing.T) {
	t.Parallel()
	s := Spec{Title: "mixed", XLabel: "workers (count)", YLabel: "throughput (examples/s)", LogY: true}
	svg, _, err := Render(s, mixed(t))
	require.NoError(t, err)
	for _, label := range []string{"testbed VGG-16 (measured)", "testbed VGG-16: simulator", "Opteron VGG-16 (pred.): simulator"} {
		m := regexp.MustCompile(`<text x="([0-9.]+)"[^>]*>` + regexp.QuoteMeta(label) + `<`).FindSubmatch(svg)
		require.NotNil(t, m, label)
		x, err := strconv.ParseFloat(string(m[1]), 64)
		require.NoError(t, err)
		require.Greater(t, x, Width.Points(), "%s drawn inside the data area", label)
	}
	h := regexp.MustCompile(`<svg width="[0-9.]+pt" height="([0-9.]+)pt"`).FindSubmatch(svg)
	require.NotNil(t, h)
	require.Equal(t, strconv.FormatFloat((Height+PanelHeight).Points(), 'g', -1, 64), string(h[1]))
}

// TestLogTicksLabelSeveralValues: log axes label 1-2-5 values in plain
// numbers, and evenly spaced values below a decade.
func TestLogTicksLabelSeveralValues(t *testing.T) {
	t.Parallel()
	labels := func(min, max float64) []string {
		var out []string
		for _, tk := range (logTicks{}).Ticks(min, max) {
			if tk.Label != "" {
				out = append(out, tk.Label)
			}
		}
		return out
	}
	require.Equal(t, []string{"5000", "10000", "20000", "50000", "100000", "200000"}, labels(4000, 300000))
	require.Equal(t, []string{"0.001", "0.01", "0.1", "1", "10", "100"}, labels(0.001, 100))
	require.GreaterOrEqual(t, len(labels(0.77, 1.7)), 3)
}

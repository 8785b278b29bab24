package figure

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"pslab/engine/dataset"
)

// sources is icpe20 Fig. 14 in small: two testbed DNNs with their
// measurements (intervals) and an Opteron prediction.
func sources(t *testing.T) *dataset.Table {
	tab := dataset.NewTable(dataset.ResultSchema, dataset.Provenance{})
	for w := 1; w <= 7; w++ {
		x := float64(w)
		for _, d := range []struct {
			dnn   string
			scale float64
		}{{"AlexNet", 1000}, {"VGG-16", 300}} {
			y := d.scale * x
			require.NoError(t, tab.Append("testbed "+d.dnn+": icpe20 simulator", "", x, y, y, y, "icpe20-simulator", dataset.Derived, 0.0))
			require.NoError(t, tab.Append("testbed "+d.dnn, "", x, 0.9*y, 0.85*y, 0.95*y, "measurement", dataset.Measured, 0.0))
		}
		require.NoError(t, tab.Append("Opteron AlexNet (pred.): icpe20 simulator", "", x, 0.5*x, 0.5*x, 0.5*x, "icpe20-simulator", dataset.Derived, 0.0))
	}
	return tab
}

// TestPanelsBySource: named panels take their series in order, their
// legend drops the prefix, and a panel that takes nothing is an error.
func TestPanelsBySource(t *testing.T) {
	t.Parallel()
	s := Spec{Title: "t", LogY: true, Panels: []Panel{{Match: "testbed", Title: "testbed"}, {Match: "Opteron", Title: "Opteron"}}}
	parts, err := panelsOf(s, group(sources(t)))
	require.NoError(t, err)
	require.Len(t, parts, 2)
	require.Equal(t, "testbed", parts[0].title)
	require.Len(t, parts[0].ser, 4)
	require.Equal(t, "AlexNet: icpe20 simulator", parts[0].ser[0].label())
	require.Equal(t, "AlexNet (measured)", parts[0].ser[1].label())
	require.Equal(t, "Opteron", parts[1].title)

	s.LogY = false // on a log axis the Opteron curve would leave "models" (TestLogPanelsSplitBySpan)
	s.Panels = []Panel{{Contains: "simulator", Title: "models"}, {Title: "the rest"}}
	parts, err = panelsOf(s, group(sources(t)))
	require.NoError(t, err)
	require.Len(t, parts, 2)
	require.Len(t, parts[0].ser, 3)
	require.Len(t, parts[1].ser, 2)

	s.Panels = []Panel{{Match: "AWS", Title: "nothing"}}
	_, err = panelsOf(s, group(sources(t)))
	require.ErrorContains(t, err, `panel "nothing"`)
}

// TestLogPanelsSplitBySpan: without named panels the Opteron curve
// (0.5-3.5) leaves the testbed panel (300-7000) on a log axis.
func TestLogPanelsSplitBySpan(t *testing.T) {
	t.Parallel()
	parts, err := panelsOf(Spec{LogY: true}, group(sources(t)))
	require.NoError(t, err)
	require.Len(t, parts, 2)
	require.Len(t, parts[1].ser, 1)
}

// TestLegendListsColoursAndStylesApart: a grid of configurations × models
// is listed as one row per configuration and one per model.
func TestLegendListsColoursAndStylesApart(t *testing.T) {
	t.Parallel()
	tab := dataset.NewTable(dataset.ResultSchema, dataset.Provenance{})
	for _, dnn := range []string{"AlexNet", "ResNet-50", "VGG-16"} {
		for _, m := range []string{"simulator", "Lin", "Cynthia"} {
			require.NoError(t, tab.Append(dnn+": "+m, "", 1.0, 1.0, 1.0, 1.0, m, dataset.Derived, 0.0))
			require.NoError(t, tab.Append(dnn+": "+m, "", 2.0, 2.0, 2.0, 2.0, m, dataset.Derived, 0.0))
		}
	}
	svg, _, err := Render(Spec{Title: "grid", XLabel: "workers (count)", YLabel: "throughput (examples/s)"}, tab)
	require.NoError(t, err)
	for _, want := range []string{">AlexNet<", ">VGG-16<", ">simulator<", ">Cynthia<"} {
		require.Contains(t, string(svg), want)
	}
	require.NotContains(t, string(svg), ">AlexNet: simulator<")
}

// TestBoundsAndLinesInLegend: the paper's bound band and reference lines
// are drawn and named.
func TestBoundsAndLinesInLegend(t *testing.T) {
	t.Parallel()
	s := Spec{Title: "bound", XLabel: "workers (count)", YLabel: "throughput (examples/s)", LogY: true, Bound: 0.1,
		Lines: []Line{{Y: 5000, Label: "link bound"}}}
	svg, _, err := Render(s, sources(t))
	require.NoError(t, err)
	require.Contains(t, string(svg), "paper&#39;s bound: model ± 10%")
	require.Contains(t, string(svg), "link bound")
}

// TestSweepTicks: a sweep gets a tick at every value, labelled as densely
// as the labels fit; event times and lone points are no sweep.
func TestSweepTicks(t *testing.T) {
	t.Parallel()
	labels := func(tk valueTicks, min, max float64) (all, labelled int) {
		for _, x := range tk.Ticks(min, max) {
			all++
			if x.Label != "" {
				labelled++
			}
		}
		return all, labelled
	}
	w := []float64{1, 2, 3, 4, 5, 6, 7}
	all, lab := labels(valueTicks{values: w}, 1, 7)
	require.Equal(t, 7, all)
	require.Equal(t, 7, lab, "W = 1..7 all labelled")
	var rates []float64
	for i := 0; i < 20; i++ {
		rates = append(rates, round12(0.05*float64(i)))
	}
	all, lab = labels(valueTicks{values: rates}, 0, 0.95)
	require.Equal(t, 20, all)
	require.Less(t, lab, 20)
	require.GreaterOrEqual(t, lab, 7)

	tab := dataset.NewTable(dataset.ResultSchema, dataset.Provenance{})
	for _, x := range []float64{1, 2, 4, 8} {
		require.NoError(t, tab.Append("curve", "", x, 1.0, 1.0, 1.0, "m", dataset.Derived, 0.0))
	}
	require.NoError(t, tab.Append("optimum", "", 1.386, 1.0, 1.0, 1.0, "m", dataset.Derived, 0.0))
	require.Equal(t, []float64{1, 2, 4, 8}, sweepValues(group(tab), false))
	tab = dataset.NewTable(dataset.ResultSchema, dataset.Provenance{})
	for _, x := range []float64{0, 0.0734, 1.95523} {
		require.NoError(t, tab.Append("stream", "", x, 1.0, 1.0, 1.0, "m", dataset.Derived, 0.0))
	}
	require.Nil(t, sweepValues(group(tab), false))
}

// TestNiceTicks: about five labelled values on round steps, with the
// decimals the step needs and no "-0".
func TestNiceTicks(t *testing.T) {
	t.Parallel()
	require.Equal(t, 50.0, niceStep(0, 177, 5))
	require.Equal(t, 2.5, niceStep(0, 13.9, 5))
	var got []string
	for _, tk := range (niceTicks{step: 2.5}).Ticks(-1e-9, 15) {
		if tk.Label != "" {
			got = append(got, tk.Label)
		}
	}
	require.Equal(t, []string{"0.0", "2.5", "5.0", "7.5", "10.0", "12.5", "15.0"}, got)
}

// TestBarsOnlyWherePresent: a series without a value in a category gets
// no bar there, and the bars of each category are centred on it.
func TestBarsOnlyWherePresent(t *testing.T) {
	t.Parallel()
	tab := dataset.NewTable(dataset.ResultSchema, dataset.Provenance{})
	require.NoError(t, tab.Append("a", "one", 0, 1.0, 1.0, 1.0, "m", dataset.Derived, 0.0))
	require.NoError(t, tab.Append("b", "one", 0, 2.0, 2.0, 2.0, "m", dataset.Derived, 0.0))
	require.NoError(t, tab.Append("b", "two", 0, 3.0, 2.5, 3.5, "m", dataset.Derived, 0.0))
	s := Spec{Title: "bars", Bar: true, Lines: []Line{{Y: 2.5, Label: "claim", Series: "b", Categories: []string{"tw"}}}}
	svg, _, err := Render(s, tab)
	require.NoError(t, err)
	require.Contains(t, string(svg), "claim")
	f, err := build(s, tab)
	require.NoError(t, err)
	require.Len(t, f.panels, 1)
}

// TestGlyphFallback spells out the characters Liberation lacks.
func TestGlyphFallback(t *testing.T) {
	t.Parallel()
	require.Equal(t, "ceil(n/2) + floor(n/2)", glyphs("⌈n/2⌉ + ⌊n/2⌋"))
	svg, _, err := Render(Spec{Title: "⌈n/2⌉ m4", XLabel: "x", YLabel: "y"}, sources(t))
	require.NoError(t, err)
	require.True(t, strings.Contains(string(svg), "ceil(n/2) m4"))
}

// TestTitleTwoLines: a title longer than two lines keeps two, and the
// caption under the panels starts with all of it.
func TestTitleTwoLines(t *testing.T) {
	t.Parallel()
	long := strings.TrimSpace(strings.Repeat("a rather long title word ", 30))
	f, err := build(Spec{Title: long, Caption: "the caption"}, sources(t))
	require.NoError(t, err)
	lo := f.layout()
	require.Len(t, strings.Split(lo.title, "\n"), 2)
	require.True(t, strings.HasPrefix(strings.ReplaceAll(lo.caption, "\n", " "), long+". the caption"))
}

package figure

import (
	"bytes"
	"image/png"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"pslab/engine/dataset"
)

func table(t *testing.T) *dataset.Table {
	tab := dataset.NewTable(dataset.ResultSchema, dataset.Provenance{})
	for x := 1; x <= 5; x++ {
		require.NoError(t, tab.Append("simulator", "", x, 10.0*float64(x), 10.0*float64(x), 10.0*float64(x), "sim", dataset.Derived, 0.0))
		y := 9.5 * float64(x)
		require.NoError(t, tab.Append("testbed", "", x, y, y-1, y+1, "measurement", dataset.Measured, 0.0))
	}
	return tab
}

func TestRenderIsReadableAndByteStable(t *testing.T) {
	t.Parallel()
	s := Spec{Title: "AlexNet throughput", Caption: "assumed window 28 MB", XLabel: "workers", YLabel: "throughput (examples/s)"}
	svg, pngb, err := Render(s, table(t))
	require.NoError(t, err)
	for _, want := range []string{"AlexNet throughput", "assumed window 28 MB", "workers", "throughput (examples/s)", "simulator", "testbed (measured)"} {
		require.Contains(t, string(svg), want)
	}
	img, err := png.Decode(bytes.NewReader(pngb))
	require.NoError(t, err)
	require.Greater(t, img.Bounds().Dx(), 500)
	svg2, png2, err := Render(s, table(t))
	require.NoError(t, err)
	require.Equal(t, svg, svg2)
	require.Equal(t, pngb, png2)
}

func TestRenderBars(t *testing.T) {
	t.Parallel()
	tab := dataset.NewTable(dataset.ResultSchema, dataset.Provenance{})
	require.NoError(t, tab.Append("greedy", "ps1", 0, 406.6, 406.6, 406.6, "placement", dataset.Derived, 0.0))
	require.NoError(t, tab.Append("greedy", "ps2", 0, 100.1, 100.1, 100.1, "placement", dataset.Derived, 0.0))
	require.NoError(t, tab.Append("paper", "ps1", 0, 407.0, 407.0, 407.0, "paper", dataset.Reported, 0.0))
	svg, _, err := Render(Spec{Title: "partition", XLabel: "PS", YLabel: "MiB", Bar: true}, tab)
	require.NoError(t, err)
	require.Contains(t, string(svg), "paper (reported)")
	require.Contains(t, string(svg), "ps2")
}

func TestRenderErrors(t *testing.T) {
	t.Parallel()
	_, _, err := Render(Spec{Title: "empty"}, dataset.NewTable(dataset.ResultSchema, dataset.Provenance{}))
	require.ErrorContains(t, err, "no rows")
	tab := table(t)
	tab.Floats("y_lo")[0] = 0
	_, _, err = Render(Spec{Title: "log", LogY: true}, tab)
	require.ErrorContains(t, err, `log y axis needs positive values: series "simulator"`)
	_, _, err = Render(Spec{Title: "bars", Bar: true, LogY: true}, table(t))
	require.ErrorContains(t, err, "cannot have a log y axis")
}

func TestWrap(t *testing.T) {
	t.Parallel()
	got := wrap(strings.Repeat("word ", 30), 20)
	for _, l := range strings.Split(got, "\n") {
		require.LessOrEqual(t, len(l), 20)
	}
}

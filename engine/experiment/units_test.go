package experiment

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"pslab/engine/dataset"
)

func TestLabelUnit(t *testing.T) {
	t.Parallel()
	for label, want := range map[string]string{
		"throughput (examples/s)":                     "examples/s",
		"workers W (count, 1 PS)":                     "count",
		"mean response time (hours)":                  "h",
		"speedup, comm/comp ratio (dimensionless)":    "1",
		"swept factor relative to the base (x)":       "1",
		"relative error (%)":                          "%",
		"link bandwidth (Gbit/s) ":                    "Gbit/s",
		"system load λE[S(1)]/W":                      "", // no unit named
		"speedup X(K)/X(1)":                           "", // not a unit group
		"CDF (fraction of jobs)":                      "", // in words
		"workers K (nodes w = K + 1, one is the PS)":  "", // in words
		"time (min) and cost (US cents)":              "", // several
		"events; paper planning time (ms)":            "", // several
		"active connections n (count) / share (frac)": "", // several
		"policy":         "",
		"y ()":           "",
		"(s)":            "",
		"lane (s) extra": "",
	} {
		require.Equal(t, want, LabelUnit(label), label)
	}
	x, y := Plot{XLabel: "system load λE[S(1)]/W", XUnit: "1", YLabel: "time (s)"}.Units()
	require.Equal(t, []string{"1", "s"}, []string{x, y})
	x, y = Plot{XLabel: "time (s)", YLabel: "time (s)", YUnit: "ms"}.Units()
	require.Equal(t, []string{"s", "ms"}, []string{x, y}, "an explicit unit wins over the label's")
}

// TestResultTableCarriesUnits: the runner writes the figure's units and
// axis labels on the result table's columns: x (or, on a bar chart,
// category) and y, and y's unit on the interval columns y_lo and y_hi.
func TestResultTableCarriesUnits(t *testing.T) {
	t.Parallel()
	spec := strings.Replace(goodSpec, `x_label = "x"`, `x_label = "workers (count)"`, 1)
	root, sp := repo(t, spec, strings.Replace(goodGolden, "tol = 1e-9\ntol_kind = \"rel\"", "tol = 1", 1))
	o := Run(context.Background(), registry(), []string{sp}, Options{Root: root, Write: true, Draw: drawn})[0]
	require.NoError(t, o.Err)
	require.False(t, o.Failed())
	tab, err := dataset.ReadAny(filepath.Join(root, "figures", "beyond", "toy.arrow"), dataset.Allocator)
	require.NoError(t, err)
	col := func(name string) dataset.Column { return tab.Schema.Columns[tab.Schema.Index(name)] }
	require.Equal(t, dataset.Column{Name: "x", Type: dataset.Float64, Unit: "count", Label: "workers (count)"}, col("x"))
	require.Equal(t, dataset.Column{Name: "y", Type: dataset.Float64, Unit: "s", Label: "y (s)"}, col("y"))
	require.Equal(t, "s", col("y_lo").Unit)
	require.Equal(t, "s", col("y_hi").Unit)
	require.Equal(t, "1", col("error").Unit)
	require.Empty(t, col("category").Label, "a line chart has no categories")

	bar := Plot{Type: "bar", XLabel: "DNN job", YLabel: "time per step (s)"}.resultSchema(dataset.ResultSchema)
	require.Equal(t, "DNN job", bar.Columns[bar.Index("category")].Label)
	require.Empty(t, bar.Columns[bar.Index("x")].Label, "a bar chart's x is not an axis")
	require.Equal(t, "s", bar.Columns[bar.Index("y")].Unit)
}

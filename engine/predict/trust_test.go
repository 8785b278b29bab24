package predict

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"pslab/engine/dataset"
	"pslab/engine/sim"
)

// accuracyTable is a small fixture of AccuracySchema rows: source, config,
// model, sync, workers, ratio, predicted, measured, error, in_budget.
func accuracyTable(t *testing.T) *dataset.Table {
	t.Helper()
	tab := dataset.NewTable(AccuracySchema, dataset.Provenance{Origin: dataset.Derived})
	for _, r := range [][]any{
		{"e", "a", "simulator", "asp", 2, 2.0, 110.0, 100.0, 0.10, 1},
		{"e", "a", "simulator", "asp", 3, 2.0, 96.0, 100.0, -0.04, 1},
		{"e", "b", "simulator", "asp", 4, 4.0, 130.0, 100.0, 0.30, 1},  // ratio 4: outside ×2 of 1.5
		{"e", "c", "simulator", "asp", 2, 2.0, 200.0, 100.0, 1.00, 0},  // host-limited: never used
		{"e", "d", "simulator", "bsp", 2, 2.0, 150.0, 100.0, 0.50, 1},  // other sync mode
		{"e", "a", "cynthia", "asp", 2, 2.0, 80.0, 100.0, -0.20, 1},    // other model
		{"e", "f", "simulator", "asp", 16, 2.0, 100.0, 100.0, 0.70, 1}, // W outside ×2
	} {
		require.NoError(t, tab.Append(r...))
	}
	return tab
}

func TestTrustRuleAndBand(t *testing.T) {
	t.Parallel()
	pts, err := TrustPoints(accuracyTable(t))
	require.NoError(t, err)
	require.Len(t, pts, 7)
	r := DefaultTrustRule
	require.True(t, r.Similar(pts[0], Simulator, sim.ASP, 4, 1.0), "W 2 in [2, 8], ratio 2 in [0.5, 2]")
	require.False(t, r.Similar(pts[0], Simulator, sim.ASP, 5, 1.0), "W 2 below 5/2")
	require.False(t, r.Similar(pts[0], Simulator, sim.ASP, 4, 0.99), "ratio 2 above 2·0.99")
	require.False(t, r.Similar(pts[0], Simulator, sim.BSP, 4, 1.0))
	require.False(t, r.Similar(pts[0], Cynthia, sim.ASP, 4, 1.0))
	require.False(t, r.Similar(pts[3], Simulator, sim.ASP, 2, 2.0), "not in budget")
	require.False(t, r.Similar(pts[0], Simulator, sim.ASP, 2, 0), "unknown ratio")

	b := r.Band(pts, Simulator, sim.ASP, 3, 1.5)
	require.Equal(t, 2, b.N)
	require.InDelta(t, 0.07, b.MeanAbs, 1e-12)
	require.InDelta(t, 0.10, b.MaxAbs, 1e-12)
	require.Equal(t, "[trust: mean 7.0%, max 10.0%, n=2]", b.String())
	none := r.Band(pts, Simulator, sim.ASP, 64, 1.5)
	require.Zero(t, none.N)
	require.Equal(t, "[trust: no comparable measurement]", none.String())
	require.Equal(t, 1, r.Band(pts, Simulator, sim.BSP, 2, 2).N)
}

func TestTrustPointsRejects(t *testing.T) {
	t.Parallel()
	tab := dataset.NewTable(AccuracySchema, dataset.Provenance{})
	require.NoError(t, tab.Append("e", "a", "oracle", "asp", 2, 2.0, 1.0, 1.0, 0.0, 1))
	_, err := TrustPoints(tab)
	require.ErrorContains(t, err, `row 1: model "oracle"`)
	_, err = TrustPoints(dataset.NewTable(dataset.MeasurementSchema, dataset.Provenance{}))
	require.ErrorContains(t, err, `schema "measurement", want "accuracy"`)
}

func TestCommRatio(t *testing.T) {
	t.Parallel()
	c := Coarse{Tp: 0.5, ServerBytes: []float64{5e6, 7.5e6}}
	require.InDelta(t, 2.5, CommRatio(c, 125e6), 1e-12, "0.5 s / (2 · 12.5 MB / 125 MB/s)")
	require.Zero(t, CommRatio(Coarse{Tp: 1}, 1e9))
}

func TestLabelsPerSync(t *testing.T) {
	t.Parallel()
	require.Equal(t, "Cynthia (icpe20 restatement)", Cynthia.LabelFor(sim.ASP))
	require.Equal(t, "Cynthia (own BSP model)", Cynthia.LabelFor(sim.BSP))
	require.Equal(t, "icpe20 simulator", Simulator.LabelFor(sim.BSP))
	require.Equal(t, "1 Gbit/s: Cynthia (own BSP model)", SeriesFor(125e6, Cynthia, sim.BSP))

	r := handReport()
	for _, p := range r.Runs {
		p.Sync = sim.BSP
	}
	var b bytes.Buffer
	require.NoError(t, r.WriteJSON(&b))
	require.Contains(t, b.String(), `"label": "Cynthia (own BSP model)"`)
	require.NotContains(t, b.String(), "restatement")
	require.Contains(t, r.Result().Table.Strings("series"), "1 Gbit/s: Cynthia (own BSP model)")
}

// trustReport is handReport with trust data: ratio 0.5 s · 125 MB/s / (2 ·
// 25 MB) = 1.25 at 1 Gbit/s, 12.5 at 10 Gbit/s.
func trustReport(t *testing.T) *Report {
	r := handReport()
	r.Runs[0].Coarse.ServerBytes = []float64{25e6}
	r.Runs[1].Coarse.ServerBytes = []float64{25e6}
	pts, err := TrustPoints(accuracyTable(t))
	require.NoError(t, err)
	r.Trust = &TrustData{Points: pts, Rule: DefaultTrustRule, Sources: []string{"fixture"}}
	return r
}

func TestReportTrustExports(t *testing.T) {
	t.Parallel()
	r := trustReport(t)
	var b bytes.Buffer
	require.NoError(t, r.WriteText(&b))
	flat := strings.Join(strings.Fields(b.String()), " ")
	require.Contains(t, flat, "trust: each model's measured |error| on the in-budget points of [fixture]")
	require.Contains(t, flat, "2 20 [trust: mean 7.0%, max 10.0%, n=2] 19 [trust: mean 20.0%, max 20.0%, n=1]")
	require.Contains(t, flat, "3 20.5 [trust: mean 7.0%, max 10.0%, n=2] 40 [trust: mean 20.0%, max 20.0%, n=1] !above link bound", "Cynthia 40 > bound 30 at W = 3")
	require.Contains(t, flat, "1 100 [trust: no comparable measurement]", "10 Gbit/s: ratio 12.5")

	b.Reset()
	require.NoError(t, r.WriteCSV(&b))
	recs, err := csv.NewReader(&b).ReadAll()
	require.NoError(t, err)
	require.Equal(t, []string{"7.000000000000001", "10", "2", "false"}, recs[3][17:], "simulator, W = 2")
	require.Equal(t, []string{"20", "20", "1", "true"}, recs[6][17:], "cynthia, W = 3")
	require.Equal(t, []string{"", "", "0", "false"}, recs[9][17:], "10 Gbit/s: ratio 12.5, nothing comparable")

	b.Reset()
	require.NoError(t, r.WriteJSON(&b))
	var js struct {
		Trust string `json:"trust"`
		Runs  []struct {
			Models []struct {
				Mean  []*float64 `json:"trust_mean_abs_err_pct"`
				N     []int      `json:"trust_points"`
				Above []bool     `json:"above_link_bound"`
			} `json:"models"`
		} `json:"runs"`
	}
	require.NoError(t, json.Unmarshal(b.Bytes(), &js))
	require.Contains(t, js.Trust, "[fixture]")
	require.Equal(t, []int{1, 2, 2}, js.Runs[0].Models[0].N)
	require.InDelta(t, 7.0, *js.Runs[0].Models[0].Mean[1], 1e-9)
	require.Nil(t, js.Runs[1].Models[1].Mean[2], "no comparable measurement: null")
	require.Equal(t, []bool{false, false, true}, js.Runs[0].Models[1].Above)

	tab, _, err := r.Export()
	require.NoError(t, err)
	require.Equal(t, r.Result().Table.Len(), tab.Len())
	require.Equal(t, int64(2), tab.Ints("trust_points")[1])
	require.InDelta(t, 10.0, tab.Floats("trust_max_abs_err_pct")[1], 1e-9)
	require.Contains(t, tab.Ints("above_link_bound"), int64(1))
	for col, unit := range map[string]string{"x": "count", "y": "examples/s", "y_lo": "examples/s", "y_hi": "examples/s"} {
		require.Equal(t, unit, tab.Schema.Columns[tab.Schema.Index(col)].Unit, "predict's result table carries units (issue 27)")
	}
	require.InDelta(t, (0.10+0.07+0.07)/3, r.Bands()["1 Gbit/s: icpe20 simulator"], 1e-12)
	require.NotContains(t, r.Bands(), "10 Gbit/s: icpe20 simulator")

	r.Trust = &TrustData{Missing: "no accuracy tables under figures/beyond"}
	b.Reset()
	require.NoError(t, r.WriteText(&b))
	require.Contains(t, b.String(), "trust: no trust band (no accuracy tables under figures/beyond)")
	require.NotContains(t, b.String(), "[trust:")
}

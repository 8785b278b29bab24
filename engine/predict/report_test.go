package predict

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"pslab/engine/dataset"
)

// handReport has two bandwidths, two models and a measurement at W = 2.
func handReport() *Report {
	run := func(bw, k float64) *Prediction {
		return &Prediction{Workers: []int{1, 2, 3}, Batch: 8, Servers: 1, Bandwidth: bw, LinkBound: 30 * k, HasCoarse: k == 1,
			Coarse: Coarse{Step: 0.8, Tp: 0.5, Tc: 0.1, U1: 0.25},
			Curves: []Curve{{Model: Simulator, Throughput: []float64{10 * k, 20 * k, 20.5 * k}}, {Model: Cynthia, Throughput: []float64{10 * k, 19 * k, 40 * k}}}}
	}
	r := &Report{Input: "input: hand", Model: "m", Setup: "cluster: hand", Knee: 0.95, Runs: []*Prediction{run(125e6, 1), run(1.25e9, 10)}}
	r.Measured = []Measurement{{Workers: 2, Throughput: 16, Std: 1}, {Workers: 5, Throughput: 1}}
	r.Errors, r.Missing = r.Runs[0].Errors(r.Measured)
	return r
}

func TestReportText(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	require.NoError(t, handReport().WriteText(&b))
	out := b.String()
	require.True(t, strings.HasPrefix(out, "input: hand\ncluster: hand\n\n"))
	flat := strings.Join(strings.Fields(out), " ") // tables are aligned with spaces
	for _, want := range []string{
		"1 Gbit/s, asp, 1 GPU(s)/node, batch 8 per node, 1 PS: link bound 30 examples/s; 1-worker step 0.8 s",
		"10 Gbit/s, asp, 1 GPU(s)/node, batch 8 per node, 1 PS: link bound 300 examples/s workers", // no coarse inputs
		"workers simulator cynthia measured 1 10 10 2 20 19 16 3 20.5 40",
		// 20 ≥ 0.95·20.5: the simulator's knee is W = 2; Cynthia's max is
		// its last point.
		"knee (W at 95% of max) 2 3",
		"relative error (predicted − measured)/measured at 1 Gbit/s, %",
		"measured worker counts [5] are not among the predicted ones",
		"workers simulator cynthia 2 +25.0 +18.8 mean |error| 25.0 18.8 max |error| 25.0 18.8", // (20−16)/16, (19−16)/16
	} {
		require.Contains(t, flat, want)
	}
}

func TestReportCSV(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	require.NoError(t, handReport().WriteCSV(&b))
	recs, err := csv.NewReader(&b).ReadAll()
	require.NoError(t, err)
	require.Equal(t, append(append([]string{}, csvHeader...), trustHeader...), recs[0])
	require.Len(t, recs, 1+2*3*2)
	require.Equal(t, []string{"1.25e+08", "2", "simulator", "20", "16", "0.25", "30", "10", "1", "asp", "ok", "", "", "", "", "", "", "", "", "", "false"}, recs[3])
	require.Equal(t, []string{"1.25e+08", "1", "cynthia", "10", "", "", "30", "10", "1", "asp", "ok", "", "", "", "", "", "", "", "", "", "false"}, recs[2])
	require.Equal(t, []string{"1.25e+09", "2", "simulator", "200", "", "", "300", "100", "1", "asp", "ok", "", "", "", "", "", "", "", "", "", "false"}, recs[9], "measurements compare with the first bandwidth only")
}

func TestReportJSON(t *testing.T) {
	t.Parallel()
	r := handReport()
	r.Runs[1].LinkBound = math.Inf(1)
	var b bytes.Buffer
	require.NoError(t, r.WriteJSON(&b))
	var got struct {
		Runs []struct {
			Bandwidth float64            `json:"bandwidth_bytes_per_s"`
			LinkBound *float64           `json:"link_bound_examples_per_s"`
			Coarse    map[string]float64 `json:"coarse_inputs"`
			Models    []map[string]any   `json:"models"`
		} `json:"runs"`
		Errors []struct {
			Model string    `json:"model"`
			Rel   []float64 `json:"rel_error"`
			Mean  float64   `json:"mean_abs_rel_error"`
		} `json:"errors"`
		Missing []int `json:"measured_not_predicted"`
	}
	require.NoError(t, json.Unmarshal(b.Bytes(), &got), b.String())
	require.Len(t, got.Runs, 2)
	require.Equal(t, 30.0, *got.Runs[0].LinkBound)
	require.Nil(t, got.Runs[1].LinkBound, "an infinite bound is null")
	require.Equal(t, 0.25, got.Runs[0].Coarse["u_1"])
	require.Nil(t, got.Runs[1].Coarse)
	require.Equal(t, "simulator", got.Runs[0].Models[0]["model"])
	require.Equal(t, 2.0, got.Runs[0].Models[0]["knee"])
	require.Equal(t, []float64{0.25}, got.Errors[0].Rel)
	require.Equal(t, []int{5}, got.Missing)
}

func TestReportResultTable(t *testing.T) {
	t.Parallel()
	res := handReport().Result()
	tab := res.Table
	require.NoError(t, tab.Validate())
	require.Equal(t, 2*2*3+2, tab.Len())
	series, model, origin := tab.Strings("series"), tab.Strings("model"), tab.Strings("origin")
	x, y, e := tab.Floats("x"), tab.Floats("y"), tab.Floats("error")
	require.Equal(t, "1 Gbit/s: icpe20 simulator", series[0])
	require.Equal(t, "icpe20-simulator", model[0])
	require.Equal(t, dataset.Derived, origin[0])
	require.Equal(t, [3]float64{2, 20, 0.25}, [3]float64{x[1], y[1], e[1]})
	last := tab.Len() - 1
	require.Equal(t, dataset.Measured, origin[last])
	require.Equal(t, [2]float64{5, 1}, [2]float64{x[last], y[last]})
	require.Equal(t, [2]float64{15, 17}, [2]float64{tab.Floats("y_lo")[last-1], tab.Floats("y_hi")[last-1]})
	require.True(t, strings.HasPrefix(res.Notes[2], "1 Gbit/s, asp, 1 GPU(s)/node, batch 8"))
}

package icpe20

import (
	"math"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"pslab/engine/dataset"
)

// pointsSchema has the columns of a testbed points table that
// measured.ReadPoints reads.
var pointsSchema = &dataset.Schema{Name: "test-points", Columns: []dataset.Column{
	{Name: "workers", Type: dataset.Int64},
	{Name: "dilation", Type: dataset.Float64},
	{Name: "repetitions", Type: dataset.Int64},
	{Name: "ci95_rel", Type: dataset.Float64},
	{Name: "modes", Type: dataset.Int64},
	{Name: "verdict", Type: dataset.String},
}}

// modesSchema has the columns of a testbed modes table that
// measured.ReadModes reads.
var modesSchema = &dataset.Schema{Name: "test-modes", Columns: []dataset.Column{
	{Name: "workers", Type: dataset.Int64},
	{Name: "mode", Type: dataset.Int64},
	{Name: "dilation", Type: dataset.Float64},
	{Name: "throughput", Type: dataset.Float64},
	{Name: "frequency", Type: dataset.Float64},
	{Name: "ci95_rel", Type: dataset.Float64},
	{Name: "synchrony", Type: dataset.Float64},
}}

// TestThroughputKindPointsJudgeMeasurements: with a points input the
// measured points carry their interval over repetitions, a point that
// does not hold its testbed judgement is drawn apart and judges no model,
// and the excess over the paper's bound is an interval: the errors of the
// judged points widened by the measurement's half-width (the paper
// procedure's prediction has none).
func TestThroughputKindPointsJudgeMeasurements(t *testing.T) {
	t.Parallel()
	root := tputRoot(t)
	pred, err := runTput(t, root, "", toyCase)
	require.NoError(t, err)
	x1, x2 := seriesY(t, pred, "toy: icpe20 simulator", 1), seriesY(t, pred, "toy: icpe20 simulator", 2)
	mt := dataset.NewTable(dataset.MeasurementSchema, dataset.Provenance{Origin: dataset.Measured, Source: "test"})
	for _, r := range []struct {
		w    int64
		tput float64
	}{{1, x1 * 1.1}, {2, x2 * 0.5}} {
		require.NoError(t, mt.Append("test", "p", "toy", int64(32), r.w, int64(1), "asp", "multiplexed", "default", r.tput, 1.0, int64(50), int64(0)))
	}
	require.NoError(t, dataset.Write(filepath.Join(root, "datasets", "meas.arrow"), mt, dataset.Allocator))
	pt := dataset.NewTable(pointsSchema, dataset.Provenance{Origin: dataset.Measured, Source: "test"})
	require.NoError(t, pt.Append(int64(1), 1.0, int64(5), 0.02, int64(2), "holds"))
	require.NoError(t, pt.Append(int64(2), 1.0, int64(3), 0.01, int64(0), "fails"))
	require.NoError(t, pt.Append(int64(2), 2.0, int64(3), 0.01, int64(0), "moves")) // stretched: not a point of its own
	require.NoError(t, dataset.Write(filepath.Join(root, "datasets", "points.arrow"), pt, dataset.Allocator))
	bt := dataset.NewTable(errorBounds, dataset.Provenance{Origin: dataset.Reported, Source: "test"})
	require.NoError(t, bt.Append(int64(13), "", int64(0), 5.0, "<=", "default", "000"))
	require.NoError(t, dataset.Write(filepath.Join(root, "datasets", "bounds.arrow"), bt, dataset.Allocator))

	inputs := "measured = \"datasets/meas.arrow\"\nerror_bounds = \"datasets/bounds.arrow\"\npts = \"datasets/points.arrow\""
	res, err := runTput(t, root, inputs, "figure = 13\n"+toyCase+"points = \"pts\"\n")
	require.NoError(t, err)
	m := res.Metrics
	e1 := 1 - 1/1.1 // W = 1 only: W = 2 fails its judgement
	require.InDelta(t, 100*e1, m["error.max.toy"], 1e-9)
	require.Equal(t, 1.0, m["error.points.toy"])
	require.InDelta(t, 100*e1-5, m["error.excess.toy"], 1e-9)
	r := 1 / 1.1 // pred/meas at W = 1, measured ±2%
	require.InDelta(t, 100*math.Abs(r*1.02-1)-5, m["error.excess.toy.ci95_lo"], 1e-9)
	require.InDelta(t, 100*math.Abs(r*0.98-1)-5, m["error.excess.toy.ci95_hi"], 1e-9)
	require.InDelta(t, x2*0.5, seriesY(t, res, "toy: fails", 2), 1e-12, "drawn apart")
	ys, lo := res.Table.Floats("y"), res.Table.Floats("y_lo")
	for i, s := range res.Table.Strings("series") {
		if s == "toy" {
			require.InDelta(t, ys[i]*0.98, lo[i], 1e-9, "the 95% interval over repetitions")
		}
	}
	require.Contains(t, res.Notes, "toy: measured W = 1 settles in 2 operating modes over 5 repetitions (modes.arrow); the models are judged against their mixture's mean")

	// Modes are drawn as points of their own, with their intervals.
	mdt := dataset.NewTable(modesSchema, dataset.Provenance{Origin: dataset.Measured, Source: "test"})
	require.NoError(t, mdt.Append(int64(1), int64(0), 1.0, x1, 0.6, 0.01, 0.9))
	require.NoError(t, mdt.Append(int64(1), int64(1), 1.0, x1*1.25, 0.4, -1.0, 0.1))
	require.NoError(t, dataset.Write(filepath.Join(root, "datasets", "modes.arrow"), mdt, dataset.Allocator))
	res, err = runTput(t, root, inputs+"\nmds = \"datasets/modes.arrow\"", "figure = 13\n"+toyCase+"points = \"pts\"\nmodes = \"mds\"\n")
	require.NoError(t, err)
	var modeY []float64
	for i, s := range res.Table.Strings("series") {
		if s == "toy: operating modes" {
			modeY = append(modeY, res.Table.Floats("y")[i])
		}
	}
	require.Equal(t, []float64{x1, x1 * 1.25}, modeY)
	require.Contains(t, res.Notes, "toy: measured W = 1 mode 1: "+strconv.FormatFloat(x1*1.25, 'g', 4, 64)+" examples/s in 40% of the runs, step-start synchrony 0.10")
	require.Equal(t, m["error.excess.toy"], res.Metrics["error.excess.toy"], "modes are drawn, the mixture is judged")

	// A measured W without a point is an error naming the input.
	pt2 := dataset.NewTable(pointsSchema, dataset.Provenance{Origin: dataset.Measured, Source: "test"})
	require.NoError(t, pt2.Append(int64(1), 1.0, int64(5), 0.02, int64(1), "holds"))
	require.NoError(t, dataset.Write(filepath.Join(root, "datasets", "points.arrow"), pt2, dataset.Allocator))
	_, err = runTput(t, root, inputs, "figure = 13\n"+toyCase+"points = \"pts\"\n")
	require.ErrorContains(t, err, `input "pts" has no point for W = 2 of case "toy"`)
}

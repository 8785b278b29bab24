package measured

import (
	"fmt"
	"math"

	"pslab/engine/dataset"
)

// RunsFile is the per-run table of a testbed configuration directory
// (engine/testbed/collection.RunsSchema, accounting version 3 on).
const RunsFile = "runs.arrow"

// RunsSchema are the columns read from a testbed runs file.
var RunsSchema = &dataset.Schema{Name: "testbed-runs", Columns: []dataset.Column{
	{Name: "workers", Type: dataset.Int64, Rule: dataset.Positive},
	{Name: "repetition", Type: dataset.Int64, Rule: dataset.NonNegative},
	{Name: "throughput", Type: dataset.Float64, Rule: dataset.NonNegative, Unit: "examples/s"},
	{Name: "dilation", Type: dataset.Float64, Rule: dataset.Positive, Unit: "1"},
	{Name: "synchrony", Type: dataset.Float64, Rule: dataset.Any, Unit: "1"},
	{Name: "start_spread_s", Type: dataset.Float64, Rule: dataset.NonNegative, Unit: "s"},
}}

// Run is one unstretched throughput run of a testbed point.
type Run struct {
	Workers, Repetition int
	// Throughput is the run's time average, examples/s.
	Throughput float64
	// Synchrony is the signature of the operating mode the run settled
	// in (engine/testbed/analysis.Synchrony: 1 lockstep, 0 interleaved);
	// NaN where undefined.
	Synchrony float64
	// StartSpread is the latest less the earliest first step start of
	// the workers, s.
	StartSpread float64
}

// ReadRuns returns the unstretched runs (dilation 1) of a runs table, in
// table order.
func ReadRuns(t *dataset.Table) ([]Run, error) {
	var out []Run
	for i, k := range t.Floats("dilation") {
		if k != 1 {
			continue
		}
		r := Run{Workers: int(t.Ints("workers")[i]), Repetition: int(t.Ints("repetition")[i]), Throughput: t.Floats("throughput")[i],
			Synchrony: t.Floats("synchrony")[i], StartSpread: t.Floats("start_spread_s")[i]}
		if r.Synchrony < 0 {
			r.Synchrony = math.NaN() // −1: undefined
		}
		if r.Synchrony > 1 || math.IsInf(r.Throughput, 0) || math.IsInf(r.StartSpread, 0) {
			return nil, fmt.Errorf("%s row %d: synchrony %v, throughput %v, start spread %v s: want synchrony ≤ 1 and finite values",
				RunsFile, i+1, r.Synchrony, r.Throughput, r.StartSpread)
		}
		out = append(out, r)
	}
	return out, nil
}

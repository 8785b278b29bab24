package measured

import (
	"fmt"
	"math"

	"pslab/engine/dataset"
)

// RunsFile is the per-run table of a testbed configuration directory
// (engine/testbed/collection.RunsSchema).
const RunsFile = "runs.arrow"

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
// table order; nil for a table written before accounting version 3,
// which has no dilation, synchrony or start spread (its runs are
// ReadFacts' business, not a model's).
func ReadRuns(t *dataset.Table) ([]Run, error) {
	if t.Schema.Index("dilation") < 0 {
		return nil, nil
	}
	if err := requireColumns(t, RunsFile, []column{{"workers", dataset.Int64}, {"repetition", dataset.Int64}, {"throughput", dataset.Float64},
		{"dilation", dataset.Float64}, {"synchrony", dataset.Float64}, {"start_spread_s", dataset.Float64}}); err != nil {
		return nil, err
	}
	var out []Run
	for i, k := range t.Floats("dilation") {
		r := Run{Workers: int(t.Ints("workers")[i]), Repetition: int(t.Ints("repetition")[i]), Throughput: t.Floats("throughput")[i],
			Synchrony: t.Floats("synchrony")[i], StartSpread: t.Floats("start_spread_s")[i]}
		if !(k > 0) || math.IsInf(k, 0) || r.Workers < 1 || r.Repetition < 0 || !(r.Throughput >= 0) || math.IsInf(r.Throughput, 0) ||
			!(r.StartSpread >= 0) || math.IsInf(r.StartSpread, 0) || r.Synchrony > 1 {
			return nil, fmt.Errorf("%s row %d: W = %d, repetition %d, dilation %v, throughput %v, start spread %v s, synchrony %v: want W ≥ 1, a repetition ≥ 0, a dilation > 0, finite non-negative values and synchrony ≤ 1",
				RunsFile, i+1, r.Workers, r.Repetition, k, r.Throughput, r.StartSpread, r.Synchrony)
		}
		if k != 1 {
			continue
		}
		if r.Synchrony < 0 {
			r.Synchrony = math.NaN() // −1: undefined
		}
		out = append(out, r)
	}
	return out, nil
}

package measured

import (
	"fmt"
	"math"

	"pslab/engine/dataset"
)

// StepsSchema are the columns read from a testbed steps file.
var StepsSchema = &dataset.Schema{Name: "testbed-steps", Columns: []dataset.Column{
	{Name: "run", Type: dataset.String},
	{Name: "step", Type: dataset.Int64, Rule: dataset.NonNegative},
	{Name: "start_ns", Type: dataset.Int64, Rule: dataset.NonNegative, Unit: "ns"},
	{Name: "end_ns", Type: dataset.Int64, Rule: dataset.NonNegative, Unit: "ns"},
}}

// ProfileCycle is the mean step time in seconds of the 1-worker profiling
// run in a steps table, leaving out step 0 (warm-up).
func ProfileCycle(st *dataset.Table) (float64, error) {
	first, last, n := int64(math.MaxInt64), int64(0), 0
	for i, run := range st.Strings("run") {
		if run != "profile" || st.Ints("step")[i] == 0 {
			continue
		}
		first, last, n = min(first, st.Ints("start_ns")[i]), max(last, st.Ints("end_ns")[i]), n+1
	}
	if n == 0 || last <= first {
		return 0, fmt.Errorf("no profiling steps after step 0")
	}
	return float64(last-first) / float64(n) / 1e9, nil
}

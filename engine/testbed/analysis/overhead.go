package analysis

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat"
)

// Overhead is the parsing overhead model of icpe20 §3.2.1,
// overhead = Alpha·bytes + Beta, fitted from a profile.
type Overhead struct {
	Alpha float64 // seconds per byte
	Beta  float64 // seconds
	// Samples is the number of transfers fitted.
	Samples int
}

// FitOverhead estimates α and β the way icpe20 §3.2.1 does ("the time
// difference between TCP packets captured by tcpdump and the end of
// communication operations recorded by TensorFlow"): for every transfer
// the overhead is Available − LastByte (both on the receiver's clock),
// and α, β are the least-squares line through (Bytes, overhead), with
// both constrained to be ≥ 0 (a negative value is replaced by 0 and the
// other refitted), so the simulator never gets a negative overhead.
// Transfers without wire times are skipped.
func FitOverhead(ts []Transfer) (Overhead, error) {
	var xs, ys []float64
	for _, t := range ts {
		if t.LastByte <= 0 || t.Available < t.LastByte {
			continue
		}
		xs = append(xs, float64(t.Bytes))
		ys = append(ys, float64(t.Available-t.LastByte)/1e9)
	}
	if len(xs) < 2 {
		return Overhead{}, fmt.Errorf("testbed: overhead: %d transfers with wire times, need ≥ 2", len(xs))
	}
	o := Overhead{Samples: len(xs)}
	mean := stat.Mean(ys, nil)
	if stat.Variance(xs, nil) > 0 {
		o.Beta, o.Alpha = stat.LinearRegression(xs, ys, nil, false)
	} else {
		o.Beta = mean // all sizes equal: no slope
	}
	switch {
	case o.Alpha < 0:
		o.Alpha, o.Beta = 0, mean
	case o.Beta < 0:
		_, o.Alpha = stat.LinearRegression(xs, ys, nil, true) // through the origin: Σxy/Σx²
		o.Beta = 0
	}
	o.Alpha, o.Beta = math.Max(o.Alpha, 0), math.Max(o.Beta, 0)
	return o, nil
}

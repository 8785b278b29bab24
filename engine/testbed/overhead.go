package testbed

import (
	"fmt"
	"math"
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
	var n, sx, sy, sxx, sxy float64
	for _, t := range ts {
		if t.LastByte <= 0 || t.Available < t.LastByte {
			continue
		}
		x, y := float64(t.Bytes), float64(t.Available-t.LastByte)/1e9
		n++
		sx += x
		sy += y
		sxx += x * x
		sxy += x * y
	}
	if n < 2 {
		return Overhead{}, fmt.Errorf("testbed: overhead: %v transfers with wire times, need ≥ 2", n)
	}
	o := Overhead{Samples: int(n)}
	den := n*sxx - sx*sx
	if den > 0 {
		o.Alpha = (n*sxy - sx*sy) / den
		o.Beta = (sy - o.Alpha*sx) / n
	} else {
		o.Beta = sy / n // all sizes equal: no slope
	}
	switch {
	case o.Alpha < 0:
		o.Alpha, o.Beta = 0, sy/n
	case o.Beta < 0:
		o.Alpha, o.Beta = sxy/sxx, 0
	}
	o.Alpha, o.Beta = math.Max(o.Alpha, 0), math.Max(o.Beta, 0)
	return o, nil
}

package syncps

import "math"

// CompressionTime is the assumed compression-time function t_c(r_c) of the
// §V-C use case (ambiguity Z-11), in seconds, for a gradient of bytes bytes,
// compression rate rate = r_c ∈ [0, 1) (the fraction of packets removed) and
// cost κ in seconds/byte:
//
//	t_c = κ·bytes·(1/(1−r_c)² − 1).
//
// The paper only says t_c and r_c satisfy "the inverse square relationship";
// this form is an assumption of this package: t_c is inverse-square in the
// kept fraction 1−r_c, so it grows without bound as r_c → 1, and it is zero
// without compression. CompressionTime panics unless 0 ≤ rate < 1.
func CompressionTime(bytes int64, rate, cost float64) float64 {
	checkRate(rate)
	kept := 1 - rate
	return cost * float64(bytes) * (1/(kept*kept) - 1)
}

// CompressedPackets is the packet count after compression, PN ← PN·(1−r_c),
// rounded up to whole packets (products within 1e-9 relative of an integer
// count as that integer, so 10·(1−0.7) is 3, not 4). It panics unless
// 0 ≤ rate < 1.
func CompressedPackets(packets int64, rate float64) int64 {
	checkRate(rate)
	x := float64(packets) * (1 - rate)
	return int64(math.Ceil(x - 1e-9*x))
}

func checkRate(rate float64) {
	if !(rate >= 0 && rate < 1) {
		panic("syncps: compression rate outside [0, 1)")
	}
}

package syncps

// Granularity is Eq. 13 with the Definition 8 cap (ambiguity Z-8): the
// aggregation granularity G in packets,
//
//	G = ⌈PN/K⌉, or min(⌈PN/K⌉, maxPackets) if maxPackets > 0.
//
// packets is PN, the packets one worker sends for one layer, and servers is K.
// With maxPackets = 0 this is Eq. 13 as printed (rounded up to whole packets)
// and Rounds is 1. Granularity panics if servers < 1.
func Granularity(packets int64, servers int, maxPackets int64) int64 {
	if servers < 1 {
		panic("syncps: number of parameter servers < 1")
	}
	g := ceilDiv(packets, int64(servers))
	if maxPackets > 0 && g > maxPackets {
		g = maxPackets
	}
	return g
}

// Rounds is the factor ⌈PN/(G·K)⌉ of Eq. 18: how many granularities of g
// packets each of servers parameter servers aggregates for one layer. It is 0
// when packets or g is 0.
func Rounds(packets, g int64, servers int) int64 {
	if packets == 0 || g == 0 {
		return 0
	}
	return ceilDiv(packets, g*int64(servers))
}

// AggregationTime is Eq. 14, the time in seconds to aggregate one granularity
// of g packets: t_ag = a + b·G, with a in seconds and b in seconds/packet.
func AggregationTime(a, b float64, g int64) float64 {
	return a + b*float64(g)
}

// AggDelayMin is Eq. 15 with the pks factor (ambiguity Z-9): the smallest
// aggregation delay G·pks/B in seconds, for g packets of packetSize bytes at
// bandwidth bytes/s.
func AggDelayMin(g int64, packetSize, bandwidth float64) float64 {
	return float64(g) * packetSize / bandwidth
}

// AggDelayMax is Eq. 16 with the pks factor (Z-9): the largest aggregation
// delay (G + (N−1)(G−1))·pks/B = (N·G − N + 1)·pks/B in seconds, when the
// granularities of all workers arrive interleaved. It is 0 for g = 0.
func AggDelayMax(g int64, workers int, packetSize, bandwidth float64) float64 {
	if g == 0 {
		return 0
	}
	n := int64(workers)
	return float64(n*g-n+1) * packetSize / bandwidth
}

// AggDelay returns the aggregation delay t_ag-delay in seconds at position
// fraction ∈ [0, 1] of the range of Eq. 15–16, which the paper leaves as a
// "range tunable parameter" (Z-9): min + fraction·(max − min).
func AggDelay(g int64, workers int, packetSize, bandwidth, fraction float64) float64 {
	lo := AggDelayMin(g, packetSize, bandwidth)
	hi := AggDelayMax(g, workers, packetSize, bandwidth)
	return lo + fraction*(hi-lo)
}

// MaxAggregationTime is Eq. 18, the latest aggregation completion over all
// workers and parameter servers for one layer, in seconds:
//
//	max_n t_ag = t_ag-delay + N·⌈PN/(G·K)⌉·(a + b·G),
//
// where delay is t_ag-delay (seconds), rounds is ⌈PN/(G·K)⌉ (see Rounds),
// a is in seconds and b in seconds/packet. Each server aggregates the N
// workers' granularities one after another; the last worker's order
// c^{m,n,k} = N−1 gives the factor N.
func MaxAggregationTime(delay float64, workers int, rounds int64, a, b float64, g int64) float64 {
	return delay + float64(workers)*float64(rounds)*AggregationTime(a, b, g)
}

// ceilDiv is ⌈a/b⌉ for a ≥ 0, b > 0.
func ceilDiv(a, b int64) int64 {
	return (a + b - 1) / b
}

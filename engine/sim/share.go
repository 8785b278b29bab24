package sim

// Share computes the bandwidth fractions one worker receives in one
// direction (downlink or uplink) of the links to M parameter servers
// (icpe20 §3.1 and §5, CATALOGUE B.1.3, B.1.5, I-17).
//
// active[i] reports whether the worker has a running transfer with PS i in
// this direction; counts[i] is the number of workers, this one included,
// with a running transfer with PS i in this direction. Share writes to
// shares[i] the fraction of PS i's NIC bandwidth (in that direction) that
// the worker receives, and 0 where the worker is inactive:
//
//   - on a PS shared with others (counts[i] ≥ 2): 1/counts[i], equal sharing
//     of that PS's NIC;
//   - on a PS where the worker is alone (counts[i] = 1): what is left of the
//     worker's own NIC, max(R/k, 1/m), where R = 1 − Σ 1/counts[j] over the
//     shared PSs, k is the number of PSs where the worker is alone and m the
//     number of PSs it is active with.
//
// With one PS this is 1/n (Algorithm 3.1, SHARE). With two PSs it is the
// rule of §5: alone on ps₁ and contending with n−1 others on ps₂ gives 1/n on
// ps₂ and 1 − 1/n on ps₁. The degenerate cases (I-17) follow from the same
// formula: alone on both PSs gives 1/2 each (the worker NIC is split
// equally, not 1 − 1 = 0 as the literal text would give); alone everywhere
// else gives 1. The floor 1/m only matters for M ≥ 3 (shared PSs whose
// shares already sum to 1 or more) and keeps every active transfer moving.
// All NICs are assumed to have equal speed (I-17).
//
// Share panics if the slices differ in length or if an active PS has a
// count below 1.
func Share(active []bool, counts []int, shares []float64) {
	if len(active) != len(counts) || len(active) != len(shares) {
		panic("sim: Share: active, counts and shares differ in length")
	}
	alone, m := 0, 0
	rest := 1.0
	for i, a := range active {
		if !a {
			continue
		}
		m++
		switch {
		case counts[i] < 1:
			panic("sim: Share: active PS with count below 1")
		case counts[i] == 1:
			alone++
		default:
			rest -= 1 / float64(counts[i])
		}
	}
	aloneShare := 0.0
	if alone > 0 {
		aloneShare = max(rest/float64(alone), 1/float64(m))
	}
	for i, a := range active {
		switch {
		case !a:
			shares[i] = 0
		case counts[i] == 1:
			shares[i] = aloneShare
		default:
			shares[i] = 1 / float64(counts[i])
		}
	}
}

package syncps

import (
	"fmt"
	"math"
)

// Packets returns PN, the number of packets needed to send bytes bytes in
// packets of packetSize bytes of payload: ⌈bytes/packetSize⌉. It panics if
// packetSize ≤ 0.
func Packets(bytes int64, packetSize float64) int64 {
	if !(packetSize > 0) {
		panic("syncps: non-positive packet size")
	}
	return int64(math.Ceil(float64(bytes) / packetSize))
}

// NonBarrierTime is Eq. 10, the time in seconds to send packets packets of
// packetSize bytes over a non-barrier link of bandwidth bytes/s:
//
//	t = t_base-delay + α·PN·pks/B.
//
// baseDelay is in seconds and alpha is the dimensionless protocol factor.
func NonBarrierTime(baseDelay, alpha float64, packets int64, packetSize, bandwidth float64) float64 {
	return baseDelay + alpha*float64(packets)*packetSize/bandwidth
}

// MM1Sojourn returns the mean time in an M/M/1 queue, 1/(μ−λ) seconds, for
// service rate mu and arrival rate lambda in packets/s. It returns an error
// "syncps: barrier link unstable: ..." unless μ > λ, and an error for negative
// or non-finite rates.
func MM1Sojourn(mu, lambda float64) (float64, error) {
	if err := checkNonNegative("service rate μ", mu); err != nil {
		return 0, fmt.Errorf("syncps: barrier link: %w", err)
	}
	if err := checkNonNegative("arrival rate λ", lambda); err != nil {
		return 0, fmt.Errorf("syncps: barrier link: %w", err)
	}
	if mu <= lambda {
		return 0, fmt.Errorf("syncps: barrier link unstable: service rate μ = %g ≤ arrival rate λ = %g packets/s", mu, lambda)
	}
	return 1 / (mu - lambda), nil
}

// ForwardTime is Eq. 11, the forwarding time in seconds at a barrier link
// modelled as M/M/1 with μ = S_f and λ = 1/B as printed:
//
//	t_forward = 1/(S_f − 1/B) = B/(S_f·B − 1).
//
// switchRate S_f and bandwidthPackets B are both in packets/s (B = B_bytes/pks;
// ambiguity Z-7). The printed λ = 1/B is kept as a number: with any realistic
// S_f·B ≫ 1 the result is ≈ 1/S_f. It returns an error
// "syncps: barrier link unstable: ..." if S_f·B ≤ 1.
func ForwardTime(switchRate, bandwidthPackets float64) (float64, error) {
	if err := checkPositive("switch rate S_f", switchRate); err != nil {
		return 0, fmt.Errorf("syncps: barrier link: %w", err)
	}
	if err := checkPositive("bandwidth B", bandwidthPackets); err != nil {
		return 0, fmt.Errorf("syncps: barrier link: %w", err)
	}
	if switchRate*bandwidthPackets <= 1 {
		return 0, fmt.Errorf("syncps: barrier link unstable: S_f·B = %g ≤ 1 (S_f = %g packets/s, B = %g packets/s)",
			switchRate*bandwidthPackets, switchRate, bandwidthPackets)
	}
	return MM1Sojourn(switchRate, 1/bandwidthPackets)
}

// BarrierTime is Eq. 12, the time in seconds through hops barrier-link hops:
// t_barrier = t_forward·h.
func BarrierTime(forward float64, hops int) float64 {
	return forward * float64(hops)
}

// LinkSide says which links of the one-switch topology of Fig. 1 are the
// barrier links.
type LinkSide int

const (
	// PSSide: the links from the top-of-rack switch to the parameter
	// servers. They carry forward communication (worker→PS).
	PSSide LinkSide = iota
	// WorkerSide: the links from the top-of-rack switch to the workers.
	// They carry backward communication (PS→worker).
	WorkerSide
)

// String returns "ps-side" or "worker-side".
func (s LinkSide) String() string {
	switch s {
	case PSSide:
		return "ps-side"
	case WorkerSide:
		return "worker-side"
	}
	return fmt.Sprintf("LinkSide(%d)", int(s))
}

// BarrierLinks is the barrier-link selector of Fig. 1 (Definition 7): with
// fewer parameter servers than workers (K < N) the barrier links are the
// switch→PS links, otherwise the switch→worker links.
func BarrierLinks(workers, servers int) LinkSide {
	if servers < workers {
		return PSSide
	}
	return WorkerSide
}

package network

import (
	"math"
	"time"
)

// Link is how Shape shapes every emulated NIC of a run.
type Link struct {
	// Rate is the NIC rate in each direction (bytes/s).
	Rate float64
	// Dilation is the factor k ≥ 1 by which the run stretches every time
	// (time dilation, engine/testbed doc "Dilation sensitivity"; 0 means
	// 1): Rate is then the configuration's rate ÷ k, and the network's own
	// time constants are stretched with it where they can be set. The
	// shaper's burst and queues stay the same in bytes (BurstBytes;
	// queueLimit), so at Rate they last k times as long, as the
	// configuration's compute and transfers do; TCP's minimum
	// retransmission timeout becomes k·TCPMinRTO (RTOMin; namespaces only,
	// a route attribute). Not stretched: the delayed-ACK timer (40 ms to
	// 200 ms, no per-namespace setting), HTB's timer granularity, and
	// everything the loopback fallback's processes share with the host's
	// own TCP.
	Dilation float64
}

// TCPMinRTO is Linux's minimum retransmission timeout (TCP_RTO_MIN).
const TCPMinRTO = 200 * time.Millisecond

func (l Link) dilation() float64 { return max(1, l.Dilation) }

// BurstBytes is the burst of every shaper class on network mode (B): 1 ms
// of traffic at the unstretched rate (Rate·Dilation), at least two full
// frames (namespaces) or one 16 KiB HTTP/2 frame (loopback).
func (l Link) BurstBytes(mode string) float64 {
	r := l.Rate * l.dilation()
	if IsNetns(mode) {
		return max(2*frameBytes, r*1e-3)
	}
	return max(16*1024, r*1e-3)
}

// RTOMin is TCP's minimum retransmission timeout on the link's hosts:
// TCPMinRTO × Dilation, rounded up to the millisecond.
func (l Link) RTOMin() time.Duration {
	ms := math.Ceil(l.dilation() * float64(TCPMinRTO/time.Millisecond))
	return time.Duration(ms) * time.Millisecond
}

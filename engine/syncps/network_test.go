package syncps

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestPackets(t *testing.T) {
	t.Parallel()
	require.Equal(t, int64(0), Packets(0, 1460))
	require.Equal(t, int64(1), Packets(1, 1460))
	require.Equal(t, int64(1), Packets(1460, 1460))
	require.Equal(t, int64(2), Packets(1461, 1460))
	require.Panics(t, func() { Packets(10, 0) })
}

func TestNonBarrierTimeEq10(t *testing.T) {
	t.Parallel()
	// 1 ms + 1.5 · 1000 packets · 1000 B / 1e6 B/s = 1.501 s.
	require.InDelta(t, 1.501, NonBarrierTime(1e-3, 1.5, 1000, 1000, 1e6), 1e-12)
	require.Equal(t, 2e-3, NonBarrierTime(2e-3, 1.5, 0, 1000, 1e6))
}

func TestForwardTimeEq11(t *testing.T) {
	t.Parallel()
	// S_f = 3, B = 2 packets/s: 1/(3 − 1/2) = B/(S_f·B − 1) = 2/5.
	got, err := ForwardTime(3, 2)
	require.NoError(t, err)
	require.InDelta(t, 0.4, got, 1e-15)
	require.InDelta(t, 2.0/(3*2-1), got, 1e-15)
	// Realistic rates: ≈ 1/S_f.
	got, err = ForwardTime(1e8, 1.25e8/1460)
	require.NoError(t, err)
	require.InDelta(t, 1e-8, got, 1e-18)
}

func TestForwardTimeUnstable(t *testing.T) {
	t.Parallel()
	_, err := ForwardTime(0.5, 2) // S_f·B = 1
	require.ErrorContains(t, err, "syncps: barrier link unstable: S_f·B = 1 ≤ 1")
	_, err = ForwardTime(0.1, 2)
	require.ErrorContains(t, err, "barrier link unstable")
	_, err = ForwardTime(0, 2)
	require.ErrorContains(t, err, "switch rate S_f must be finite and > 0, got 0")
	_, err = ForwardTime(1, nan())
	require.ErrorContains(t, err, "bandwidth B must be finite")
}

func TestMM1Sojourn(t *testing.T) {
	t.Parallel()
	got, err := MM1Sojourn(10, 6)
	require.NoError(t, err)
	require.InDelta(t, 0.25, got, 1e-15)
	_, err = MM1Sojourn(5, 5)
	require.ErrorContains(t, err, "syncps: barrier link unstable: service rate μ = 5 ≤ arrival rate λ = 5 packets/s")
	_, err = MM1Sojourn(5, -1)
	require.ErrorContains(t, err, "arrival rate λ must be finite and ≥ 0")
}

func TestBarrierTimeEq12(t *testing.T) {
	t.Parallel()
	require.InDelta(t, 1.2, BarrierTime(0.4, 3), 1e-15)
	require.Equal(t, 0.0, BarrierTime(0.4, 0))
}

func TestBarrierLinksFig1(t *testing.T) {
	t.Parallel()
	require.Equal(t, PSSide, BarrierLinks(3, 1))
	require.Equal(t, PSSide, BarrierLinks(8, 7))
	require.Equal(t, WorkerSide, BarrierLinks(3, 3))
	require.Equal(t, WorkerSide, BarrierLinks(2, 4))
	require.Equal(t, "ps-side", PSSide.String())
	require.Equal(t, "worker-side", WorkerSide.String())
	require.Equal(t, "LinkSide(7)", LinkSide(7).String())
}

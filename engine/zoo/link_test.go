package zoo

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

func runLink(streams []stream, conns int, bw, win float64) []float64 {
	var s linkSim
	done := make([]float64, len(streams))
	s.run(streams, conns, bw, win, done)
	return done
}

// TestLinkChunkRuleFig12 hand-computes the chunk rule with WIN = 3 and
// five streams A..E of 2, 5, 4, 1, 7 bytes at 1 byte/s, all requested at 0:
// A 0–2; B 2–5 (3, preempted); C 5–8 (3, preempted); D 8–9; E 9–12 (3,
// preempted); B 12–14; C 14–15; E 15–19.
func TestLinkChunkRuleFig12(t *testing.T) {
	t.Parallel()
	var st []stream
	for _, b := range []float64{2, 5, 4, 1, 7} {
		st = append(st, stream{bytes: b})
	}
	require.Equal(t, []float64{2, 14, 15, 9, 19}, runLink(st, 1, 1, 3))
	// Flow control off: whole streams FIFO.
	require.Equal(t, []float64{2, 7, 11, 12, 19}, runLink(st, 1, 1, 0))
}

func TestLinkReleasesAndTies(t *testing.T) {
	t.Parallel()
	// X (5 B) at 0 sends 3 B until t = 3 and is preempted exactly when Y
	// (2 B) is requested: X re-enters first, so X ends at 5 and Y at 7.
	st := []stream{{bytes: 5}, {release: 3, bytes: 2}}
	require.Equal(t, []float64{5, 7}, runLink(st, 1, 1, 3))
	// An idle gap: Z requested at 10 after X finished at 5.
	st = []stream{{bytes: 5}, {release: 10, bytes: 2}}
	require.Equal(t, []float64{5, 12}, runLink(st, 1, 1, 3))
	// Requests out of index order are queued by release time.
	st = []stream{{release: 4, bytes: 1}, {release: 1, bytes: 2}}
	require.Equal(t, []float64{5, 3}, runLink(st, 1, 1, 0))
}

// TestLinkTwoConnectionsShare: two PS connections share the worker's NIC,
// 1/2 each while both are busy. ps0 streams 2 and 16 B, ps1 streams 4 and
// 8 B, 1 B/s, no window: ps0's 2 B ends at 4 (2 B of ps1's 4 B sent);
// ps1's 4 B ends at 8; ps1's 8 B at 24 (ps0's 16 B has 6 B left) and ps0's
// 16 B at 30 = total bytes / bandwidth.
func TestLinkTwoConnectionsShare(t *testing.T) {
	t.Parallel()
	st := []stream{{conn: 0, bytes: 2}, {conn: 1, bytes: 4}, {conn: 0, bytes: 16}, {conn: 1, bytes: 8}}
	require.Equal(t, []float64{4, 8, 30, 24}, runLink(st, 2, 1, 0))
}

// TestLinkProperties: with all streams requested at 0 the worker's NIC
// never idles, so the last arrival is total/bandwidth for any number of
// connections; every stream arrives no
// earlier than its own bytes/bandwidth; a window larger than every stream
// equals flow control off.
func TestLinkProperties(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(7, 8))
	for trial := 0; trial < 200; trial++ {
		n := 1 + rng.IntN(30)
		conns := 1 + rng.IntN(3)
		st := make([]stream, n)
		total := 0.0
		for i := range st {
			st[i] = stream{conn: rng.IntN(conns), bytes: float64(1 + rng.IntN(1000))}
			total += st[i].bytes
		}
		bw := 100.0
		win := float64(rng.IntN(500))
		done := runLink(st, conns, bw, win)
		last := 0.0
		for i, d := range done {
			require.GreaterOrEqual(t, d, st[i].bytes/bw*(1-1e-12))
			last = max(last, d)
		}
		require.InDelta(t, total/bw, last, 1e-9)
		require.Equal(t, runLink(st, conns, bw, 0), runLink(st, conns, bw, 2000))
	}
}

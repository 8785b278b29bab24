package sim

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func share(active []bool, counts []int) []float64 {
	out := make([]float64, len(active))
	Share(active, counts, out)
	return out
}

func TestShareOnePS(t *testing.T) {
	t.Parallel()
	// Algorithm 3.1 SHARE: 1/active[r].
	for n := 1; n <= 5; n++ {
		require.InDelta(t, 1/float64(n), share([]bool{true}, []int{n})[0], 1e-15, "n=%d", n)
	}
	require.Equal(t, []float64{0}, share([]bool{false}, []int{3}))
}

func TestShareTwoPS(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		active []bool
		counts []int
		want   []float64
	}{
		// §5: alone on ps1, contending with n−1 = 2 others on ps2: 1/3 and 1 − 1/3.
		{"alone on ps1, 3 on ps2", []bool{true, true}, []int{1, 3}, []float64{2.0 / 3, 1.0 / 3}},
		{"alone on ps2, 2 on ps1", []bool{true, true}, []int{2, 1}, []float64{1.0 / 2, 1.0 / 2}},
		// I-17 degenerate: alone on both gives 1/2 each, not 1 − 1 = 0.
		{"alone on both", []bool{true, true}, []int{1, 1}, []float64{0.5, 0.5}},
		{"contended on both", []bool{true, true}, []int{2, 4}, []float64{0.5, 0.25}},
		{"only ps1, alone", []bool{true, false}, []int{1, 5}, []float64{1, 0}},
		{"only ps2, shared", []bool{false, true}, []int{0, 4}, []float64{0, 0.25}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			got := share(c.active, c.counts)
			require.InDeltaSlice(t, c.want, got, 1e-15)
		})
	}
}

func TestShareGeneralM(t *testing.T) {
	t.Parallel()
	// M = 3: alone on ps0, 2 on ps1, 8 on ps2: rest = 1 − 1/2 − 1/8 = 3/8 ≥ 1/3.
	require.InDeltaSlice(t, []float64{0.375, 0.5, 0.125}, share([]bool{true, true, true}, []int{1, 2, 8}), 1e-15)
	// rest = 1 − 1/2 − 1/4 = 1/4 < 1/m = 1/3: the floor applies.
	require.InDeltaSlice(t, []float64{1.0 / 3, 0.5, 0.25}, share([]bool{true, true, true}, []int{1, 2, 4}), 1e-15)
	// Alone on two of three: the rest 1 − 1/4 is split, 3/8 each.
	require.InDeltaSlice(t, []float64{0.375, 0.375, 0.25}, share([]bool{true, true, true}, []int{1, 1, 4}), 1e-15)
	// Shared PSs already use the whole NIC: the alone PS gets the floor 1/m = 1/3.
	require.InDeltaSlice(t, []float64{1.0 / 3, 0.5, 0.5}, share([]bool{true, true, true}, []int{1, 2, 2}), 1e-15)
	// Property: a worker alone somewhere never exceeds its NIC unless the
	// floor applies, and every active share is positive.
	for mask := 1; mask < 1<<4; mask++ {
		for c0 := 1; c0 <= 3; c0++ {
			act := []bool{mask&1 != 0, mask&2 != 0, mask&4 != 0, mask&8 != 0}
			cnt := []int{c0, 1, 2, c0 + 1}
			got := share(act, cnt)
			sum, k, m, rest := 0.0, 0, 0, 1.0
			for i, a := range act {
				if !a {
					require.Zero(t, got[i])
					continue
				}
				require.Positive(t, got[i])
				sum += got[i]
				m++
				if cnt[i] == 1 {
					k++
				} else {
					rest -= 1 / float64(cnt[i])
					require.InDelta(t, 1/float64(cnt[i]), got[i], 1e-15)
				}
			}
			for i, a := range act {
				if a && cnt[i] == 1 {
					if rest/float64(k) >= 1/float64(m) {
						require.InDelta(t, 1, sum, 1e-12, "mask %b counts %v shares %v", mask, cnt, got)
					} else {
						require.InDelta(t, 1/float64(m), got[i], 1e-15)
					}
				}
			}
		}
	}
}

func TestSharePanics(t *testing.T) {
	t.Parallel()
	require.PanicsWithValue(t, "sim: Share: active, counts and shares differ in length", func() {
		Share([]bool{true}, []int{1, 2}, make([]float64, 1))
	})
	require.PanicsWithValue(t, "sim: Share: active PS with count below 1", func() {
		Share([]bool{true}, []int{0}, make([]float64, 1))
	})
}

// TestFig9ThreeActive is the icpe20-fig9 check: with active = 3, a chunk
// with 3 units of full-rate work finishes after 9 time units.
func TestFig9ThreeActive(t *testing.T) {
	t.Parallel()
	b := newStep().op("d", "downlink", 3, 0).op("f", "worker", 0, 1, "d")
	ss, _, err := spans(traceOf(1, 0, b.step()), Config{Workers: 3, Steps: 1, Warmup: NoWarmup, Overhead: &Overhead{}, Link: Link{Mode: WholeStream}})
	require.NoError(t, err)
	for w := range 3 {
		require.InDelta(t, 9, endOf(ss, w, 0, "d"), 1e-12)
		require.InDelta(t, 10, endOf(ss, w, 0, "f"), 1e-12)
	}
}

// TestSharingChangesOverTime: shares follow the active count as
// transfers start and end (Fig. 9/7: 1/2 while both are active, 1 alone).
func TestSharingChangesOverTime(t *testing.T) {
	t.Parallel()
	// Two steps in the trace: a short (1 unit) and a long (3 units) downlink.
	short := newStep().op("d", "downlink", 1, 0).op("f", "worker", 0, 10, "d").step()
	long := newStep().op("d", "downlink", 3, 0).op("f", "worker", 0, 10, "d").step()
	tr := traceOf(1, 0, short, long)
	// Find a seed whose first samples differ between workers 0 and 1.
	for seed := uint64(0); seed < 64; seed++ {
		ss, _, err := spans(tr, Config{Workers: 2, Steps: 1, Warmup: NoWarmup, Seed: seed, Overhead: &Overhead{}, Link: Link{Mode: WholeStream}})
		require.NoError(t, err)
		e0, e1 := endOf(ss, 0, 0, "d"), endOf(ss, 1, 0, "d")
		if e0 == e1 {
			continue // same sample
		}
		// Short one: 1 unit at 1/2 → ends at 2. Long one: 2 − 1 = 1 unit
		// done at 1/2, then 2 units alone → ends at 4.
		require.InDelta(t, 2, min(e0, e1), 1e-12)
		require.InDelta(t, 4, max(e0, e1), 1e-12)
		return
	}
	t.Fatal("no seed sampled different steps")
}

// TestTwoPSSim checks the §5 rule inside the simulator with W = 2, M = 2.
func TestTwoPSSim(t *testing.T) {
	t.Parallel()
	// One worker alone with both PSs: I-17, 1/2 each: 2 units take 4.
	b := newStep().
		op("a", "downlink", 2, 0).op("b", "downlink:1", 2, 0).
		op("f", "worker", 0, 1, "a", "b")
	tr := traceOf(1, 0, b.step())
	tr.Meta.Servers = 2
	ss, _, err := spans(tr, Config{Workers: 1, Steps: 1, Warmup: NoWarmup, Overhead: &Overhead{}, Link: Link{Mode: WholeStream}})
	require.NoError(t, err)
	require.InDelta(t, 4, endOf(ss, 0, 0, "a"), 1e-12)
	require.InDelta(t, 4, endOf(ss, 0, 0, "b"), 1e-12)

	// Two workers, each with 3 units from ps0 and 1 unit from ps1: n = 2
	// on both PSs, 1/2 each (no cap, the sum is 1). b ends at 2 with 1
	// unit of a done; the other 2 units at 1/2 end at 6.
	b2 := newStep().
		op("a", "downlink", 3, 0).op("b", "downlink:1", 1, 0).
		op("f", "worker", 0, 1, "a", "b")
	tr2 := traceOf(1, 0, b2.step())
	ss, _, err = spans(tr2, Config{Workers: 2, Steps: 1, Warmup: NoWarmup, Overhead: &Overhead{}, Link: Link{Mode: WholeStream}})
	require.NoError(t, err)
	for w := range 2 {
		require.InDelta(t, 2, endOf(ss, w, 0, "b"), 1e-12)
		require.InDelta(t, 6, endOf(ss, w, 0, "a"), 1e-12)
	}
}

// TestTwoPSCap: a worker alone on ps1 while both workers use ps0 gets
// 1 − 1/2 on ps1 (§5 special case with n = 2).
func TestTwoPSCap(t *testing.T) {
	t.Parallel()
	// Bandwidth 1000 B/s. Both workers start with a (4000 B from ps0) and
	// s (1 B from ps1); then g computes (0 s in step x, 100 s in step y)
	// and b (1000 B from ps1) follows g.
	mk := func(g float64) *stepBuilder {
		return newStep().op("a", "downlink", 4000, 0).op("s", "downlink:1", 1, 0).
			op("g", "worker", 0, g, "s").op("b", "downlink:1", 1000, 0, "g").
			op("f", "worker", 0, 0, "a", "b")
	}
	tr := traceOf(1000, 0, mk(0).step(), mk(100).step())
	tr.Meta.Servers = 2
	for seed := uint64(0); seed < 64; seed++ {
		ss, _, err := spans(tr, Config{Workers: 2, Steps: 1, Warmup: NoWarmup, Seed: seed, Overhead: &Overhead{}, Link: Link{Mode: WholeStream}})
		require.NoError(t, err)
		gEnd := []float64{0, 0}
		for _, s := range ss {
			if s.Name == "g" {
				gEnd[s.Worker] = s.End
			}
		}
		if (gEnd[0] > 50) == (gEnd[1] > 50) {
			continue // both sampled the same step
		}
		wx := 0
		if gEnd[0] > 50 {
			wx = 1
		}
		// s: 1 B at 1/2 (both on ps1) ends at 0.002 s. Then worker wx is
		// alone on ps1 but shares ps0 with the other: 1 − 1/2 on ps1, so
		// b takes 2 s (1 s if the cap were missing).
		require.InDelta(t, 0.002, endOf(ss, wx, 0, "s"), 1e-12)
		require.InDelta(t, 2.002, endOf(ss, wx, 0, "b"), 1e-12)
		// ps0: both at 1/2 all along: 4 s of work take 8 s.
		require.InDelta(t, 8, endOf(ss, wx, 0, "a"), 1e-12)
		require.InDelta(t, 8, endOf(ss, 1-wx, 0, "a"), 1e-12)
		return
	}
	t.Fatal("no seed sampled one x and one y")
}

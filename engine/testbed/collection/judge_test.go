package collection

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// runs returns one RunFacts per throughput in xs for W = w at dilation k,
// with the given contention.
func runs(w int, k, contention float64, xs ...float64) []RunFacts {
	out := make([]RunFacts, len(xs))
	for i, x := range xs {
		out[i] = RunFacts{Workers: w, Repetition: i, Dilation: k, Throughput: x, Contention: contention}
	}
	return out
}

func concat(parts ...[]RunFacts) []RunFacts {
	var out []RunFacts
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

var judgeIn = JudgeInput{Batch: 32, Average: 30, Unscaled: 0.02, Dilations: []float64{2, 4}}

// The unstretched point W = 7 (highest contention) agrees with its ×2
// runs; W = 1 and 4, at lower contention, are covered by it; a point at
// higher contention than every stretched point is unjudged.
func TestJudgeDilationAgreesAndCovers(t *testing.T) {
	t.Parallel()
	facts := concat(
		runs(1, 1, 0.01, 1000, 1002, 998),
		runs(4, 1, 0.10, 3000, 3010, 2990),
		runs(7, 1, 0.25, 4000, 4020, 3980),
		runs(7, 2, 0.05, 4010, 3990, 4000),
	)
	points, stretched := Judge(facts, judgeIn)
	require.Len(t, points, 3)
	require.Len(t, stretched, 1)
	for _, p := range points {
		require.True(t, p.Holds(), "W=%d: %s %v", p.Workers, p.Unjudged, p.Why)
		require.Equal(t, VerdictHolds, p.Verdict())
	}
	require.Equal(t, VerdictAgrees, stretched[0].Verdict())
	require.Contains(t, points[2].Sensitivity, "×2: +0.0% (joint")
	require.Contains(t, points[0].Sensitivity, "covered by W=7 (contention 25.0% ≥ 1.0%)")

	// W = 6 at 30% contention, above the stretched W = 7's 25%
	points, _ = Judge(concat(facts, runs(6, 1, 0.30, 3900, 3905, 3895)), judgeIn)
	require.Equal(t, VerdictUnjudged, points[2].Verdict())
	require.Contains(t, points[2].Unjudged, "contention 30.0% is above that of every W whose stretched runs agree")

	// no stretched runs at all: everything unjudged
	points, _ = Judge(facts[:9], judgeIn)
	for _, p := range points {
		require.Equal(t, "no stretched runs in the dataset", p.Unjudged)
	}
}

// A stretched point outside the joint interval makes its point and the
// points it would cover fail or be unjudged.
func TestJudgeDilationMoves(t *testing.T) {
	t.Parallel()
	facts := concat(
		runs(3, 1, 0.05, 2000, 2004, 1996),
		runs(7, 1, 0.25, 4000, 4020, 3980),
		runs(7, 2, 0.05, 3700, 3690, 3710),
		runs(7, 4, 0.02, 3705, 3695, 3700),
	)
	points, stretched := Judge(facts, judgeIn)
	require.Equal(t, VerdictMoves, stretched[0].Verdict())
	require.Equal(t, VerdictFails, points[1].Verdict())
	require.Contains(t, strings.Join(points[1].Why, ";"), "moves under ×2 dilation: -7.5% outside the joint ±")
	require.Equal(t, VerdictUnjudged, points[0].Verdict(), "W = 7 moves, so it covers nothing")
}

// Where ×2 moves more than its own interval but within the joint one,
// ×4 decides; without it the point is unjudged.
func TestJudgeSecondDilationDecides(t *testing.T) {
	t.Parallel()
	base := runs(7, 1, 0.25, 4000, 4080, 3920, 4040, 3960)
	x2 := runs(7, 2, 0.05, 4050, 4052, 4048)
	points, _ := Judge(concat(base, x2), judgeIn)
	require.Equal(t, VerdictUnjudged, points[0].Verdict())
	require.Contains(t, points[0].Unjudged, "×2 moved +1.2%, more than its own ±0.1%, and ×4 was not measured")
	points, _ = Judge(concat(base, x2), JudgeInput{Batch: 32, Average: 30, Dilations: []float64{2}})
	require.Equal(t, VerdictHolds, points[0].Verdict(), "no ×4 configured: ×2 within the joint interval settles it")
	points, _ = Judge(concat(base, x2, runs(7, 4, 0.02, 4010, 3990, 4000)), judgeIn)
	require.Equal(t, VerdictHolds, points[0].Verdict(), "%v %s", points[0].Why, points[0].Unjudged)
	require.Contains(t, points[0].Sensitivity, "×2: +1.2%")
	require.Contains(t, points[0].Sensitivity, "; ×4: +0.0%")
}

// Precision: a point's CI over its runs must be within ±3%, unless its
// runs fall into modes each known within ±3%; limits of any run fail it.
func TestJudgePrecisionModesAndLimits(t *testing.T) {
	t.Parallel()
	stretch := runs(1, 2, 0, 1000, 1000, 1000)
	wide := runs(1, 1, 0, 900, 1100, 1000)
	points, _ := Judge(concat(wide, stretch), judgeIn)
	require.Equal(t, VerdictFails, points[0].Verdict())
	require.Contains(t, points[0].Why[0], "CI ±24.8% over 3 repetitions > ±3%")

	// two operating modes, 4 runs near 2,750 and 3 near 3,590
	modal := runs(1, 1, 0, 2760, 3580, 2740, 3600, 2750, 2755, 3590)
	points, _ = Judge(concat(modal, runs(1, 2, 0, 3110, 3111, 3109)), judgeIn)
	p := points[0]
	require.Len(t, p.Modes, 2)
	require.Greater(t, p.CI, 0.03, "the mixture's mean is not within ±3%")
	require.True(t, p.Holds(), "%v", p.Why)
	require.InDelta(t, 4.0/7, p.Modes[0].Frequency, 1e-12)
	require.Equal(t, []int{0, 2, 4, 5}, p.Modes[0].Runs)

	over := runs(1, 1, 0, 1000, 1001, 999)
	over[1].Retrans, over[2].Other = 0.002, 0.5
	points, _ = Judge(concat(over, stretch), judgeIn)
	require.Equal(t, []string{"0.20% of TCP segments retransmitted > 0.1%", "other work 0.50 cores > 0.25"}, points[0].Why)
	bad := runs(1, 2, 0, 1000, 1001, 999)
	bad[0].Retrans = 0.01
	points, _ = Judge(concat(runs(1, 1, 0, 1000, 1001, 999), bad), judgeIn)
	require.Equal(t, []string{"×2 runs: 1.00% of TCP segments retransmitted > 0.1%"}, points[0].Why, "a stretched run's retransmissions are the artefact")
}

// The retransmission limit judges what the receivers did not report as
// duplicates when the runs counted D-SACKs (accounting version 4), and
// every retransmission when they did not (version 3).
func TestJudgeRetransmissionsNetOfDSACK(t *testing.T) {
	t.Parallel()
	build := func(dsack bool) []RunFacts {
		facts := concat(runs(2, 1, 0.05, 2000, 2002, 1998), runs(2, 2, 0.01, 2001, 1999, 2000))
		for i := range facts {
			facts[i].Retrans, facts[i].Lost, facts[i].DSACK = 0.002, 0.0002, dsack
			if !dsack {
				facts[i].Lost = facts[i].Retrans
			}
		}
		return facts
	}
	points, _ := Judge(build(true), judgeIn)
	require.True(t, points[0].Holds(), "0.02%% not D-SACKed: %v", points[0].Why)
	points, _ = Judge(build(false), judgeIn)
	require.Equal(t, []string{"0.20% of TCP segments retransmitted > 0.1%", "×2 runs: 0.20% of TCP segments retransmitted > 0.1%"}, points[0].Why)
	facts := build(true)
	facts[4].Lost = 0.0015 // one stretched run lost 0.15%
	points, _ = Judge(facts, judgeIn)
	require.Contains(t, points[0].Why, "×2 runs: 0.15% of TCP segments retransmitted and not reported duplicate (D-SACK) > 0.1%")
}

package collection

import (
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v17/arrow/memory"
	"github.com/stretchr/testify/require"

	"pslab/engine/testbed/analysis"
)

// verify exits 0 when every point holds and prints, per point, the
// interval over repetitions, the modes, the dilation sensitivity and the
// diagnostics.
func TestVerifyHoldsAndFails(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	o := stretchedOutcome(t)
	o.Judge()
	require.NoError(t, o.Write(filepath.Join(root, o.Config.Name), Host{}, memory.NewGoAllocator()))
	var out strings.Builder
	require.NoError(t, Verify(root, &out), out.String())
	for _, want := range []string{
		"smoke (accounting version " + AcctVersion, "2 of 2 points hold", "retrans    lost",
		"modes untested (3 runs < 4) | not stretched; covered by W=2 (contention 2.0% ≥ 1.0%) | HOLDS",
		"2×2", "| agrees\n",
		"1 configurations, 2 points: 2 hold, 0 unjudged, 0 break",
	} {
		require.Contains(t, out.String(), want)
	}

	// the stretched runs 10% slower: W = 2 moves, W = 1 is left unjudged
	for i := range o.Runs {
		if o.Runs[i].Dilation == 2 {
			o.Runs[i].Throughput *= 0.9
		}
	}
	require.NoError(t, o.Write(filepath.Join(root, o.Config.Name), Host{}, memory.NewGoAllocator()))
	out.Reset()
	err := Verify(root, &out)
	require.ErrorContains(t, err, "1 of 1 configurations do not hold: 0 of 2 points hold, 1 unjudged, 1 break the interval, a limit or dilation: smoke")
	require.Contains(t, out.String(), "FAILS: moves under ×2 dilation: -10.0% outside the joint ±")
	require.Contains(t, out.String(), "| moves\n")
}

// The committed datasets predate dilation: verify fails, naming every
// point unjudged and why.
func TestVerifyCommittedVersion2IsUnjudged(t *testing.T) {
	t.Parallel()
	lines, err := VerifyDir("../../../datasets/testbed")
	require.NoError(t, err)
	for _, l := range lines {
		if l.Extra["testbed.acct"] != "2" {
			continue
		}
		for _, p := range l.Points {
			require.Equal(t, VerdictUnjudged, p.Verdict(), "%s W=%d", l.Name, p.Workers)
			require.Equal(t, "no stretched runs (accounting version 2 predates dilation sensitivity, version 3)", p.Unjudged)
		}
	}
}

// A point's operating modes print each mode's mean, interval, share and
// signature: step-start synchrony and the workers' start spread, which
// would show a mode chosen at start-up.
func TestModesStringShowsSignature(t *testing.T) {
	t.Parallel()
	p := &PointVerdict{Rates: analysis.NewSample([]float64{1, 1, 1, 2, 2})}
	require.Equal(t, "one mode (BC 0.00)", modesString(p))
	p.Modes = []ModeSummary{
		{Mode: analysis.Mode{Mean: 2751, Frequency: 0.87}, CI: 0.017, Synchrony: 0.70, StartSpread: 0.0014},
		{Mode: analysis.Mode{Mean: 4148, Frequency: 0.13}, CI: 0.016, Synchrony: 0.08, StartSpread: math.NaN()},
	}
	require.Equal(t, "modes 2751 ±1.7% ×87% sync 0.70 start 1.4ms / 4148 ±1.6% ×13% sync 0.08 start -", modesString(p))
}

package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"pslab/engine/predict"
	"pslab/engine/sim"
	"pslab/engine/zoo"
)

// dirTree lists the names under dir.
func dirTree(t *testing.T, dir string) []string {
	var out []string
	require.NoError(t, filepath.WalkDir(dir, func(p string, _ os.DirEntry, err error) error {
		out = append(out, p)
		return err
	}))
	return out
}

// TestPredictOutputErrorsWriteNothing: a bad -o or -figure is refused
// before any work, and nothing new is left on disk (-o DIR used to fail
// after -figure f.png was written).
func TestPredictOutputErrorsWriteNothing(t *testing.T) {
	t.Parallel()
	dir, profile, _, _ := toyInputs(t)
	outDir := filepath.Join(dir, "out")
	require.NoError(t, os.Mkdir(outDir, 0o755))
	blocker := filepath.Join(dir, "file")
	require.NoError(t, os.WriteFile(blocker, nil, 0o644))
	fig := filepath.Join(outDir, "f.png")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-o", outDir, "-figure", fig}, "-o: output " + outDir + " is a directory"},
		{[]string{"-o", filepath.Join(blocker, "x.txt"), "-figure", fig}, "is not a directory"},
		{[]string{"-figure", filepath.Join(blocker, "f.svg")}, "-figure: output"},
		{[]string{"-o", fig, "-figure", fig}, "-o and -figure are the same file"},
	} {
		before := dirTree(t, dir)
		args := append(append([]string{profile, "-bandwidth", "1Gbps"}, fast...), c.args...)
		_, err := runPredict(t, args...)
		require.ErrorContains(t, err, c.want, "%v", c.args)
		require.Equal(t, before, dirTree(t, dir), "%v left files", c.args)
	}
}

// TestPredictRefusesUnboundedWork: -steps 10000000 (and huge -workers)
// used to run for minutes with no output; the estimate is refused before
// any work, naming the flag that raises the limit.
func TestPredictRefusesUnboundedWork(t *testing.T) {
	t.Parallel()
	_, profile, _, _ := toyInputs(t)
	_, err := runPredict(t, profile, "-bandwidth", "1Gbps", "-steps", "10000000")
	require.ErrorContains(t, err, "simulator events")
	require.ErrorContains(t, err, "raise -max-events to")
	_, err = runPredict(t, profile, "-bandwidth", "1Gbps", "-workers", "1..3", "-steps", "10000000", "-models", "mva-exact")
	require.NoError(t, err, "the limit counts simulator events only")
}

// TestPredictWorkWeighsSharing: a colocated cluster's events cost more
// as it grows (predict.Cluster.SharingCost), so the bound is on work:
// the same events pass -max-events with separate PS hosts and are refused
// colocated, with the weight and the flag named.
func TestPredictWorkWeighsSharing(t *testing.T) {
	t.Parallel()
	_, profile, _, _ := toyInputs(t)
	args := []string{profile, "-bandwidth", "1Gbps", "-workers", "64", "-models", "simulator", "-paper", "-steps", "10"}
	tr, err := predict.Cluster{Bandwidth: 125e6}.Synthesize(zoo.Toy())
	require.NoError(t, err)
	e := estimateWork(tr, predict.Cluster{Paper: true, Steps: 10}, []int{64}, []predict.Model{predict.Simulator}, 1)
	limit := fmt.Sprintf("%g", 2*e.events) // twice the events, under 2 + 64/24 times their work
	_, err = runPredict(t, append(args, "-max-events", limit)...)
	require.NoError(t, err, "separate PS: %g events", e.events)
	_, err = runPredict(t, append(args, "-max-events", limit, "-colocate")...)
	require.ErrorContains(t, err, "event equivalents exceed -max-events")
	require.ErrorContains(t, err, "4.67 times a single-PS event")
}

// TestProgressOnlyOnTerminals: progress goes to stderr only when it is a
// terminal and the work is expected to take over 2 s.
func TestProgressOnlyOnTerminals(t *testing.T) {
	t.Parallel()
	require.Nil(t, newProgress(&bytes.Buffer{}, false, workEstimate{events: 1e12, work: 1e12}).bar, "not a terminal")
	require.Nil(t, newProgress(os.Stderr, false, workEstimate{events: 1, work: 1}).bar, "short work")
}

// TestPredictConvergedEstimate: without -paper the simulator's points are
// converged estimates exported with their 95% interval and whether they
// converged; the precision flag is checked before anything runs. Under
// -short only the flag checks run (the estimate at the default ±1% is a
// second of CPU; engine/sim's TestEstimateConverges covers the stopping
// rule).
func TestPredictConvergedEstimate(t *testing.T) {
	t.Parallel()
	in := filepath.Join(root, "datasets", "byo", "kineto-hta-rank0.arrow")
	if !testing.Short() {
		predictConvergedJSON(t, in)
	}
	for _, bad := range [][]string{{"-precision", "0"}, {"-precision", "-0.01"}, {"-precision", "NaN"}, {"-precision", "0.6"}} {
		_, err := runPredict(t, append([]string{in, "-bandwidth", "10Gbps", "-workers", "1"}, bad...)...)
		require.ErrorContains(t, err, "-precision", bad)
	}
	_, err := runPredict(t, in, "-bandwidth", "10Gbps", "-workers", "1", "-warmup", "5")
	require.ErrorContains(t, err, "-warmup applies to -paper")
	_, err = runPredict(t, in, "-bandwidth", "10Gbps", "-workers", "1", "-ps", "1000000000")
	require.ErrorContains(t, err, "-ps 1000000000: at most 4096")
}

// predictConvergedJSON predicts the simulator's converged estimates and
// Cynthia from trace in and checks their JSON: intervals within ±1% around
// the estimate, converged, replications recorded; none for Cynthia.
func predictConvergedJSON(t *testing.T, in string) {
	t.Helper()
	out, err := runPredict(t, in, "-bandwidth", "10Gbps", "-workers", "1,3", "-models", "simulator,cynthia", "-format", "json")
	require.NoError(t, err)
	var js struct {
		Runs []struct {
			Models []struct {
				Model      string    `json:"model"`
				Throughput []float64 `json:"throughput_examples_per_s"`
				Lo         []float64 `json:"ci95_lo_examples_per_s"`
				Hi         []float64 `json:"ci95_hi_examples_per_s"`
				Converged  []bool    `json:"converged"`
				Reps       []int     `json:"replications"`
			} `json:"models"`
		} `json:"runs"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &js))
	simM, cyn := js.Runs[0].Models[0], js.Runs[0].Models[1]
	require.Equal(t, "simulator", simM.Model)
	require.Equal(t, []bool{true, true}, simM.Converged)
	require.Len(t, simM.Reps, 2)
	require.GreaterOrEqual(t, simM.Reps[0], sim.DefaultReplications)
	for i := range simM.Throughput {
		require.Less(t, simM.Lo[i], simM.Throughput[i])
		require.Greater(t, simM.Hi[i], simM.Throughput[i])
		require.LessOrEqual(t, (simM.Hi[i]-simM.Lo[i])/(2*simM.Throughput[i]), 0.01)
	}
	require.Nil(t, cyn.Lo, "an analytical model has no interval")
}

// TestNewBarQuiet: the progress bar of run, check, report and predict is
// shown only on a terminal and never under -q.
func TestNewBarQuiet(t *testing.T) {
	t.Parallel()
	require.Nil(t, newBar(&bytes.Buffer{}, false, 10, "run", "experiments"), "not a terminal")
	require.Nil(t, newBar(os.Stderr, true, 10, "run", "experiments"), "-q")
}

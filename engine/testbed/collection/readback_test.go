package collection

import (
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow/go/v17/arrow/memory"
	"github.com/stretchr/testify/require"

	"pslab/engine/dataset"
	"pslab/engine/testbed/accounting"
	"pslab/engine/testbed/analysis"
)

// stretchedOutcome is fakeOutcome with accounted runs, three repetitions
// per W and the W = 2 point measured again stretched 2×.
func stretchedOutcome(t *testing.T) *Outcome {
	o := fakeOutcome(t)
	o.Config.Repetitions, o.Config.Steps, o.Config.Average, o.Config.Dilations = 3, 6, 4, []float64{2, 4}
	o.Acct.Messages, o.Acct.Unscaled = 8, 0.02
	run := func(w, rep int, k float64, period int64, cont float64) Run {
		r := Run{Workers: w, Repetition: rep, Dilation: k, Wall: 2 * time.Second}
		for i := range w {
			var st analysis.StepTimes
			for s := range int64(6) {
				off := int64(i)*period/int64(w) + 1000
				st.Start, st.End = append(st.Start, off+s*period), append(st.End, off+(s+1)*period)
			}
			r.Steps = append(r.Steps, st)
		}
		x, err := analysis.Throughput(r.Steps, o.Plan.Batch, o.Config.Average)
		require.NoError(t, err)
		r.Throughput = x * k
		r.Usage = accounting.RunUsage{HostCPU: 0.4 / float64(runtime.NumCPU()), HostCPUs: runtime.NumCPU(), Procs: []accounting.ProcUsage{
			{Name: "ps 0", Wall: 2, CPU: 0.2, Contention: cont, Retrans: 0.0005},
			{Name: "worker 0", Wall: 2, CPU: 0.1, Contention: cont / 2}}}
		return r
	}
	o.Runs, o.Points = nil, nil
	for _, w := range []int{1, 2} {
		p := Point{Workers: w, Dilation: 1}
		for rep, period := range []int64{10e6, 10.1e6, 9.9e6} {
			r := run(w, rep, 1, period, 0.01*float64(w))
			o.Runs, p.Rates = append(o.Runs, r), append(p.Rates, r.Throughput)
		}
		p.Mean, p.Std = analysis.MeanStd(p.Rates)
		o.Points = append(o.Points, p)
	}
	p := Point{Workers: 2, Dilation: 2}
	for rep, period := range []int64{20e6, 20.1e6, 19.9e6} {
		r := run(2, rep, 2, period, 0.005)
		o.Runs, p.Rates = append(o.Runs, r), append(p.Rates, r.Throughput)
	}
	o.Dilated = []Point{p}
	return o
}

// What verify reads back from the files is what the run judged in
// memory, and points.arrow holds it.
func TestReadCommittedJudgesAsTheRun(t *testing.T) {
	t.Parallel()
	o := stretchedOutcome(t)
	wantP, wantS := o.Judge()
	require.Len(t, wantS, 1)
	require.True(t, wantP[1].Holds(), "%s %v", wantP[1].Unjudged, wantP[1].Why)
	dir := filepath.Join(t.TempDir(), o.Config.Name)
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	require.NoError(t, o.Write(dir, Host{}, mem))
	cm, err := ReadCommitted(dir, mem)
	require.NoError(t, err)
	require.Equal(t, o.JudgeInput(), cm.Input)
	gotP, gotS := Judge(cm.Runs, cm.Input)
	for i, set := range [][2][]PointVerdict{{wantP, gotP}, {wantS, gotS}} {
		require.Len(t, set[1], len(set[0]), "set %d", i)
		for j := range set[0] {
			w, g := set[0][j], set[1][j]
			require.Equal(t, w.Workers, g.Workers)
			require.Equal(t, w.Dilation, g.Dilation)
			require.InDelta(t, w.Rates.Mean, g.Rates.Mean, 1e-9)
			require.InDelta(t, w.CI, g.CI, 1e-12)
			require.InDelta(t, w.BatchCI, g.BatchCI, 1e-12)
			require.InDelta(t, w.Synchrony, g.Synchrony, 1e-12)
			require.InDelta(t, w.Other, g.Other, 1e-9, "host busy share × cpus − the processes' CPU")
			require.Equal(t, w.Contention, g.Contention)
			require.Equal(t, w.Retrans, g.Retrans)
			require.Equal(t, w.Verdict(), g.Verdict())
			require.Equal(t, w.Sensitivity, g.Sensitivity)
		}
	}
	pt, err := dataset.Read(filepath.Join(dir, PointsFile), PointsSchema, mem)
	require.NoError(t, err)
	require.Equal(t, []int64{1, 2, 2}, pt.Ints("workers"))
	require.Equal(t, []float64{1, 1, 2}, pt.Floats("dilation"))
	require.Equal(t, []string{VerdictHolds, VerdictHolds, VerdictAgrees}, pt.Strings("verdict"))
	require.Equal(t, AcctVersion, pt.Provenance.Extra["testbed.acct"])
	for _, v := range pt.Floats("retrans_lost") {
		require.GreaterOrEqual(t, v, 0.0, "version 4 runs count D-SACKs: retrans_lost is known")
	}
	require.Equal(t, "2,4", pt.Provenance.Extra["testbed.dilations"])
	runs, err := dataset.Read(filepath.Join(dir, RunsFile), RunsSchema, mem)
	require.NoError(t, err)
	require.InDelta(t, 0, runs.Floats("synchrony")[3], 1e-9, "two workers half a step apart")
	require.Equal(t, 1.0, runs.Floats("synchrony")[0], "one worker")
}

// The committed datasets read back (accounting version 2: no dilation
// column) give the numbers their metadata recorded: the batch-means CI
// of every W, the largest contention and other work of the throughput
// runs. A version 3 dataset's points.arrow must equal the judgement of
// its runs.
func TestReadCommittedMatchesCommittedMetadata(t *testing.T) {
	t.Parallel()
	root := "../../../datasets/testbed"
	entries, err := os.ReadDir(root)
	require.NoError(t, err)
	mem := memory.NewGoAllocator()
	n := 0
	for _, e := range entries {
		dir := filepath.Join(root, e.Name())
		if _, err := os.Stat(filepath.Join(dir, ThroughputFile)); err != nil {
			continue
		}
		n++
		cm, err := ReadCommitted(dir, mem)
		require.NoError(t, err, dir)
		points, stretched := Judge(cm.Runs, cm.Input)
		x := cm.Extra
		if x["testbed.acct"] == "3" {
			pt, err := dataset.Read(filepath.Join(dir, PointsFile), PointsSchema, mem)
			require.NoError(t, err, dir)
			tab, err := pointsTable(pt.Provenance, points, stretched)
			require.NoError(t, err)
			require.Equal(t, pt.Strings("verdict"), tab.Strings("verdict"), dir)
			require.Equal(t, pt.Floats("ci95_rel"), tab.Floats("ci95_rel"), dir)
			continue
		}
		require.Empty(t, stretched, dir)
		ci := strings.Split(x["testbed.acct.ci95_rel"], ",")
		require.Len(t, ci, len(points), dir)
		cont, other := 0.0, 0.0
		for i, p := range points {
			want, err := strconv.ParseFloat(ci[i], 64)
			require.NoError(t, err)
			require.InEpsilon(t, want, p.BatchCI, 1e-5, "%s W=%d", dir, p.Workers)
			cont, other = math.Max(cont, p.Contention), math.Max(other, p.Other)
			require.Equal(t, VerdictUnjudged, p.Verdict())
		}
		wantCont, _ := strconv.ParseFloat(x["testbed.acct.contention"], 64)
		wantOther, _ := strconv.ParseFloat(x["testbed.acct.other_cores"], 64)
		if strings.Contains(x["testbed.acct.contention_at"], "W=") {
			require.InEpsilon(t, wantCont, cont, 1e-5, dir)
		}
		if strings.HasPrefix(x["testbed.acct.other_at"], "W=") && wantOther > 0 {
			require.InDelta(t, wantOther, other, 1e-4, dir)
		}
	}
	require.Positive(t, n)
}

// The between-run spread -dry predicts repetitions from is the median of
// the committed unstretched points' CVs; stretched runs do not count.
func TestCommittedSpread(t *testing.T) {
	t.Parallel()
	o := stretchedOutcome(t)
	dir := filepath.Join(t.TempDir(), o.Config.Name)
	require.NoError(t, o.Write(dir, Host{}, memory.NewGoAllocator()))
	s, ok := CommittedSpread(dir, memory.NewGoAllocator())
	require.True(t, ok)
	require.Len(t, s.PerW, 2, "W = 1 and 2, not the ×2 point")
	for _, p := range o.Points {
		sm := analysis.NewSample(p.Rates)
		require.InDelta(t, sm.Std/sm.Mean, s.PerW[p.Workers], 1e-12)
	}
	require.InDelta(t, (s.PerW[1]+s.PerW[2])/2, s.CV, 1e-12)
	require.Contains(t, s.Source, "median over the 2 points of the committed dataset, up to 3 runs each")
	_, ok = CommittedSpread(filepath.Join(t.TempDir(), "none"), memory.NewGoAllocator())
	require.False(t, ok)
}

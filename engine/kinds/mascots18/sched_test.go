package mascots18

import (
	"math"
	"math/rand/v2"
	"path/filepath"
	"testing"
	"time"

	"github.com/apache/arrow/go/v17/arrow/memory"
	"github.com/stretchr/testify/require"

	"pslab/engine/dataset"
	"pslab/engine/experiment"
	"pslab/engine/experiment/experimenttest"
	"pslab/engine/importer"
	"pslab/engine/mva"
	"pslab/engine/sched"
)

// runSchedSpec loads spec as experiments/mascots18/t.toml (inputs are read
// from the repository) and runs fn on it.
func runSchedSpec(t *testing.T, fn experiment.RunFunc, spec string) (*experiment.Result, error) {
	t.Helper()
	return experimenttest.Run(t, fn, t.TempDir(), filepath.Join("mascots18", "t.toml"), spec, root, nil)
}

// schedSpec is a spec with the given top-level keys (models) and tables.
func schedSpec(top, tables string) string {
	return `id = "mascots18-t"
title = "t"
paper = "mascots18"
kind = "sched-poisson"
description = "t"
status = "partial"
seed = 3
` + top + "\n" + schedTables + tables
}

const schedTables = `[inputs]
jobs = "datasets/reported/mascots18/table3.arrow"
table3 = "datasets/reported/mascots18/table3.arrow"
[plot]
x_label = "x"
y_label = "y"
`

func TestSchedChunkSizes(t *testing.T) {
	t.Parallel()
	require.Equal(t, []int{7, 8, 9, 10, 11, 12, 14, 16, 20, 25, 33, 40}, schedChunkSizes(100, 7, 40, false))
	require.Len(t, schedChunkSizes(100, 7, 40, true), 34)
	require.Equal(t, []int{3, 6}, schedChunkSizes(6, 3, 10, false)) // clipped to the cluster
	require.Equal(t, []int{1, 2, 3, 6}, schedChunkSizes(6, 0, 6, false))
}

// TestDominantChunkSizesLoseNothing: on one arrival stream, every chunk
// size of 7..40 is matched or beaten (to 2%, the JSQ routing may differ) by
// the size schedChunkSizes keeps for its number of chunks.
func TestDominantChunkSizesLoseNothing(t *testing.T) {
	t.Parallel()
	specs, err := schedSpecs(readTable3(t), nil)
	require.NoError(t, err)
	wl, err := schedWorkload(specs, 100, 2, mva.Exact)
	require.NoError(t, err)
	cfg := sched.Config{Nodes: 100, Workload: wl, Load: 0.3, MaxJobs: 3000, MinJobs: 10_000}
	search, err := sched.BestChunk(cfg, 7, 40, func() *rand.Rand { return rand.New(rand.NewPCG(1, 2)) })
	require.NoError(t, err)
	mean := map[int]float64{}
	for _, tr := range search.Trials {
		require.False(t, tr.Unstable, "chunk %d", tr.Chunk)
		mean[tr.Chunk] = tr.MeanResponse
	}
	kept := schedChunkSizes(100, 7, 40, false)
	for k := 7; k <= 40; k++ {
		for _, d := range kept {
			if 100/d == 100/k {
				require.LessOrEqual(t, mean[d], 1.02*mean[k], "chunk %d (kept %d)", k, d)
			}
		}
	}
}

func readTable3(t *testing.T) *dataset.Table {
	t.Helper()
	tab, err := dataset.Read(filepath.Join(root, "datasets/reported/mascots18/table3.arrow"), mascotsTable3, dataset.Allocator)
	require.NoError(t, err)
	return tab
}

func TestSchedSpecsMatchTableIII(t *testing.T) {
	t.Parallel()
	specs, err := schedSpecs(readTable3(t), nil)
	require.NoError(t, err)
	require.Equal(t, sched.TableIIISpecs(), specs)
	_, err = schedSpecs(readTable3(t), []string{"ResNet"})
	require.ErrorContains(t, err, `"ResNet"`)
}

func TestSchedWorkloadAlexNet(t *testing.T) {
	t.Parallel()
	specs, err := schedSpecs(readTable3(t), []string{"AlexNet"})
	require.NoError(t, err)
	wl, err := schedWorkload(specs, 100, 2, mva.Exact)
	require.NoError(t, err)
	x := wl.Types[0].X
	require.Len(t, x, 101)
	require.Equal(t, x[1], x[2]) // M-4
	// One worker + PS: 1024 examples per cycle S^W + 2·S^U = 5.696 + 2·1.992 s.
	require.InDelta(t, 1024/(7.0/1.229+2*249e6*8/1e9), x[2], 1e-9)
	res := experiment.NewResult()
	schedWorkloadMetrics(res, wl, 100)
	require.InDelta(t, 11.82, res.Metrics["s1_days.AlexNet"], 0.005) // CATALOGUE §A.4 fig1
	require.InDelta(t, 4.81, res.Metrics["speedup_max.AlexNet"], 0.005)
}

func TestSchedChunkOverloaded(t *testing.T) {
	t.Parallel()
	specs, err := schedSpecs(readTable3(t), []string{"AlexNet"})
	require.NoError(t, err)
	wl, err := schedWorkload(specs, 100, 2, mva.Exact)
	require.NoError(t, err)
	x := wl.Types[0].X
	// 14 chunks of 7 nodes carry load 14·X(7)/(100·X(1)) ≈ 0.52.
	capacity := 14 * x[7] / x[1] / 100
	require.InDelta(t, 0.52, capacity, 0.005)
	require.False(t, schedChunkOverloaded(wl, 100, 7, capacity-1e-9))
	require.True(t, schedChunkOverloaded(wl, 100, 7, capacity+1e-9))
}

func TestSchedRatios(t *testing.T) {
	t.Parallel()
	res := experiment.NewResult()
	schedRatios(res, []string{"a", "b", "c"}, []schedPoint{{mean: 10}, {mean: 20}, {unstable: true}}, ".x")
	for k, v := range map[string]float64{"better.a.b.x": 1, "better.b.a.x": 0, "better.a.c.x": 1, "better.c.a.x": 0, "ratio.a.b.x": 0.5, "ratio.b.a.x": 2} {
		require.Equal(t, v, res.Metrics[k], k)
	}
	require.NotContains(t, res.Metrics, "ratio.a.c.x")
	require.NotContains(t, res.Metrics, "ratio.c.a.x")
}

func TestSchedStatistics(t *testing.T) {
	t.Parallel()
	require.Equal(t, [][2]float64{{1, 0.25}, {2, 0.5}, {3, 0.75}, {4, 1}}, schedCDF([]float64{3, 1, 2, 4}, 4))
	require.Equal(t, [][2]float64{{2, 0.5}, {4, 1}}, schedCDF([]float64{3, 1, 2, 4}, 2))
	require.Nil(t, schedCDF(nil, 3))
	require.Equal(t, 2.0, schedQuantile([]float64{4, 1, 3, 2}, 0.5))
	require.Equal(t, 4.0, schedQuantile([]float64{4, 1, 3, 2}, 0.95))
	// Batches (1, 3) and (5, 7): means 2 and 6, sd 2√2, t(0.975, 1) = 12.706.
	require.InDelta(t, 12.7062*2*math.Sqrt2/math.Sqrt2, schedCIHalfWidth([]float64{1, 3, 5, 7}, 2), 1e-3)
	require.Equal(t, 0.0, schedCIHalfWidth([]float64{1}, 2))
}

func TestSchedTraceArrivals(t *testing.T) {
	t.Parallel()
	wl := sched.Workload{Types: []sched.JobType{
		{Name: "slow", Examples: 100, Epochs: 10, X: []float64{0, 1, 1, 2}},
		{Name: "fast", Examples: 100, Epochs: 10, X: []float64{0, 10, 10, 15}},
	}}
	jobs := []schedTraceJob{{0, 40}, {10, 10}, {20, 30}, {100, 20}}
	arr, scale, count, err := schedTraceArrivals(jobs, wl, 2, 0.5)
	require.NoError(t, err)
	// Σ S(1) = scale·100 GPU·s = 0.5·2 nodes·100 s.
	require.InDelta(t, 1.0, scale, 1e-12)
	require.Equal(t, []int{2, 2}, count)
	// The two smallest GPU times (10, 20) get "fast", the smaller E[S(1)].
	require.Equal(t, []int{0, 1, 0, 1}, []int{arr[0].Type, arr[1].Type, arr[2].Type, arr[3].Type})
	require.InDelta(t, 40.0*1, arr[0].Examples, 1e-12)
	require.InDelta(t, 10.0*10, arr[1].Examples, 1e-12)
	require.Equal(t, 100.0, arr[3].Time)
	_, _, _, err = schedTraceArrivals(jobs[:1], wl, 2, 0.5)
	require.ErrorContains(t, err, "1 jobs")
	_, _, _, err = schedTraceArrivals([]schedTraceJob{{5, 1}, {5, 1}}, wl, 2, 0.5)
	require.ErrorContains(t, err, "spans 0 s")
}

func TestSchedTraceJobsWindow(t *testing.T) {
	t.Parallel()
	tr := dataset.NewTable(importer.PhillySchema, dataset.Provenance{})
	start := time.Date(2017, 11, 13, 0, 0, 0, 0, time.UTC)
	for _, r := range []struct {
		dt   int64
		work float64
	}{{3600, 5}, {-1, 7}, {60, 9}, {7 * 86400, 11}, {60, 13}} {
		require.NoError(t, tr.Append(start.Unix()+r.dt, r.work, int64(1), r.work, "c"))
	}
	require.Equal(t, []schedTraceJob{{60, 9}, {60, 13}, {3600, 5}}, schedTraceJobs(tr, start, 7))
}

func TestJobsTableRoundTrip(t *testing.T) {
	t.Parallel()
	wl := sched.Workload{Types: []sched.JobType{{Name: "A", Examples: 1, Epochs: 1, X: []float64{0, 1, 1, 2, 3}}}}
	cfg := sched.Config{Nodes: 4, Workload: wl, Policy: sched.HELL{}, Progress: []float64{0.4},
		Arrivals: []sched.Arrival{{Time: 0, Examples: 6}, {Time: 1, Examples: 3}}}
	res, err := sched.Run(cfg, nil)
	require.NoError(t, err)
	tab, err := JobsTable(res, cfg)
	require.NoError(t, err)
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	path := filepath.Join(t.TempDir(), "jobs.arrow")
	require.NoError(t, dataset.Write(path, tab, mem))
	back, err := dataset.Read(path, SchedJobsSchema(cfg.Progress), mem)
	require.NoError(t, err)
	require.Equal(t, []string{"A", "A"}, back.Strings("type"))
	require.Equal(t, []int64{0, 1}, back.Ints("job"))
	require.Equal(t, []int64{1, 1}, back.Ints("done"))
	require.Equal(t, []float64{6, 3}, back.Floats("size"))
	for i, j := range res.Jobs {
		require.Equal(t, j.End-j.Arrival, back.Floats("response")[i])
		require.Equal(t, j.Progress[0], back.Floats("t_progress_40")[i])
		require.Greater(t, j.Progress[0], j.Arrival)
	}
	require.Equal(t, "derived", back.Provenance.Origin)
	cfg.Workload.Types = nil
	_, err = JobsTable(res, cfg)
	require.ErrorContains(t, err, "type 0")
}

func TestAllocationsTableRoundTrip(t *testing.T) {
	t.Parallel()
	wl := sched.Workload{Types: []sched.JobType{{Name: "A", Examples: 1, Epochs: 1, X: []float64{0, 1, 1, 2, 3}}}}
	cfg := sched.Config{Nodes: 4, Workload: wl, Policy: sched.HELL{},
		Arrivals: []sched.Arrival{{Time: 0, Examples: 6}, {Time: 1, Examples: 3}}}
	res, err := sched.Run(cfg, nil)
	require.NoError(t, err)
	_, err = AllocationsTable(res, cfg)
	require.ErrorContains(t, err, "without Config.History")
	cfg.History = true
	res, err = sched.Run(cfg, nil)
	require.NoError(t, err)
	tab, err := AllocationsTable(res, cfg)
	require.NoError(t, err)
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	path := filepath.Join(t.TempDir(), "alloc.arrow")
	require.NoError(t, dataset.Write(path, tab, mem))
	back, err := dataset.Read(path, SchedAllocationsSchema, mem)
	require.NoError(t, err)
	var n int
	for _, j := range res.Jobs {
		for _, c := range j.Nodes {
			require.Equal(t, int64(j.ID), back.Ints("job")[n])
			require.Equal(t, c.Time, back.Floats("time")[n])
			require.Equal(t, int64(c.Nodes), back.Ints("nodes")[n])
			n++
		}
	}
	require.Equal(t, back.Len(), n)
	require.Greater(t, n, 2, "two jobs on 4 nodes are reallocated at the second arrival")
	// Every job ends holding no nodes.
	for i := 0; i < n; i++ {
		if i == n-1 || back.Ints("job")[i+1] != back.Ints("job")[i] {
			require.Equal(t, int64(0), back.Ints("nodes")[i])
		}
	}
}

func TestSchedKindsSmallRun(t *testing.T) {
	t.Parallel()
	res, err := runSchedSpec(t, schedPoisson, schedSpec(`models = ["srpt", "jsq-chunk", "hell"]`, `[sweep]
var = "load"
values = [0.3]
[params]
types = ["AlexNet"]
nodes = 20
chunk_lo = 5
chunk_hi = 10
chunk_search_jobs = 500
max_jobs = 2000
min_jobs = 500
`))
	require.NoError(t, err)
	require.Equal(t, 0.0, res.Metrics["unstable.hell.0.3"])
	require.Greater(t, res.Metrics["mean_h.hell.0.3"], 11.82*24/4.81) // no faster than the speedup limit allows
	require.Contains(t, []float64{5, 6, 10}, res.Metrics["chunk.0.3"])
	require.Equal(t, res.Metrics["better.hell.srpt.0.3"], 1-res.Metrics["better.srpt.hell.0.3"])
	// The margin's sign agrees with better, and its interval contains it.
	for _, k := range []string{"hell.srpt.0.3", "srpt.hell.0.3"} {
		m := res.Metrics["margin."+k]
		require.Equal(t, res.Metrics["better."+k] == 1, m > 0, k)
		require.LessOrEqual(t, res.Metrics["margin."+k+".ci95_lo"], m)
		require.GreaterOrEqual(t, res.Metrics["margin."+k+".ci95_hi"], m)
	}
}

func TestSchedKindErrorsNameTheField(t *testing.T) {
	t.Parallel()
	sweep := "[sweep]\nvar = \"load\"\nvalues = [0.3]\n"
	hell := `models = ["hell"]`
	for _, tc := range []struct {
		fn                experiment.RunFunc
		top, tables, want string
	}{
		{schedPoisson, hell, sweep + "[params]\nmva = \"hybrid\"\n", `unknown MVA variant "hybrid"`},
		{schedPoisson, hell, sweep + "[params]\nnodes = 1\n", "nodes 1"},
		{schedPoisson, hell, sweep + "[params]\ntypes = [\"ResNet\"]\n", `"ResNet"`},
		{schedPoisson, hell, "[sweep]\nvar = \"workers\"\nvalues = [1]\n", `sweep var "workers"`},
		{schedPoisson, "", sweep, "list the policies"},
		{schedPoisson, hell, sweep + "[params]\nchunk_lo = 50\nchunk_hi = 40\n", "chunk range"},
		{schedEarly, "", "[params]\ngammas = [1, 2]\n", "must include 0"},
		{schedEarly, "", "[params]\ngammas = [0]\nprogress = 1.5\n", "progress 1.5"},
		{schedTrace, hell, "[params]\nwindow_start = \"monday\"\n", `window start "monday"`},
	} {
		_, err := runSchedSpec(t, tc.fn, schedSpec(tc.top, tc.tables))
		require.ErrorContains(t, err, tc.want)
		require.Contains(t, err.Error(), "t.toml:", "error %q names the file", err)
	}
}

package mascots18

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"time"

	"pslab/engine/dataset"
	"pslab/engine/experiment"
	"pslab/engine/importer"
	"pslab/engine/sched"

	"gonum.org/v1/gonum/stat"
)

// schedTraceParams are the [params] of sched-trace: the shared scheduling
// parameters plus the trace window and the target load.
type schedTraceParams struct {
	schedParams
	// WindowStart is the first submission time of the window, RFC 3339
	// (the trace's zone-less times are read as UTC).
	WindowStart string `toml:"window_start"`
	// WindowDays is the window length in days.
	WindowDays float64 `toml:"window_days"`
	// Load is the offered load Σ S_i(1)/(W·span) the service times are
	// scaled to (span = last − first arrival of the window).
	Load float64
}

// schedTraceJob is one trace job of the window.
type schedTraceJob struct {
	arrival, work float64 // seconds since the window start; GPU·s
}

// schedTraceJobs returns the jobs of t (importer.PhillySchema) submitted in
// [start, start+days), in submission order (file order on ties).
func schedTraceJobs(t *dataset.Table, start time.Time, days float64) []schedTraceJob {
	t0 := float64(start.Unix())
	t1 := t0 + days*86400
	ts, gt := t.Ints("timestamp"), t.Floats("gpu_time")
	var out []schedTraceJob
	for i, s := range ts {
		if x := float64(s); x >= t0 && x < t1 {
			out = append(out, schedTraceJob{arrival: x - t0, work: gt[i]})
		}
	}
	slices.SortStableFunc(out, func(a, b schedTraceJob) int { return cmp.Compare(a.arrival, b.arrival) })
	return out
}

// schedTraceArrivals turns trace jobs into arrivals on wl (types sorted by
// E[S(1)] ascending are assigned by equal-count quantiles of the jobs' GPU
// time: the shortest quarter of four types gets the type with the smallest
// mean single-node service time, ties broken by arrival order) and sizes:
// J_i = c·gpu_time_i·X_type(1), so the job's one-node service time is c
// times its recorded GPU time (duration × GPUs), with c chosen so the
// offered load Σ S_i(1)/(nodes·span) equals load. It returns the arrivals,
// c and the number of jobs per type.
func schedTraceArrivals(jobs []schedTraceJob, wl sched.Workload, nodes int, load float64) ([]sched.Arrival, float64, []int, error) {
	if len(jobs) < 2 {
		return nil, 0, nil, fmt.Errorf("trace window has %d jobs, need ≥ 2", len(jobs))
	}
	span := jobs[len(jobs)-1].arrival - jobs[0].arrival
	work := 0.0
	for _, j := range jobs {
		work += j.work
	}
	if !(span > 0) || !(work > 0) {
		return nil, 0, nil, fmt.Errorf("trace window spans %g s with %g GPU·s of work: cannot set a load", span, work)
	}
	scale := load * float64(nodes) * span / work
	s1 := make([]float64, len(wl.Types)) // mean single-node service time per type
	for t, jt := range wl.Types {
		s1[t] = jt.MeanEpochs() * jt.Examples / jt.X[1]
	}
	byS1 := make([]int, len(wl.Types))
	for t := range byS1 {
		byS1[t] = t
	}
	slices.SortStableFunc(byS1, func(a, b int) int { return cmp.Compare(s1[a], s1[b]) })
	rank := make([]int, len(jobs))
	for i := range rank {
		rank[i] = i
	}
	slices.SortStableFunc(rank, func(a, b int) int { return cmp.Compare(jobs[a].work, jobs[b].work) })
	typ := make([]int, len(jobs))
	count := make([]int, len(wl.Types))
	for r, i := range rank {
		typ[i] = byS1[r*len(byS1)/len(jobs)]
		count[typ[i]]++
	}
	out := make([]sched.Arrival, 0, len(jobs))
	for i, j := range jobs {
		size := scale * math.Max(j.work, 1) * wl.Types[typ[i]].X[1]
		out = append(out, sched.Arrival{Time: j.arrival, Type: typ[i], Examples: size})
	}
	return out, scale, count, nil
}

// schedTrace simulates the spec's policies on the arrival times and job
// sizes of a window of a cluster trace (importer.PhillySchema), with the
// Table III DNNs' exact-MVA throughput (schedTraceArrivals for the mapping).
// Every run processes all jobs of the window to completion. It draws the
// mean and the 95th percentile of the response time per policy as bars
// (hours) and records
// mean_h.<p>, median_h.<p>, p95_h.<p>, better.<a>.<b> and ratio.<a>.<b>
// (schedRatios), chunk (JSQ-Chunk),
// scale, jobs, load and jobs.<type>.
func schedTrace(ctx context.Context, env *experiment.Env) (*experiment.Result, error) {
	p := schedTraceParams{schedParams: defaultSchedParams(), WindowDays: 7, Load: 0.5}
	if err := env.Params(&p); err != nil {
		return nil, err
	}
	if err := p.validate(env); err != nil {
		return nil, err
	}
	start, err := time.Parse(time.RFC3339, p.WindowStart)
	if err != nil {
		return nil, env.Errorf("window_start", "window start %q: %v", p.WindowStart, err)
	}
	if !(p.WindowDays > 0) || math.IsInf(p.WindowDays, 0) {
		return nil, env.Errorf("window_days", "window of %v days, need finite > 0", p.WindowDays)
	}
	if !(p.Load > 0) || math.IsInf(p.Load, 0) {
		return nil, env.Errorf("load", "load %v, need finite > 0", p.Load)
	}
	keys := env.Spec.Models
	if len(keys) == 0 {
		return nil, env.Spec.Errorf([]string{"models"}, "list the policies to simulate (%v)", schedPolicyKeys)
	}
	tr, err := env.Input("trace", importer.PhillySchema)
	if err != nil {
		return nil, err
	}
	jobs := schedTraceJobs(tr, start, p.WindowDays)
	chunks := schedChunkSizes(p.Nodes, p.ChunkLo, p.ChunkHi, p.FullChunkSearch)
	// Every run takes all the window's jobs to completion, any of them in
	// the system at once; per policy its bars, metrics and note, per pair
	// the comparisons (schedRatios).
	nRuns := 0
	for _, k := range keys {
		nRuns++
		if k == "jsq-chunk" {
			nRuns += len(chunks) - 1
		}
	}
	nJobs, k := float64(len(jobs)), float64(len(keys))
	wl, err := loadSchedWorkload(env, "table3", p.schedParams, func(types int) error {
		return p.checkSched(env, []string{"params", "window_days"}, schedEvents(float64(nRuns), nJobs, p.Nodes, len(jobs)),
			float64(tr.Len())+(float64(nRuns)+2*k)*nJobs, 7*k+5*k*k+float64(types)+6, types, schedWhat("sched-trace", nRuns, p.Nodes)+fmt.Sprintf(" of %d jobs", len(jobs)))
	})
	if err != nil {
		return nil, err
	}
	env.CountModelWork(float64(tr.Len()))
	arr, scale, count, err := schedTraceArrivals(jobs, wl, p.Nodes, p.Load)
	if err != nil {
		return nil, env.Errorf("window_start", "%v", err)
	}
	var runs []schedRun
	var slots [][2]int // key index, chunk
	for ki, k := range keys {
		cs := []int{0}
		if k == "jsq-chunk" {
			cs = chunks
		}
		for _, c := range cs {
			pol, _ := schedPolicy(k, p.schedParams, c)
			runs = append(runs, schedRun{cfg: sched.Config{Nodes: p.Nodes, Workload: wl, Policy: pol, Load: p.Load, Arrivals: arr}})
			slots = append(slots, [2]int{ki, c})
		}
	}
	results, err := schedRunAll(ctx, runs, false)
	if err != nil {
		return nil, err
	}
	countSched(env, results, p.Nodes, len(jobs))
	env.CountModelWork(float64(len(results)) * nJobs)
	pts := make([]schedPoint, len(keys))
	resp := make([][]float64, len(keys))
	for i := range pts {
		pts[i].unstable = true
	}
	for i, r := range results {
		ki, c := slots[i][0], slots[i][1]
		if pts[ki].unstable || r.MeanResponse < pts[ki].mean {
			pts[ki], resp[ki] = schedPointOf(r, c), r.ResponseTimes
		}
	}
	res := experiment.NewResult()
	schedWorkloadMetrics(res, wl, p.Nodes)
	res.Metric("scale", scale)
	res.Metric("jobs", float64(len(arr)))
	res.Metric("load", p.Load)
	for t, n := range count {
		res.Metric("jobs."+wl.Types[t].Name, float64(n))
	}
	res.Note("window %s + %g days: %d jobs, service times = %.4g × GPU time (offered load %g on %d nodes)", p.WindowStart, p.WindowDays, len(arr), scale, p.Load, p.Nodes)
	for ki, k := range keys {
		_, label := schedPolicy(k, p.schedParams, pts[ki].chunk)
		if k == "jsq-chunk" {
			label = fmt.Sprintf("JSQ-Chunk (k = %d)", pts[ki].chunk)
			res.Metric("chunk", float64(pts[ki].chunk))
		}
		mean, med, p95 := pts[ki].mean/3600, schedQuantile(resp[ki], 0.5)/3600, schedQuantile(resp[ki], 0.95)/3600
		res.Bar("mean", label, k, dataset.Derived, mean)
		res.Bar("95th percentile", label, k, dataset.Derived, p95)
		res.Metric("mean_h."+k, mean)
		res.Metric("median_h."+k, med)
		res.Metric("p95_h."+k, p95)
		res.Note("%-10s mean %8.2f h, median %7.2f h, 95th percentile %8.2f h over %d jobs%s", k, mean, med, p95, pts[ki].completed, schedChunkNote(pts[ki].chunk))
	}
	schedRatios(res, keys, pts, "")
	return res, nil
}

// schedQuantile is the lower empirical q-quantile of xs (0 when empty):
// the smallest value with at least a fraction q of xs at or below it.
func schedQuantile(xs []float64, q float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	return stat.Quantile(q, stat.Empirical, s, nil)
}

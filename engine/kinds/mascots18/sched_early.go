package mascots18

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"

	"pslab/engine/dataset"
	"pslab/engine/experiment"
	"pslab/engine/sched"
)

// schedEarlyParams are the [params] of sched-early-termination: the shared
// scheduling parameters plus the γ values, the load and the progress
// fraction.
type schedEarlyParams struct {
	schedParams
	// Gammas are the early-termination exponents γ (M-11); 0 ("without the
	// extension") must be among them: every reduction is relative to it.
	Gammas []float64
	// Load is the system load λ·E[S(1)]/W of every run (not given by the
	// paper for Fig. 14).
	Load float64
	// Progress is the job fraction whose mean reaching time is compared
	// (§VI-B: 40%).
	Progress float64
	// CDFPoints is the number of quantiles drawn per CDF.
	CDFPoints int `toml:"cdf_points"`
	// Replications is the number of independent replications (≥
	// experiment.MinReplications), each with its own seed from the spec's
	// generator (Env.Seeds) and common random numbers across the γ.
	Replications int
}

// schedEarly simulates malleable HELL with the early-termination service
// times S_i^t(w)·(J_i/J_i^t)^γ (mascots18 §VI, Fig. 14) for every γ in
// Replications independent replications; within one, every γ runs on the
// same arrivals (common random numbers), exactly MaxJobs arrivals long
// (the stopping rule is held off so every γ is measured on the same
// jobs). It plots the pooled response-time CDF per γ (x in hours) and
// records, per γ, as means over the replications with their 95% interval
// (.ci95_lo, .ci95_hi; experiment.MetricCI): mean_h.<γ> (mean response
// time), mean_progress_h.<γ> (mean time to the progress fraction),
// progress_reduction.<γ> = 1 − progress(γ)/progress(0) and
// response_increase.<γ> = mean(γ)/mean(0) − 1; and ci_rel.<γ>,
// progress_ci_rel.<γ>, the relative half-widths.
func schedEarly(ctx context.Context, env *experiment.Env) (*experiment.Result, error) {
	p := schedEarlyParams{schedParams: defaultSchedParams(), Load: 0.6, Progress: 0.4, CDFPoints: 200, Replications: experiment.MinReplications}
	if err := env.Params(&p); err != nil {
		return nil, err
	}
	if err := p.validate(env); err != nil {
		return nil, err
	}
	switch {
	case !slices.Contains(p.Gammas, 0):
		return nil, env.Errorf("gammas", "gammas %v must include 0 (without the extension)", p.Gammas)
	case !(p.Load > 0) || math.IsInf(p.Load, 0):
		return nil, env.Errorf("load", "load %v, need finite > 0", p.Load)
	case !(p.Progress > 0 && p.Progress <= 1):
		return nil, env.Errorf("progress", "progress %v, need 0 < progress ≤ 1", p.Progress)
	case p.CDFPoints < 2:
		return nil, env.Errorf("cdf_points", "cdf_points %d, need ≥ 2", p.CDFPoints)
	}
	if err := env.CheckReplications(p.Replications); err != nil {
		return nil, err
	}
	for _, g := range p.Gammas {
		if !(g >= 0) || math.IsInf(g, 0) {
			return nil, env.Errorf("gammas", "γ %v, need finite ≥ 0", g)
		}
	}
	// Every γ in every replication runs exactly max_jobs arrivals; per γ a
	// CDF of cdf_points points and a dozen metrics and a note.
	nRuns, g := float64(p.Replications)*float64(len(p.Gammas)), float64(len(p.Gammas))
	wl, err := loadSchedWorkload(env, "jobs", p.schedParams, func(types int) error {
		return p.checkSched(env, []string{"params", "gammas"}, schedEvents(nRuns, float64(p.MaxJobs), p.Nodes, p.MaxInSystem),
			nRuns*float64(p.MaxJobs), g*(float64(p.CDFPoints)+20), types, schedWhat("sched-early-termination", int(nRuns), p.Nodes))
	})
	if err != nil {
		return nil, err
	}
	seeds := env.Seeds(p.Replications)
	nG := len(p.Gammas)
	runs := make([]schedRun, p.Replications*nG) // admitted above
	for k, seed := range seeds {
		for i, g := range p.Gammas {
			runs[k*nG+i] = schedRun{seed: seed, cfg: sched.Config{Nodes: p.Nodes, Workload: wl, Policy: sched.HELL{Gamma: g}, Load: p.Load,
				MaxJobs: p.MaxJobs, MinJobs: p.MaxJobs + 1, Precision: p.Precision, MaxInSystem: p.MaxInSystem, Progress: []float64{p.Progress}}}
		}
	}
	results, err := schedRunAll(ctx, runs, true)
	if err != nil {
		return nil, err
	}
	countSched(env, results, p.Nodes, p.MaxInSystem)
	env.CountModelWork(float64(len(runs) * p.MaxJobs)) // the pooled response times, sorted per γ
	res := experiment.NewResult()
	schedWorkloadMetrics(res, wl, p.Nodes)
	i0 := slices.Index(p.Gammas, 0)
	for i, g := range p.Gammas {
		key := schedKey(g)
		var unstable []string
		for k := range seeds {
			if r, base := results[k*nG+i], results[k*nG+i0]; r.Unstable || base.Unstable {
				unstable = append(unstable, fmt.Sprintf("replication %d: %s%s", k, r.Reason, base.Reason))
			}
		}
		res.Metric("unstable."+key, schedOne(len(unstable) > 0))
		if len(unstable) > 0 {
			res.Note("γ = %g: unstable (%s)", g, strings.Join(unstable, "; "))
			continue
		}
		var mean, progress, reduction, increase, times []float64
		jobs := 0
		for k := range seeds {
			r, base := results[k*nG+i], results[k*nG+i0]
			mp := r.MeanProgressTime[0]
			mean = append(mean, r.MeanResponse/3600)
			progress = append(progress, mp/3600)
			reduction = append(reduction, 1-mp/base.MeanProgressTime[0])
			increase = append(increase, r.MeanResponse/base.MeanResponse-1)
			times = append(times, r.ResponseTimes...)
			jobs += len(r.ResponseTimes)
		}
		label := fmt.Sprintf("γ = %g", g)
		for _, q := range schedCDF(times, p.CDFPoints) {
			res.Point(label, "hell", dataset.Derived, q[0]/3600, q[1])
		}
		res.MetricCI("mean_h."+key, mean)
		res.MetricCI("mean_progress_h."+key, progress)
		res.MetricCI("progress_reduction."+key, reduction)
		res.MetricCI("response_increase."+key, increase)
		relHalf := func(name string) float64 { // from the interval MetricCI recorded
			m := res.Metrics[name]
			return (m - res.Metrics[name+".ci95_lo"]) / m
		}
		res.Metric("ci_rel."+key, relHalf("mean_h."+key))
		res.Metric("progress_ci_rel."+key, relHalf("mean_progress_h."+key))
		res.Metric("jobs."+key, float64(jobs))
		res.Note("γ = %-5g T = %7.2f h ± %4.1f%%, time to %g%% progress %6.2f h (%+.1f%% vs γ = 0, 95%% CI over %d replications), %d jobs",
			g, res.Metrics["mean_h."+key], 100*res.Metrics["ci_rel."+key], 100*p.Progress, res.Metrics["mean_progress_h."+key], -100*res.Metrics["progress_reduction."+key], len(seeds), jobs)
	}
	return res, nil
}

// schedProgressTimes returns, for the completed jobs after warm-up in
// departure order (the jobs of r.ResponseTimes), the time from arrival to
// the first progress fraction, in seconds.
func schedProgressTimes(r sched.Result) []float64 {
	var done []sched.Job
	for _, j := range r.Jobs {
		if j.Done {
			done = append(done, j)
		}
	}
	slices.SortStableFunc(done, func(a, b sched.Job) int { return cmp.Compare(a.End, b.End) })
	out := make([]float64, 0, len(done))
	for _, j := range done[min(r.Warmup, len(done)):] {
		out = append(out, j.Progress[0]-j.Arrival)
	}
	return out
}

// schedCIHalfWidth is the half-width of the 95% Student-t confidence
// interval of the mean of xs by batch means over b consecutive batches (the
// oldest len(xs) mod b values dropped), as sched's stopping rule; 0 with
// fewer values than batches.
func schedCIHalfWidth(xs []float64, b int) float64 {
	m := len(xs) / b
	if b < 2 || m < 1 {
		return 0
	}
	xs = xs[len(xs)-m*b:]
	bm := make([]float64, b)
	for k := range bm {
		bm[k] = stat.Mean(xs[k*m:(k+1)*m], nil)
	}
	sd := stat.StdDev(bm, nil)
	return distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(b - 1)}.Quantile(0.975) * sd / math.Sqrt(float64(b))
}

// schedCDF returns n points (x, F) of the empirical CDF of xs: the
// k/n-quantiles (lower empirical quantile) for k = 1..n.
func schedCDF(xs []float64, n int) [][2]float64 {
	if len(xs) == 0 {
		return nil
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	out := make([][2]float64, n)
	for k := 1; k <= n; k++ {
		f := float64(k) / float64(n)
		i := int(math.Ceil(f*float64(len(s)))) - 1
		out[k-1] = [2]float64{s[max(i, 0)], f}
	}
	return out
}

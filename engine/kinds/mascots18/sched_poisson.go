package mascots18

import (
	"context"
	"fmt"
	"math"
	"slices"

	"pslab/engine/dataset"
	"pslab/engine/experiment"
	"pslab/engine/sched"
)

// schedPolicyKeys are the policies the scheduling kinds accept in the
// spec's models list, in the order they are drawn.
var schedPolicyKeys = []string{"srpt", "waterfill", "jsq-chunk", "knee", "hell", "moldable-knee", "moldable-hell"}

// schedPolicy returns the policy of key (JSQ-Chunk with chunk nodes per
// chunk) and its legend label.
func schedPolicy(key string, p schedParams, chunk int) (sched.Policy, string) {
	switch key {
	case "srpt":
		return sched.SRPT{}, "SRPT"
	case "waterfill":
		return sched.Waterfill{}, "Waterfill"
	case "jsq-chunk":
		return sched.JSQChunk{Chunk: chunk}, "JSQ-Chunk (best k)"
	case "knee":
		return sched.KNEE{Alpha: p.Alpha}, fmt.Sprintf("KNEE (α = %g)", p.Alpha)
	case "hell":
		return sched.HELL{}, "HELL"
	case "moldable-knee":
		return sched.MoldableKNEE{AlphaL: p.AlphaL, AlphaH: p.AlphaH}, fmt.Sprintf("moldable KNEE (α = %g…%g)", p.AlphaL, p.AlphaH)
	case "moldable-hell":
		return sched.MoldableHELL{}, "moldable HELL"
	}
	panic("kinds: unknown scheduling policy " + key) // Resolve checks models
}

// schedPoint is the outcome of one policy at one load.
type schedPoint struct {
	unstable  bool
	converged bool
	mean, hw  float64 // seconds
	completed int
	chunk     int    // JSQ-Chunk: the best chunk size
	reason    string // why the run stopped
}

// schedPoint summarizes r (for JSQ-Chunk, the best of several chunk runs).
func schedPointOf(r sched.Result, chunk int) schedPoint {
	return schedPoint{unstable: r.Unstable, converged: r.Converged, mean: r.MeanResponse, hw: r.HalfWidth, completed: len(r.ResponseTimes), chunk: chunk, reason: r.Reason}
}

// schedPoisson simulates the spec's policies (models) on the Table III
// workload with Poisson arrivals at every swept load (mascots18 Figs. 1, 12,
// 13) and plots the mean response time in hours with its 95% CI; unstable
// points are not plotted. All policies at one load see the same arrival
// stream (common random numbers). JSQ-Chunk is the best chunk size of the
// search (schedChunkSizes).
//
// Metrics, with <p> a policy key and <x> a load: mean_h.<p>.<x> (stable
// points), ci_rel.<p>.<x> (achieved CI half-width / mean), unstable.<p>.<x>
// (1 or 0), converged.<p>.<x>, jobs.<p>.<x> (completions after warm-up),
// chunk.<x>, better.<a>.<b>.<x> and ratio.<a>.<b>.<x> for every ordered
// pair (schedRatios), ci_rel_max over stable points, and the workload
// metrics of schedWorkloadMetrics.
func schedPoisson(ctx context.Context, env *experiment.Env) (*experiment.Result, error) {
	p := defaultSchedParams()
	if err := env.Params(&p); err != nil {
		return nil, err
	}
	if err := p.validate(env); err != nil {
		return nil, err
	}
	loads := env.Spec.Sweep.Points()
	if env.Spec.Sweep.Var != "load" || len(loads) == 0 {
		return nil, env.Spec.Errorf([]string{"sweep"}, "sweep var %q: want the system load, var = \"load\", with values", env.Spec.Sweep.Var)
	}
	for _, x := range loads {
		if !(x > 0) || math.IsInf(x, 0) {
			return nil, env.Spec.Errorf([]string{"sweep"}, "load %v, need finite > 0", x)
		}
	}
	keys := env.Spec.Models
	if len(keys) == 0 {
		return nil, env.Spec.Errorf([]string{"models"}, "list the policies to simulate (%v)", schedPolicyKeys)
	}
	arrivals, runsPerLoad := p.poissonRuns(keys)
	n, k := float64(len(loads)), float64(len(keys))
	wl, err := loadSchedWorkload(env, "jobs", p, func(types int) error {
		return p.checkSched(env, []string{"sweep"}, schedEvents(n, arrivals, p.Nodes, p.MaxInSystem), 0, n*(7*k+5*k*k+3)+3, types,
			schedWhat("sched-poisson", len(loads)*runsPerLoad, p.Nodes))
	})
	if err != nil {
		return nil, err
	}
	chunks := schedChunkSizes(p.Nodes, p.ChunkLo, p.ChunkHi, p.FullChunkSearch)
	cfg := func(pol sched.Policy, load float64, maxJobs int) sched.Config {
		return sched.Config{Nodes: p.Nodes, Workload: wl, Policy: pol, Load: load,
			MaxJobs: maxJobs, MinJobs: p.MinJobs, Precision: p.Precision, MaxInSystem: p.MaxInSystem}
	}
	// Stage 1: every policy, and JSQ-Chunk with every chunk size that is
	// not overloaded, the latter with at most ChunkSearchJobs arrivals.
	base := env.Rand()
	seeds := make([]uint64, len(loads))
	type slot struct{ load, key, chunk int }
	var runs []schedRun
	var slots []slot
	for li, x := range loads {
		seeds[li] = base.Uint64() | 1 // one arrival stream per load, shared by the policies
		for ki, k := range keys {
			if k != "jsq-chunk" {
				pol, _ := schedPolicy(k, p, 0)
				runs = append(runs, schedRun{seed: seeds[li], cfg: cfg(pol, x, p.MaxJobs)})
				slots = append(slots, slot{li, ki, 0})
				continue
			}
			for _, c := range chunks {
				if schedChunkOverloaded(wl, p.Nodes, c, x) {
					continue
				}
				runs = append(runs, schedRun{seed: seeds[li], cfg: cfg(sched.JSQChunk{Chunk: c}, x, min(p.MaxJobs, p.ChunkSearchJobs))})
				slots = append(slots, slot{li, ki, c})
			}
		}
	}
	results, err := schedRunAll(ctx, runs, false)
	if err != nil {
		return nil, err
	}
	countSched(env, results, p.Nodes, p.MaxInSystem)
	pts := make([][]schedPoint, len(loads))
	for li := range pts {
		pts[li] = make([]schedPoint, len(keys))
		for ki := range keys {
			pts[li][ki] = schedPoint{unstable: true, reason: "every chunk size overloaded: λ·E[S(k)] ≥ ⌊W/k⌋"}
		}
	}
	for i, r := range results {
		s := slots[i]
		best := &pts[s.load][s.key]
		// Keep the best stable run (for JSQ-Chunk, over the chunk sizes).
		switch {
		case !r.Unstable && (best.unstable || r.MeanResponse < best.mean):
			*best = schedPointOf(r, s.chunk)
		case r.Unstable && best.unstable:
			best.reason = r.Reason
			if s.chunk != 0 {
				best.reason = fmt.Sprintf("every chunk size unstable; k = %d: %s", s.chunk, r.Reason)
			}
		}
	}
	// Stage 2: the best chunk size of every load again with MaxJobs
	// arrivals (the same arrival stream), for the plotted value.
	if ki := slices.Index(keys, "jsq-chunk"); ki >= 0 && p.ChunkSearchJobs < p.MaxJobs {
		runs, slots = runs[:0], slots[:0]
		for li, x := range loads {
			if pt := pts[li][ki]; !pt.unstable {
				runs = append(runs, schedRun{seed: seeds[li], cfg: cfg(sched.JSQChunk{Chunk: pt.chunk}, x, p.MaxJobs)})
				slots = append(slots, slot{li, ki, pt.chunk})
			}
		}
		if results, err = schedRunAll(ctx, runs, false); err != nil {
			return nil, err
		}
		countSched(env, results, p.Nodes, p.MaxInSystem)
		for i, r := range results {
			s := slots[i]
			pts[s.load][s.key] = schedPointOf(r, s.chunk)
			if r.Unstable {
				pts[s.load][s.key].reason = fmt.Sprintf("best chunk size k = %d of the search: %s", s.chunk, r.Reason)
			}
		}
	}
	res := experiment.NewResult()
	schedWorkloadMetrics(res, wl, p.Nodes)
	res.Note("%d chunk sizes searched for JSQ-Chunk: %v", len(chunks), chunks)
	ciMax := 0.0
	for ki, k := range keys {
		_, label := schedPolicy(k, p, chunks[0])
		for li, x := range loads {
			pt := pts[li][ki]
			id := k + "." + schedKey(x)
			res.Metric("unstable."+id, schedOne(pt.unstable))
			if pt.unstable {
				res.Note("%-14s load %-5g unstable: %s", k, x, pt.reason)
				continue
			}
			h := pt.mean / 3600
			res.PointRange(label, k, dataset.Derived, x, h, h-pt.hw/3600, h+pt.hw/3600)
			res.Metric("mean_h."+id, h)
			res.Metric("ci_rel."+id, pt.hw/pt.mean)
			res.Metric("converged."+id, schedOne(pt.converged))
			res.Metric("jobs."+id, float64(pt.completed))
			ciMax = math.Max(ciMax, pt.hw/pt.mean)
			if k == "jsq-chunk" {
				res.Metric("chunk."+schedKey(x), float64(pt.chunk))
			}
			res.Note("%-14s load %-5g T = %8.2f h ± %4.1f%% over %d jobs (converged %v)%s", k, x, h, 100*pt.hw/pt.mean, pt.completed, pt.converged, schedChunkNote(pt.chunk))
		}
	}
	res.Metric("ci_rel_max", ciMax)
	for li, x := range loads {
		schedRatios(res, keys, pts[li], "."+schedKey(x))
	}
	return res, nil
}

// schedRatios records, for every ordered pair of distinct policies a, b:
// better.<a>.<b><suffix> = 1 if a is stable and b is unstable or has a
// longer mean response time, else 0 (an unstable policy counts as an
// infinite mean, so the metric exists for every pair); and, when both are
// stable, ratio.<a>.<b><suffix> = T_a/T_b; and margin.<a>.<b><suffix> =
// (T_b − T_a)/T_b with its 95% interval (.ci95_lo, .ci95_hi), positive when
// a has the shorter mean, for golden interval checks: the half-width is
// √(h_a² + h_b²)/T_b from the two runs' own half-widths h (independent
// runs; the policies share their arrivals, which correlates the two
// means positively and makes this interval conservative). An unstable
// policy counts as an infinite mean: margin 1 when only b is unstable,
// −1 when only a is, 0 when both are, each with a point interval.
func schedRatios(res *experiment.Result, keys []string, pts []schedPoint, suffix string) {
	for ai, a := range keys {
		for bi, b := range keys {
			if ai == bi {
				continue
			}
			pa, pb := pts[ai], pts[bi]
			res.Metric("better."+a+"."+b+suffix, schedOne(!pa.unstable && (pb.unstable || pa.mean < pb.mean)))
			m, h := 0.0, 0.0
			switch {
			case !pa.unstable && !pb.unstable:
				res.Metric("ratio."+a+"."+b+suffix, pa.mean/pb.mean)
				m, h = (pb.mean-pa.mean)/pb.mean, math.Hypot(pa.hw, pb.hw)/pb.mean
			case pb.unstable && !pa.unstable:
				m = 1
			case pa.unstable && !pb.unstable:
				m = -1
			}
			key := "margin." + a + "." + b + suffix
			res.Metric(key, m)
			res.Metric(key+".ci95_lo", m-h)
			res.Metric(key+".ci95_hi", m+h)
		}
	}
}

func schedChunkNote(chunk int) string {
	if chunk == 0 {
		return ""
	}
	return fmt.Sprintf(", best chunk %d", chunk)
}

// schedOne is 1 for true and 0 for false.
func schedOne(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

package mascots18

import (
	"fmt"
	"math"
	"pslab/engine/experiment"
	"slices"
	"strings"
)

// structure records the throughput values and the structural metrics.
func (o curveOut) structure(cs curveSet) {
	id, sfx, r := cs.prof.ID, suffix(cs.m), o.res
	q, cycle := cs.phases, cs.phases.Cycle()
	bound := 1 / bottleneck(q)
	r.Metric("cycle."+id+sfx, cycle)
	r.Metric("bound."+id+sfx, bound)
	ratio := 0.0
	for _, k := range o.keys {
		c := cs.x[k]
		own := 0.0
		for _, K := range o.ks {
			r.Metric(fmt.Sprintf("x.%s.%s%s.k%d", id, k, sfx, K), c[K-1])
			own = math.Max(own, c[K-1]/bound)
			if o.p.Y == "speedup" {
				r.Metric(fmt.Sprintf("speedup.%s.%s%s.k%d", id, k, sfx, K), c[K-1]/c[0])
				r.Metric(fmt.Sprintf("efficiency.%s.%s%s.k%d", id, k, sfx, K), c[K-1]/c[0]/float64(K))
			}
		}
		r.Metric(fmt.Sprintf("bound_ratio.%s.%s%s", id, k, sfx), own)
		ratio = math.Max(ratio, own)
		if o.p.Linear {
			region := 0
			for _, K := range o.ks {
				if c[K-1] < (1-o.p.LinearTol)*float64(K)/cycle {
					break
				}
				region = K
			}
			r.Metric(fmt.Sprintf("linear_region.%s.%s%s", id, k, sfx), float64(region))
		}
	}
	r.Metric("bound_ratio_max."+id+sfx, ratio)
	if o.p.Linear {
		r.Metric(fmt.Sprintf("linear_region.%s.deterministic%s", id, sfx), math.Min(math.Floor(cycle/bottleneck(q)), float64(o.ks[len(o.ks)-1])))
	}
	exact, hasExact := cs.x["exact"]
	approx, hasApprox := cs.x["approximate"]
	if hasApprox {
		drop := math.Inf(-1)
		for i := 1; i < len(o.ks); i++ {
			drop = math.Max(drop, approx[o.ks[i-1]-1]-approx[o.ks[i]-1])
		}
		if len(o.ks) > 1 {
			r.Metric("approx_max_drop."+id+sfx, drop)
		}
		for _, k := range o.keys {
			if k == "approximate" {
				continue
			}
			d := 0.0
			for _, K := range o.ks {
				d = math.Max(d, math.Abs(cs.x[k][K-1]-approx[K-1]))
			}
			r.Metric(fmt.Sprintf("diff_vs_approx.%s.%s%s", id, k, sfx), d)
		}
	}
	if !hasExact || !hasApprox {
		return
	}
	worst := math.Inf(-1)
	for _, K := range o.ks {
		worst = math.Max(worst, exact[K-1]-approx[K-1])
	}
	r.Metric("exact_minus_approx_max."+id+sfx, worst)
	for _, k := range o.keys {
		if !strings.HasPrefix(k, "hybrid") {
			continue
		}
		out := math.Inf(-1)
		for _, K := range o.ks {
			h := cs.x[k][K-1]
			out = math.Max(out, math.Max(exact[K-1]-h, h-approx[K-1]))
		}
		r.Metric(fmt.Sprintf("hybrid_outside.%s.%s%s", id, k, sfx), out)
	}
}

// serverGain records, for every m > 1 when m = 1 is computed, the smallest
// gain min_K X_m(K) − X_1(K) (steps/s) per variant (§VII).
func serverGain(r *experiment.Result, keys []string, ks []int, sets []curveSet) {
	i := slices.IndexFunc(sets, func(c curveSet) bool { return c.m == 1 })
	if i < 0 {
		return
	}
	for _, cs := range sets {
		if cs.m == 1 {
			continue
		}
		for _, k := range keys {
			g := math.Inf(1)
			for _, K := range ks {
				g = math.Min(g, cs.x[k][K-1]-sets[i].x[k][K-1])
			}
			r.Metric(fmt.Sprintf("server_gain_min.%s.%s.m%d", cs.prof.ID, k, cs.m), g)
		}
	}
}

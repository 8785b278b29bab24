package mechanism

import (
	"context"
	"fmt"
	"math"

	"pslab/engine/experiment"
	"pslab/engine/sim"
)

type linkStatesParams struct {
	Workers []int // W values
	Servers []int // M values
}

// linkStates counts the active/inactive states of the W·M downlinks of W
// workers and M parameter servers (icpe20 §5, Fig. 24) by enumerating them
// with sim.LinkStates, and compares the count with the closed form
// sim.LinkStateCount = 2^(W·M). Bars: states per W (category) and M
// (series); metrics states.w<W>.m<M> and mismatches (the number of (W, M)
// where the enumeration and the closed form differ).
func linkStates(_ context.Context, env *experiment.Env) (*experiment.Result, error) {
	var p linkStatesParams
	if err := env.Params(&p); err != nil {
		return nil, err
	}
	if len(p.Workers) == 0 || len(p.Servers) == 0 {
		return nil, env.Errorf("workers", "workers and servers must be non-empty lists")
	}
	// Every pair enumerates 2^(W·M) states of W·M links and keys each in
	// a map (about 10 units more): bound them all before any is
	// enumerated (sim.LinkStates refuses a pair without links or beyond
	// sim.MaxEnumeratedLinks before it allocates).
	var units float64
	for _, m := range p.Servers {
		for _, w := range p.Workers {
			if links := float64(w) * float64(m); w >= 1 && m >= 1 && links <= sim.MaxEnumeratedLinks {
				units += math.Exp2(links) * (links + 10)
			}
		}
	}
	pairs := float64(len(p.Servers)) * float64(len(p.Workers))
	if err := env.CheckRows([]string{"params", "workers"}, units, 2*pairs+1,
		fmt.Sprintf("link-states: %d workers × %d servers", len(p.Workers), len(p.Servers))); err != nil {
		return nil, err
	}
	res := experiment.NewResult()
	mismatches := 0
	for _, m := range p.Servers {
		for _, w := range p.Workers {
			states, err := sim.LinkStates(w, m)
			if err != nil {
				return nil, env.Errorf("workers", "W = %d, M = %d: %v", w, m, err)
			}
			count, err := sim.LinkStateCount(w, m)
			if err != nil {
				return nil, env.Errorf("workers", "W = %d, M = %d: %v", w, m, err)
			}
			distinct := map[string]bool{}
			for _, st := range states {
				distinct[fmt.Sprint(st)] = true
			}
			env.CountModelWork(float64(len(states)) * float64(w*m+10))
			if !count.IsInt64() || count.Int64() != int64(len(distinct)) || len(distinct) != len(states) {
				mismatches++
			}
			res.Metric(fmt.Sprintf("states.w%d.m%d", w, m), float64(len(distinct)))
			res.Bar(fmt.Sprintf("M = %d parameter server(s)", m), fmt.Sprintf("W = %d", w), "icpe20-states", "derived", float64(len(distinct)))
		}
	}
	res.Metric("mismatches", float64(mismatches))
	return res, nil
}

package sim

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"testing"

	"github.com/stretchr/testify/require"

	"pslab/engine/trace"
)

// randomTrace builds a random valid trace: layers with downlinks spread over
// servers PSs, a forward chain with random skip dependencies, backward in
// reverse, uplinks and updates; steps differ in durations and sizes.
func randomTrace(r *rand.Rand, servers int) *trace.Trace {
	layers := 1 + r.IntN(6)
	tr := &trace.Trace{Meta: trace.Meta{Bandwidth: 100, Window: int64(1 + r.IntN(300)), Batch: 2, Servers: servers,
		Alpha: r.Float64() * 1e-3, Beta: r.Float64() * 0.05}}
	ps := make([]int, layers)
	skip := make([]int, layers)
	for i := range ps {
		ps[i] = r.IntN(servers)
		skip[i] = -1
		if i > 1 && r.IntN(2) == 0 {
			skip[i] = r.IntN(i - 1)
		}
	}
	for range 1 + r.IntN(4) {
		b := newStep()
		for i := range layers {
			b.op(fmt.Sprint("d", i), trace.Resource{Kind: trace.Downlink, PS: ps[i]}.String(), 1+int64(r.IntN(500)), 0)
		}
		for i := range layers {
			deps := []string{fmt.Sprint("d", i)}
			if i > 0 {
				deps = append(deps, fmt.Sprint("f", i-1))
			}
			if skip[i] >= 0 {
				deps = append(deps, fmt.Sprint("f", skip[i]))
			}
			b.op(fmt.Sprint("f", i), "worker", 0, r.Float64(), deps...)
		}
		prev := fmt.Sprint("f", layers-1)
		for i := layers - 1; i >= 0; i-- {
			b.op(fmt.Sprint("b", i), "worker", 0, r.Float64(), prev)
			prev = fmt.Sprint("b", i)
			b.op(fmt.Sprint("u", i), trace.Resource{Kind: trace.Uplink, PS: ps[i]}.String(), 1+int64(r.IntN(500)), 0, prev)
			b.op(fmt.Sprint("p", i), trace.Resource{Kind: trace.PS, PS: ps[i]}.String(), 0, r.Float64()*0.1, fmt.Sprint("u", i))
		}
		tr.Steps = append(tr.Steps, b.step())
	}
	return tr
}

// TestInvariants checks on random traces and configurations that every op
// of every step completes exactly once, after all its dependencies, that a
// (worker, resource) never runs two chunks at once (I-5, I-11), and that
// per-worker steps do not overlap: 150 of them, 50 under -short.
func TestInvariants(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(42, 42))
	iters := 150
	if testing.Short() {
		iters = 50
	}
	for iter := range iters {
		servers := 1 + r.IntN(3)
		tr := randomTrace(r, servers)
		cfg := Config{
			Workers: 1 + r.IntN(5), Steps: 1 + r.IntN(6), Warmup: NoWarmup, Seed: r.Uint64(),
			Link: Link{Mode: Mode(r.IntN(2)), Order: Order(r.IntN(4))}, OverheadOn: OverheadPlacement(r.IntN(2)),
		}
		where := fmt.Sprintf("iter %d: %+v %s", iter, cfg.Link, cfg.OverheadOn)
		ss, res, err := spans(tr, cfg)
		require.NoError(t, err, where)
		require.Equal(t, cfg.Workers*cfg.Steps, res.Steps, where)
		require.Equal(t, int(res.Events), len(ss), where)
		type key struct{ w, k, op int }
		type oh struct {
			key
			overhead bool
		}
		end := map[oh]float64{}
		start := map[oh]float64{}
		for _, s := range ss {
			require.LessOrEqual(t, s.Start, s.End, where)
			kk := oh{key{s.Worker, s.Step, s.Op}, s.Overhead}
			if _, ok := start[kk]; !ok {
				start[kk] = s.Start
			}
			if s.Last {
				_, dup := end[kk]
				require.False(t, dup, "%s: op completed twice", where)
				end[kk] = s.End
			}
		}
		ops := tr.Steps[0].Ops
		for w := range cfg.Workers {
			for k := range cfg.Steps {
				for i := range ops {
					_, ok := end[oh{key{w, k, i}, false}]
					require.True(t, ok, "%s: w%d s%d op %d never completed", where, w, k, i)
					for _, d := range ops[i].Deps {
						dEnd := end[oh{key{w, k, int(d)}, false}]
						if h, ok := end[oh{key{w, k, int(d)}, true}]; ok {
							dEnd = h // the dependency's parsing overhead
						}
						require.GreaterOrEqual(t, start[oh{key{w, k, i}, false}], dEnd-1e-12, where)
					}
					if h, ok := end[oh{key{w, k, i}, true}]; ok && cfg.OverheadOn == ReceiveThreads {
						// a receive-thread overhead starts with the transfer's last
						// byte and waits for nothing
						require.InDelta(t, end[oh{key{w, k, i}, false}], start[oh{key{w, k, i}, true}], 1e-12, where)
						require.Greater(t, h, end[oh{key{w, k, i}, false}], where)
					}
				}
			}
		}
		// A worker's steps follow each other.
		stepStart, stepEnd := map[[2]int]float64{}, map[[2]int]float64{}
		for _, s := range ss {
			id := [2]int{s.Worker, s.Step}
			if v, ok := stepStart[id]; !ok || s.Start < v {
				stepStart[id] = s.Start
			}
			stepEnd[id] = max(stepEnd[id], s.End)
		}
		for id, e := range stepEnd {
			if st, ok := stepStart[[2]int{id[0], id[1] + 1}]; ok {
				require.GreaterOrEqual(t, st, e, where)
			}
		}
		// No two chunks at once on one (worker, resource); receive-thread
		// overheads occupy no resource.
		byRes := map[string][]Span{}
		for _, s := range ss {
			if s.Overhead && cfg.OverheadOn == ReceiveThreads {
				continue
			}
			id := fmt.Sprint(s.Worker, s.Resource)
			byRes[id] = append(byRes[id], s)
		}
		for id, list := range byRes {
			sort.Slice(list, func(a, b int) bool {
				return list[a].Start < list[b].Start || (list[a].Start == list[b].Start && list[a].End < list[b].End)
			})
			for j := 1; j < len(list); j++ {
				require.GreaterOrEqual(t, list[j].Start, list[j-1].End-1e-12, "%s: overlap on %s", where, id)
			}
		}
	}
}

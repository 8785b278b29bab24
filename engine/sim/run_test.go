package sim

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"pslab/engine/trace"
)

// TestOpenRunIsTheRun: an open run (an estimate's replication) gives the
// Output of the run that retires its workers, and an open run extended
// from L to 2L steps gives the Output and the events of one opened at 2L:
// a doubling continues its replications without changing the estimate.
// ASP and BSP, HTTP/2 and flow control off, 1 and 2 PSs, colocated NICs,
// the Random order.
func TestOpenRunIsTheRun(t *testing.T) {
	t.Parallel()
	type tc struct {
		tr  *trace.Trace
		cfg Config
	}
	var cases []tc
	servers, workers := []int{1, 2}, []int{1, 3, 5}
	if testing.Short() {
		servers, workers = []int{2}, []int{3}
	}
	for _, servers := range servers {
		tr := inceptionLike(8, 0.05, servers, uint64(servers))
		for _, w := range workers {
			for _, y := range []Sync{ASP, BSP} {
				cases = append(cases,
					tc{tr, Config{Workers: w, Sync: y, Bandwidth: 1.25e9, Seed: 11}},
					tc{tr, Config{Workers: w, Sync: y, Bandwidth: 1.25e9, Seed: 12, Link: Link{Mode: WholeStream, Order: Random}}})
			}
		}
	}
	cases = append(cases, tc{colocatedTrace(4, 2e6, 0.01, 1e9), Config{Workers: 4, Sync: BSP, Colocated: true, Seed: 3}},
		tc{colocatedTrace(4, 2e6, 0.01, 1e9), Config{Workers: 4, Colocated: true, Seed: 4}})
	const steps = 20
	for i, c := range cases {
		t.Run(fmt.Sprintf("%d-%s-W%d-%s", i, c.cfg.Sync, c.cfg.Workers, c.cfg.Link.Order), func(t *testing.T) {
			pr, err := Compile(c.tr)
			require.NoError(t, err)
			open := func(n int) (*sim, Output) {
				cfg := c.cfg
				cfg.Steps, cfg.Start, cfg.Warmup = n, Staggered, NoWarmup
				p, err := resolve(&pr.meta, &cfg)
				require.NoError(t, err)
				s, o, err := startOpen(pr.variant(&p), &p, &cfg)
				require.NoError(t, err)
				return s, o
			}
			cfg := c.cfg
			cfg.Steps, cfg.Start, cfg.Warmup = steps, Staggered, NoWarmup
			closed, err := pr.Run(cfg)
			require.NoError(t, err)
			s, o := open(steps)
			want := closed.Output
			if c.cfg.Sync == BSP {
				// The release of step L may come at the window end's instant
				// (W = 1, or all in step): an open run counts that cycle,
				// the run retired its workers before it.
				require.Contains(t, []int{want.Cycles.Count, want.Cycles.Count + 1}, o.Cycles.Count)
				want.Cycles = o.Cycles
			}
			require.Equal(t, want, o, "an open run's Output is the run's")
			extended, err := s.extend(2 * steps)
			require.NoError(t, err)
			fresh, o2 := open(2 * steps)
			require.Equal(t, o2, extended, "extended to 2L = opened at 2L")
			require.Equal(t, fresh.events, s.events)
			require.Equal(t, fresh.now, s.now)
		})
	}
}

package sim

import (
	"fmt"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"pslab/engine/trace"
)

// compileConfigs covers every part of a Program a run can pick: the three
// overhead structures, several (alpha, beta), the four orders (TIC and
// Random read priorities), both link modes, bandwidths, seeds and W.
func compileConfigs() []Config {
	var cs []Config
	for i, oh := range []*Overhead{nil, {}, {Alpha: 1e-9, Beta: 1e-4}, {Beta: 2e-4}} {
		for _, on := range []OverheadPlacement{ReceiveThreads, Processor} {
			for o := FIFO; o <= Random; o++ {
				cs = append(cs, Config{
					Workers: 1 + (i+int(o))%4, Steps: 12, Warmup: 3, Seed: uint64(i + 3*int(o)),
					Overhead: oh, OverheadOn: on, Link: Link{Order: o, Mode: Mode(i % 2)},
					Bandwidth: float64(1+i) * 1e9, SeriesWindow: 0.5,
				})
			}
		}
	}
	return cs
}

// TestProgramMatchesRun: one compiled Program, reused across all configs
// (and concurrently, by three users, two under -short), gives exactly the
// results of sim.Run, which compiles every time; the spans are the same
// too.
func TestProgramMatchesRun(t *testing.T) {
	t.Parallel()
	tr := inceptionLike(6, 0.2, 2, 8)
	pr, err := Compile(tr)
	require.NoError(t, err)
	cs := compileConfigs()
	want := make([]Result, len(cs))
	for i, c := range cs {
		want[i], err = Run(tr, c)
		require.NoError(t, err, "config %d", i)
	}
	var wg sync.WaitGroup
	users := 3 // concurrent users of the one Program
	if testing.Short() {
		users = 2
	}
	for range users {
		wg.Go(func() {
			for i, c := range cs {
				got, err := pr.Run(c)
				require.NoError(t, err, "config %d", i)
				require.Equal(t, want[i], got, "config %d", i)
			}
		})
	}
	wg.Wait()
	spans := func(run func(Config) (Result, error), c Config) string {
		var out []byte
		c.OnSpan = func(s Span) { out = fmt.Appendf(out, "%+v\n", s) }
		_, err := run(c)
		require.NoError(t, err)
		return string(out)
	}
	c := cs[len(cs)-1]
	require.Equal(t, spans(func(c Config) (Result, error) { return Run(tr, c) }, c), spans(pr.Run, c))
}

func TestProgramSweep(t *testing.T) {
	t.Parallel()
	tr := inceptionLike(6, 0.2, 1, 9)
	pr, err := Compile(tr)
	require.NoError(t, err)
	cfg := Config{Steps: 20, Warmup: 4, Seed: 2, Link: Link{Order: TIC}}
	ws := []int{1, 3, 5}
	want, err := Sweep(tr, cfg, ws)
	require.NoError(t, err)
	got, err := pr.Sweep(cfg, ws)
	require.NoError(t, err)
	require.Equal(t, want, got)
	_, err = pr.Sweep(Config{OnSpan: func(Span) {}}, ws)
	require.ErrorContains(t, err, "OnSpan must be nil")
	_, err = pr.Sweep(Config{Steps: 20, Bandwidth: -1}, ws)
	require.ErrorContains(t, err, "Config.Bandwidth")
}

// TestCompileOwnsItsData: changing the trace after Compile changes
// nothing in the Program's runs.
func TestCompileOwnsItsData(t *testing.T) {
	t.Parallel()
	tr := inceptionLike(4, 0.2, 1, 10)
	pr, err := Compile(tr)
	require.NoError(t, err)
	cfg := Config{Workers: 2, Steps: 10, Warmup: 2, Link: Link{Order: TIC}}
	want, err := pr.Run(cfg)
	require.NoError(t, err)
	for s := range tr.Steps {
		for i := range tr.Steps[s].Ops {
			op := &tr.Steps[s].Ops[i]
			op.End *= 2
			op.Bytes *= 3
			op.Name = "changed"
			op.Deps = nil
		}
	}
	tr.Meta.Bandwidth *= 5
	got, err := pr.Run(cfg)
	require.NoError(t, err)
	require.Equal(t, want, got)
}

func TestCompileErrors(t *testing.T) {
	t.Parallel()
	_, err := Compile(nil)
	require.ErrorContains(t, err, "nil trace")
	_, err = Compile(&trace.Trace{})
	require.ErrorContains(t, err, "sim: trace: no steps")
	tr := inceptionLike(2, 0.1, 1, 1)
	tr.Steps[0].Ops[0].Deps = []int32{0}
	_, err = Compile(tr)
	require.Error(t, err)
	tr = inceptionLike(2, 0.1, 1, 1)
	for s := range tr.Steps {
		for i := range tr.Steps[s].Ops {
			if tr.Steps[s].Ops[i].Resource.Kind == trace.Worker {
				tr.Steps[s].Ops[i].Resource.PS = 1
			}
		}
	}
	_, err = Compile(tr)
	require.ErrorContains(t, err, "worker resource with PS index 1")
	pr, err := Compile(inceptionLike(2, 0.1, 1, 1))
	require.NoError(t, err)
	_, err = pr.Run(Config{})
	require.ErrorContains(t, err, "Config.Workers")
}

// TestSetupAllocations: after a Program's first run, a run's setup
// allocates a bounded number of objects whatever the seed (issue #16: at
// most 100).
func TestSetupAllocations(t *testing.T) {
	pr, err := Compile(inceptionLike(20, 0.1, 2, 1))
	require.NoError(t, err)
	cfg := Config{Workers: 10, Link: Link{Order: TIC}}
	_, err = pr.Run(Config{Workers: 1, Steps: 2, Warmup: 1, Link: Link{Order: TIC}})
	require.NoError(t, err)
	allocs := testing.AllocsPerRun(5, func() {
		cfg.Seed++
		p, err := resolve(&pr.meta, &cfg)
		require.NoError(t, err)
		_, err = setup(pr.variant(&p), &p, &cfg)
		require.NoError(t, err)
	})
	require.LessOrEqual(t, allocs, 100.0)
}

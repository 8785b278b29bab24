package sim

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"sync"

	"pslab/engine/trace"
)

// Program is a trace compiled for simulation by Compile: validated once,
// its structure and per-step durations and sizes copied, so that runs for
// any number of workers, seed, bandwidth, link mode, order, window, steps
// or warm-up skip both. The overhead transform (B.1.2) for each overhead
// structure, the compute times for each (alpha, beta) and the TIC order are
// built on first use and kept. A Program does not refer to the trace after
// Compile returns, and it is safe for concurrent use.
type Program struct {
	meta    trace.Meta
	first   trace.Step // step 0: names, resources, dependencies
	nSteps  int
	servers int       // PSs: Meta.Servers or 1 + the largest PS index, at least 1
	dur     []float64 // [step·n₀+op] recorded seconds of computation ops, 0 for links
	bytes   []int64   // [step·n₀+op] bytes of communication ops, 0 for computation
	// meanStep is the mean recorded step time in seconds: the mean over
	// profiled steps of the latest op end (Staggered start offsets).
	meanStep float64

	ticOnce sync.Once
	tic     []int32 // TICPriority of first

	mu     sync.Mutex
	shapes [3]*shape // by overhead structure: none, ReceiveThreads, Processor

	digestOnce sync.Once
	digestSum  [sha256.Size]byte // digest: what EstimateCache keys on
}

// shape is one overhead structure of a Program and the compute times built
// for it.
type shape struct {
	g           *program
	tic, revTIC []int32
	works       []cachedWork
}

type cachedWork struct {
	alpha, beta float64
	work        []float64
}

// maxCachedWorks bounds the (alpha, beta) pairs kept per shape; runs with
// further pairs build their compute times each time.
const maxCachedWorks = 8

// Compile validates tr (trace.Trace.Validate and the simulator's own
// checks) and copies what simulation needs. It returns an error naming the
// problem for a nil or invalid trace.
func Compile(tr *trace.Trace) (*Program, error) {
	if tr == nil {
		return nil, errors.New("sim: nil trace")
	}
	if err := tr.Validate(); err != nil {
		return nil, fmt.Errorf("sim: %w", err)
	}
	first := tr.Steps[0].Ops
	n0 := len(first)
	pr := &Program{meta: tr.Meta, nSteps: len(tr.Steps), servers: max(tr.Meta.Servers, 1)}
	nDeps := 0
	for i := range first {
		r := first[i].Resource
		if r.Kind == trace.Worker && r.PS != 0 {
			return nil, fmt.Errorf("sim: op %d %q: worker resource with PS index %d", i, first[i].Name, r.PS)
		}
		pr.servers = max(pr.servers, r.PS+1)
		nDeps += len(first[i].Deps)
	}
	ops := make([]trace.Op, n0)
	deps := make([]int32, 0, nDeps)
	for i := range first {
		o := &first[i]
		k := len(deps)
		deps = append(deps, o.Deps...)
		ops[i] = trace.Op{Name: o.Name, Resource: o.Resource, Start: o.Start, End: o.End, Bytes: o.Bytes, Deps: deps[k:len(deps):len(deps)]}
	}
	pr.first = trace.Step{Ops: ops}
	pr.dur = make([]float64, pr.nSteps*n0)
	pr.bytes = make([]int64, pr.nSteps*n0)
	for s := range tr.Steps {
		var end int64
		for i := range tr.Steps[s].Ops {
			op := &tr.Steps[s].Ops[i]
			end = max(end, op.End)
			if op.IsComm() {
				pr.bytes[s*n0+i] = op.Bytes
			} else {
				pr.dur[s*n0+i] = float64(op.Duration()) * 1e-9
			}
		}
		pr.meanStep += float64(end) * 1e-9 / float64(pr.nSteps)
	}
	return pr, nil
}

// Run is sim.Run on the compiled trace: it simulates cfg.Workers workers
// and returns an error naming the field for a bad configuration, and the
// error of cfg.Timeline if writing fails.
func (pr *Program) Run(cfg Config) (Result, error) {
	p, err := resolve(&pr.meta, &cfg)
	if err != nil {
		return Result{}, err
	}
	return run(pr.variant(&p), &p, &cfg)
}

// Sweep is sim.Sweep on the compiled trace: one run per element of
// workers, in parallel, results in the same order.
func (pr *Program) Sweep(cfg Config, workers []int) ([]Result, error) {
	if cfg.Timeline != nil || cfg.OnSpan != nil {
		return nil, errors.New("sim: Sweep: Config.Timeline and Config.OnSpan must be nil; use Run for timelines")
	}
	p, err := resolve(&pr.meta, &cfg)
	if err != nil {
		return nil, err
	}
	return sweep(pr.variant(&p), &p, cfg, workers)
}

// variant returns the program for resolved parameters p: the shared layout
// of its overhead structure with its compute times and link priorities.
func (pr *Program) variant(p *params) *program {
	withOH := p.alpha > 0 || p.beta > 0
	k := 0
	if withOH {
		k = 1 + int(p.overheadOn)
	}
	pr.mu.Lock()
	sh := pr.shapes[k]
	if sh == nil {
		sh = &shape{g: pr.layout(withOH, p.overheadOn)}
		pr.shapes[k] = sh
	}
	var work []float64
	for _, c := range sh.works {
		if !withOH || c.alpha == p.alpha && c.beta == p.beta {
			work = c.work
			break
		}
	}
	if work == nil {
		work = pr.buildWork(sh.g, p.alpha, p.beta)
		if len(sh.works) < maxCachedWorks {
			sh.works = append(sh.works, cachedWork{p.alpha, p.beta, work})
		}
	}
	var prio []int32 // FIFO reads no priorities
	switch p.order {
	case TIC:
		if sh.tic == nil {
			sh.tic = pr.priorities(sh.g, TIC, 0)
		}
		prio = sh.tic
	case ReverseTIC:
		if sh.revTIC == nil {
			sh.revTIC = pr.priorities(sh.g, ReverseTIC, 0)
		}
		prio = sh.revTIC
	}
	g := *sh.g
	pr.mu.Unlock()
	g.work, g.prio = work, prio
	if p.order == Random {
		g.prio = pr.priorities(&g, Random, p.seed)
	}
	return &g
}

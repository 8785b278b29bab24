package mascots18

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strconv"
	"sync"

	"pslab/engine/dataset"
	"pslab/engine/experiment"
	"pslab/engine/mva"
	"pslab/engine/sched"
)

// schedParams are the [params] shared by the mascots18 scheduling kinds
// (sched-poisson, sched-early-termination, sched-trace).
type schedParams struct {
	// Types are the Table III DNNs of the workload, equally likely (empty:
	// all four; Fig. 1 uses AlexNet, Fig. 12b/13b AlexNet and VGG19).
	Types []string
	// Nodes is W, the cluster size (mascots18 §V-B: 100).
	Nodes int
	// MVA is the throughput model solved on each DNN's phases: "exact"
	// (default) or "approximate". The paper does not name the variant of
	// its simulations (CATALOGUE I-18, M-12). Exact MVA (PS links) is the
	// default: it approaches the printed AlexNet limit "4.8" from below
	// (4.81; approximate MVA reaches the bound 4.86) and it is monotone in
	// the workers, which the KNEE and HELL tables and the JSQ-Chunk size
	// reduction assume (approximate MVA need not be, M-8; use
	// full_chunk_search with it).
	MVA string `toml:"mva"`
	// EpochsVariance is the variance of the Gaussian number of epochs
	// (epochs², §V-B "variance equal to 2", M-6).
	EpochsVariance float64 `toml:"epochs_variance"`
	// Alpha is the malleable KNEE threshold (§V-B: 0.01).
	Alpha float64
	// AlphaL, AlphaH are the moldable KNEE thresholds at load 0 and 1
	// (not given by the paper; sched defaults 0.01 and 0.1).
	AlphaL float64 `toml:"alpha_l"`
	AlphaH float64 `toml:"alpha_h"`
	// ChunkLo..ChunkHi is the JSQ-Chunk chunk-size search range in nodes
	// (§V-B: 7 to 40).
	ChunkLo int `toml:"chunk_lo"`
	ChunkHi int `toml:"chunk_hi"`
	// FullChunkSearch runs every chunk size in the range instead of only
	// the largest size of every chunk count (schedChunkSizes).
	FullChunkSearch bool `toml:"full_chunk_search"`
	// ChunkSearchJobs caps the arrivals of the JSQ-Chunk search runs; the
	// best size is then rerun with MaxJobs arrivals (Poisson runs only).
	ChunkSearchJobs int `toml:"chunk_search_jobs"`
	// MaxJobs, MinJobs, Precision, MaxInSystem are the sched.Config
	// statistical settings (arrivals, completions, relative CI half-width,
	// backlog bound in jobs).
	MaxJobs     int `toml:"max_jobs"`
	MinJobs     int `toml:"min_jobs"`
	Precision   float64
	MaxInSystem int `toml:"max_in_system"`
}

// defaultSchedParams: 100 nodes, exact MVA, variance 2, α = 0.01, chunks
// 7..40, the paper's 5% precision, at most 20 000 arrivals per run.
func defaultSchedParams() schedParams {
	return schedParams{Nodes: 100, MVA: "exact", EpochsVariance: sched.DefaultEpochsVariance,
		Alpha: sched.DefaultAlpha, AlphaL: sched.DefaultAlphaL, AlphaH: sched.DefaultAlphaH,
		ChunkLo: 7, ChunkHi: 40, ChunkSearchJobs: 10_000, MaxJobs: 20_000, MinJobs: 2_000, Precision: sched.DefaultPrecision, MaxInSystem: 300}
}

var schedMVAVariants = map[string]mva.Variant{"exact": mva.Exact, "approximate": mva.Approximate}

func (p schedParams) validate(env *experiment.Env) error {
	switch {
	case p.Nodes < 2:
		return env.Errorf("nodes", "nodes %d, need ≥ 2 (one worker and one PS)", p.Nodes)
	case !(p.EpochsVariance >= 0) || math.IsInf(p.EpochsVariance, 0):
		return env.Errorf("epochs_variance", "epochs variance %v, need finite ≥ 0", p.EpochsVariance)
	case p.ChunkLo < 1 || p.ChunkHi < p.ChunkLo || p.ChunkLo > p.Nodes:
		return env.Errorf("chunk_lo", "chunk range [%d, %d] for %d nodes is empty", p.ChunkLo, p.ChunkHi, p.Nodes)
	case p.ChunkSearchJobs < 1:
		return env.Errorf("chunk_search_jobs", "chunk_search_jobs %d, need ≥ 1", p.ChunkSearchJobs)
	case p.MaxJobs < 1 || p.MinJobs < 1 || p.MaxInSystem < 1:
		return env.Errorf("max_jobs", "max_jobs %d, min_jobs %d, max_in_system %d: need ≥ 1", p.MaxJobs, p.MinJobs, p.MaxInSystem)
	case !(p.Precision > 0) || math.IsInf(p.Precision, 0):
		return env.Errorf("precision", "precision %v, need finite > 0", p.Precision)
	}
	if err := p.checkNodes(env); err != nil {
		return err
	}
	if _, ok := schedMVAVariants[p.MVA]; !ok {
		return env.Errorf("mva", "unknown MVA variant %q (want exact or approximate)", p.MVA)
	}
	return nil
}

// schedSpecs reads the Table III rows named by names (all rows when empty)
// from a mascots18-table3 table: model size in MB of 10⁶ bytes and TFLOP per
// batch of 1024 (CATALOGUE M-12).
func schedSpecs(t *dataset.Table, names []string) ([]sched.ModelSpec, error) {
	if len(names) == 0 {
		names = t.Strings("name")
	}
	out := make([]sched.ModelSpec, 0, len(names))
	for _, n := range names {
		i, err := t.RowOf("name", n)
		if err != nil {
			return nil, err
		}
		out = append(out, sched.ModelSpec{Name: n, Examples: t.Floats("examples")[i],
			ModelBytes: t.Floats("model_size")[i] * 1e6, TFLOPPerBatch: t.Floats("tflop_per_batch")[i],
			Epochs: float64(t.Ints("epochs")[i])})
	}
	return out, nil
}

// schedWorkload builds the workload of specs on the mascots18 platform
// (sched.PaperPlatform: K520 at 1229 GFLOP/s, 1 Gbps, batch 1024, S^S = 0)
// and gives every type its throughput X[w] in examples/s on w = 1..nodes
// nodes: the MVA curve of its phases for 1..nodes−1 workers and one PS,
// converted by sched.NodeThroughput (w−1 workers + 1 PS, X(1) = X(2),
// CATALOGUE M-4).
func schedWorkload(specs []sched.ModelSpec, nodes int, variance float64, v mva.Variant) (sched.Workload, error) {
	wl, err := sched.NewWorkload(specs, sched.PaperPlatform(), variance)
	if err != nil {
		return sched.Workload{}, err
	}
	for i := range wl.Types {
		t := &wl.Types[i]
		ph := mva.Phases{Worker: t.Phases.Worker, Uplink: t.Phases.Uplink, Server: t.Phases.Server, Downlink: t.Phases.Downlink}
		steps, err := mva.Curve(ph, nodes-1, 1, v)
		if err != nil {
			return sched.Workload{}, fmt.Errorf("%s: %w", t.Name, err)
		}
		if t.X, err = sched.NodeThroughput(steps, t.Batch); err != nil {
			return sched.Workload{}, fmt.Errorf("%s: %w", t.Name, err)
		}
	}
	return wl, nil
}

// loadSchedWorkload reads the Table III input named input and builds the
// workload of p, after check (the kind's bound on its work, given the
// number of job types) admits it.
func loadSchedWorkload(env *experiment.Env, input string, p schedParams, check func(types int) error) (sched.Workload, error) {
	t, err := env.Input(input, mascotsTable3)
	if err != nil {
		return sched.Workload{}, err
	}
	if err := check(p.types(t.Len())); err != nil {
		return sched.Workload{}, err
	}
	env.CountModelWork(float64(p.types(t.Len())) * mvaLevelWork * float64(p.Nodes))
	specs, err := schedSpecs(t, p.Types)
	if err != nil {
		return sched.Workload{}, env.Errorf("types", "%v", err)
	}
	return schedWorkload(specs, p.Nodes, p.EpochsVariance, schedMVAVariants[p.MVA])
}

// schedWorkloadMetrics records, per type, E[S(1)] in days (the expected
// J/X(1) with the truncated mean epochs) and the speedup limit
// max_w X(w)/X(1), and notes the curve.
func schedWorkloadMetrics(res *experiment.Result, wl sched.Workload, nodes int) {
	for _, t := range wl.Types {
		peak := 0.0
		for w := 1; w <= nodes; w++ {
			peak = math.Max(peak, t.X[w])
		}
		s1 := t.MeanEpochs() * t.Examples / t.X[1]
		res.Metric("s1_days."+t.Name, s1/86400)
		res.Metric("speedup_max."+t.Name, peak/t.X[1])
		res.Note("%s: S^W %.3f s, S^U = S^D %.3f s, X(1) %.1f examples/s, X(5)/X(1) %.2f, X(10)/X(1) %.2f, max speedup %.2f, E[S(1)] %.2f days",
			t.Name, t.Phases.Worker, t.Phases.Uplink, t.X[1], t.X[min(5, nodes)]/t.X[1], t.X[min(10, nodes)]/t.X[1], peak/t.X[1], s1/86400)
	}
	if s1, err := wl.MeanS1(); err == nil {
		res.Metric("mean_s1_days", s1/86400)
	}
}

// schedChunkSizes returns the JSQ-Chunk sizes searched in [lo, hi] on a
// cluster of nodes nodes: for every number of chunks c = ⌊nodes/k⌋, only
// the largest k. A smaller k with the same c has the same c FCFS queues and
// JSQ routing but serves every job on fewer nodes, with X non-decreasing in
// the nodes (exact MVA), and leaves more nodes idle; it is never better up
// to sampling noise. For 100 nodes and 7..40 this is 12 sizes instead of 34
// (7, 8, 9, 10, 11, 12, 14, 16, 20, 25, 33, 40).
func schedChunkSizes(nodes, lo, hi int, full bool) []int {
	lo, hi = max(lo, 1), min(hi, nodes)
	var out []int
	for k := hi; k >= lo; k-- {
		if full || len(out) == 0 || nodes/k != nodes/out[len(out)-1] {
			out = append(out, k)
		}
	}
	slices.Reverse(out)
	return out
}

// schedChunkOverloaded reports whether JSQ-Chunk with chunks of k nodes is
// unstable at load for a reason known before simulating: its ⌊nodes/k⌋
// chunks are FCFS servers of one job at a time whose mean service time is
// E[S(k)] = Σ_t p_t·E[J_t]/X_t(k), so they are overloaded when
// λ·E[S(k)] ≥ ⌊nodes/k⌋, with λ = load·nodes/E[S(1)] (M-5). Such sizes are
// not simulated.
func schedChunkOverloaded(wl sched.Workload, nodes, k int, load float64) bool {
	w := 0.0
	for _, t := range wl.Types {
		w += t.Weight
	}
	s1, sk := 0.0, 0.0
	for _, t := range wl.Types {
		pt := 1 / float64(len(wl.Types))
		if w > 0 {
			pt = t.Weight / w
		}
		s1 += pt * t.MeanEpochs() * t.Examples / t.X[1]
		sk += pt * t.MeanEpochs() * t.Examples / t.X[k]
	}
	return load*float64(nodes)/s1*sk >= float64(nodes/k)
}

// schedRun is one simulation to run: cfg with a generator from seed (nil
// generator when seed is zero and cfg has explicit arrivals).
type schedRun struct {
	cfg  sched.Config
	seed uint64
}

// schedRunAll runs every run on up to GOMAXPROCS goroutines and returns the
// results in order, with the per-job records dropped unless keepJobs.
// Every run owns its generator, so the results do not depend on the
// scheduling of the goroutines.
func schedRunAll(ctx context.Context, runs []schedRun, keepJobs bool) ([]sched.Result, error) {
	out := make([]sched.Result, len(runs))
	errs := make([]error, len(runs))
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for i, r := range runs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			if errs[i] = ctx.Err(); errs[i] != nil {
				return
			}
			var rng *rand.Rand
			if r.seed != 0 || len(r.cfg.Arrivals) == 0 {
				rng = rand.New(rand.NewPCG(r.seed, 0x5c4ed))
			}
			out[i], errs[i] = sched.Run(r.cfg, rng)
			if errs[i] != nil {
				errs[i] = fmt.Errorf("%s at load %g: %w", r.cfg.Policy.Name(), r.cfg.Load, errs[i])
			}
			if !keepJobs {
				out[i].Jobs = nil
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// schedKey formats a load or γ for metric names ("0.6", "1.05").
func schedKey(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

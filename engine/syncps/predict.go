package syncps

import "fmt"

// Prediction is the result of Predict. Per-iteration values are averages
// over the M iterations of the epoch; Compute + ExposedIO + ExposedComm +
// Aggregation + Straggler = IterationTime.
type Prediction struct {
	// IterationTime is the average iteration time T/M, in seconds.
	IterationTime float64
	// EpochTime is T, the epoch time of Eq. 9 with Eq. 17, in seconds.
	EpochTime float64
	// Compute is FP + BP + UP per iteration, in seconds.
	Compute float64
	// ExposedIO is the data-loading time not hidden by the IO pipeline
	// (Eq. 5) per iteration, in seconds.
	ExposedIO float64
	// ExposedComm is the forward and backward communication not hidden by
	// the layer pipeline, e(t_fc) + e(t_bc) of Eq. 6, per iteration, in
	// seconds.
	ExposedComm float64
	// Aggregation is the exposed aggregation e(t_ag) of Eq. 6 (with
	// t_ag from Eq. 18) per iteration, in seconds.
	Aggregation float64
	// Straggler is the expected excess of the slowest of N workers over the
	// mean GST (Eq. 7–9) per iteration, in seconds; 0 for one worker.
	Straggler float64
	// CommCompRatio is the communication/computation ratio of Fig. 5
	// (dimensionless): Σ_l (FC + AG + BC) over Σ_l (FP + BP) + UP, with
	// durations as if not overlapped.
	CommCompRatio float64
	// Barrier says which links are the barrier links (Fig. 1).
	Barrier LinkSide
	// Layers are the per-layer durations derived from the Config (see
	// Config.LayerTimes), in seconds.
	Layers []LayerTimes
}

// Predict runs the model on cfg. For each iteration m = 1..M it runs the IO
// and layer pipelines (Eq. 3–6) on the durations of Config.LayerTimes,
// forms GST(m) from the exposed durations (Eq. 1, Z-1), splits off the
// aggregation (Eq. 17), and adds the expected maximum over the N workers of
// the worker-local part, a normal with mean GST(m) − e(t_ag^m) and standard
// deviation GSTSigma(Sigma, P) where P = 4 worker-local processes in the
// first iteration (IO, FP, BP, FC) and 6 later (plus BC, UP of m−1)
// (Eq. 7–9, Z-5, Z-6). The epoch ends with the last BC and UP (Eq. 2):
//
//	T = Σ_m [E max_n {GST(m,n) − t_ag^m} + e(t_ag^m)] + e(t_bc^M) + t_up^M.
//
// It returns an error naming the invalid field, for an unstable barrier link,
// or if the profile has no computation time at all (the comm/comp ratio
// would be undefined).
func Predict(cfg Config) (Prediction, error) {
	layers, err := cfg.LayerTimes()
	if err != nil {
		return Prediction{}, err
	}
	eN, err := ExpectedMaxNormal(cfg.Workers, 0, 1)
	if err != nil {
		return Prediction{}, err
	}
	// E[max] ≥ μ for N ≥ 1; drop the ~1e-17 quadrature noise at N = 1.
	eN = max(0, eN)
	p, err := run(cfg, layers, eN)
	if err != nil {
		return Prediction{}, err
	}
	var comm, comp float64
	for _, l := range layers {
		comm += l.FC + l.AG + l.BC
		comp += l.FP + l.BP
	}
	comp += cfg.UpdateTime
	if comp == 0 {
		return Prediction{}, fmt.Errorf("syncps: Config.Layers: zero computation time, comm/comp ratio undefined")
	}
	p.CommCompRatio = comm / comp
	p.Barrier = BarrierLinks(cfg.Workers, cfg.Servers)
	p.Layers = layers
	return p, nil
}

// Speedup returns the speedup of cfg's N workers over one worker training
// alone, N·t_1/t_N (dimensionless), where t_N is Predict's IterationTime and
// t_1 is the iteration time of a single worker with the same profile, compute
// scale, IO and update time but no communication (and so no stragglers). It
// is at most N. It returns the errors of Predict.
func Speedup(cfg Config) (float64, error) {
	p, err := Predict(cfg)
	if err != nil {
		return 0, err
	}
	local := make([]LayerTimes, len(p.Layers))
	for i, l := range p.Layers {
		local[i] = LayerTimes{Name: l.Name, FP: l.FP, BP: l.BP}
	}
	alone, err := run(cfg, local, 0)
	if err != nil {
		return 0, err
	}
	return float64(cfg.Workers) * alone.IterationTime / p.IterationTime, nil
}

// run accumulates the epoch time over cfg.Iterations iterations of the
// pipelines with per-layer durations layers, where eN is the expected
// maximum of cfg.Workers standard normals.
func run(cfg Config, layers []LayerTimes, eN float64) (Prediction, error) {
	step := Step{IO: cfg.IOTime, UP: cfg.UpdateTime, Layers: layers}
	if err := step.validate(1); err != nil {
		return Prediction{}, err
	}
	var (
		pipe  Pipeline
		tr    IterationTrace
		prev  Iteration
		p     Prediction
		epoch float64
	)
	for m := range cfg.Iterations {
		pipe.advance(step, &tr) // same step every iteration: validated once
		cur := tr.Exposed
		g, processes := gst(&prev, cur), 6
		if m == 0 {
			g, processes = gst(nil, cur), 4
		}
		local := g - cur.AG // Eq. 17
		straggler := GSTSigma(cfg.Sigma, processes) * eN
		epoch += local + straggler + cur.AG

		p.Compute += cur.FP + cur.BP + cur.UP
		p.ExposedIO += cur.IO
		p.ExposedComm += cur.FC + cur.BC
		p.Aggregation += cur.AG
		p.Straggler += straggler
		prev = cur
	}
	epoch += prev.BC + prev.UP
	m := float64(cfg.Iterations)
	p.EpochTime = epoch
	p.IterationTime = epoch / m
	p.Compute /= m
	p.ExposedIO /= m
	p.ExposedComm /= m
	p.Aggregation /= m
	p.Straggler /= m
	return p, nil
}

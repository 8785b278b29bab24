package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"strings"

	"pslab/engine/placement"
	"pslab/engine/predict"
	"pslab/engine/sim"
	"pslab/engine/trace"
	"pslab/engine/zoo"
)

// predictFlags are the inputs of `pslab predict`.
type predictFlags struct {
	from, bandwidth, workers, transport, order string
	window, models, measured, measuredModel    string
	figure, format, out, model                 string
	overheadOn                                 string
	servers, batch, steps, warmup, profSteps   int
	deviceSpeed, alpha, beta, jitter, update   float64
	maxEvents, precision                       float64
	paper                                      bool
	stderr                                     io.Writer // progress
	knee                                       float64
	seed                                       uint64
	logY                                       bool
	set                                        map[string]bool // flags given on the command line
	command                                    string
	meas                                       *measurement // -measured, once read
	trustFiles                                 string       // -trust
	quiet                                      *bool        // -q
	trust                                      *predict.TrustData
	shard                                      predictShard // -shard, pslab merge (predict_shard.go)
	cl                                         clusterFlags // cluster shape (predict_cluster.go)
}

// predictInput is what the input files hold: a per-layer profile or a
// recorded 1-worker trace.
type predictInput struct {
	files   []string
	kind    string // "profile" or "trace"
	format  string // trace, tf-timeline, profile, kineto, pipedream
	profile *zoo.Profile
	trace   *trace.Trace
	model   string
}

// predictThroughput predicts PS throughput from a profile or trace:
//
//	pslab predict [flags] <trace or profile files>
func predictThroughput(ctx context.Context, args []string, stdout, stderr io.Writer) (err error) {
	f := &predictFlags{command: "pslab predict " + strings.Join(args, " "), set: map[string]bool{}, stderr: stderr}
	fs := flag.NewFlagSet("predict", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: pslab predict [flags] <input>\n\n"+
			"input: a pslab trace (.arrow, from pslab import tf-timeline), a TF timeline (.json[.gz], one file per step if unmarked),\n"+
			"a per-layer profile (.arrow, from pslab import kineto), a PyTorch Kineto trace (.json[.gz]) or a PipeDream graph.txt\n\nflags:")
		fs.PrintDefaults()
	}
	fs.StringVar(&f.from, "from", "auto", "input format: auto, trace, tf-timeline, profile, kineto or pipedream")
	fs.StringVar(&f.model, "model", "", "DNN name (default: from the input)")
	fs.StringVar(&f.bandwidth, "bandwidth", "", "link bandwidth(s) with unit, e.g. 10Gbps or 1Gbps,10Gbps,25Gbps (required for a profile; a trace's own by default)")
	fs.IntVar(&f.servers, "ps", 0, "parameter servers (0: 1, or the trace's)")
	fs.StringVar(&f.workers, "workers", "1..16", "worker counts: a range 1..16, a list 1,2,4,8, or both 1..4,8")
	fs.StringVar(&f.transport, "transport", "multiplexed", "multiplexed (HTTP/2 flow control on) or ordered (flow control off)")
	fs.StringVar(&f.order, "order", "default", "stream order: default (FIFO), tic, reverse or random")
	fs.StringVar(&f.window, "window", "", "HTTP/2 flow-control window WIN with unit, e.g. 28MB (default: 28MB for a profile, the trace's own)")
	fs.IntVar(&f.batch, "batch", 0, "examples per worker step (0: the input's; a profile's compute scales linearly with it)")
	fs.Float64Var(&f.deviceSpeed, "device-speed", 1, "profile only: compute speed relative to the profiled device (2: twice as fast)")
	fs.Float64Var(&f.alpha, "alpha", 0, "parsing overhead per byte, s/byte (icpe20 §3.2.1; a trace's own unless given)")
	fs.Float64Var(&f.beta, "beta", 0, "parsing overhead per transfer, s (a trace's own unless given)")
	fs.StringVar(&f.overheadOn, "overhead-on", "receive-threads", "simulator: what the parsing overhead occupies: receive-threads (a delay on no processor) or processor (queued on the receiving worker or PS)")
	fs.Float64Var(&f.jitter, "jitter", 0.05, "profile only: coefficient of variation of the per-step compute time (ASSUMED 0.05; 0: none)")
	fs.Float64Var(&f.update, "update", 0, "profile only: PS update time per parameter byte, s/byte (0: 0.2e-9, assumed)")
	fs.IntVar(&f.profSteps, "profile-steps", 0, "profile only: synthesized profiling steps (0: 100)")
	fs.Float64Var(&f.precision, "precision", sim.DefaultTarget, "simulator: target relative half-width of each point's 95% confidence interval (0 < p ≤ 0.5); replications are added until it is reached or -max-events")
	fs.BoolVar(&f.paper, "paper", false, "simulator: icpe20's fixed procedure instead of a converged estimate: one run of -steps per worker, -warmup completions excluded, workers started together; no interval")
	fs.IntVar(&f.steps, "steps", 0, "simulated steps per worker: with -paper the run length (0: 1000, the paper's), else each replication's initial length (0: 100)")
	fs.IntVar(&f.warmup, "warmup", 0, "-paper only: step completions excluded from the simulator's window (0: 50)")
	fs.Uint64Var(&f.seed, "seed", 1, "seed of the synthesized jitter and the simulator's step sampling")
	fs.StringVar(&f.models, "models", "simulator,mva-exact,mva-approximate,mva-hybrid,cynthia,zhang", "models to run, comma-separated (a model that does not define -sync is listed as n/a)")
	fs.Float64Var(&f.knee, "knee", 0.95, "the knee of a curve is the smallest W whose throughput reaches this fraction of the curve's maximum")
	f.cl.register(fs)
	fs.StringVar(&f.measured, "measured", "", "measured throughputs: an Arrow measurement dataset or a CSV (pslab import measured-csv format)")
	fs.StringVar(&f.measuredModel, "measured-model", "", "model name of the measured rows (default: the only one, or the input's)")
	fs.StringVar(&f.trustFiles, "trust", defaultTrust, "accuracy tables (comma-separated) whose measured errors give each model's trust band: mean and max |error| on the in-budget points with the same sync mode, W within ×2 and compute/communication ratio within ×2; none: no bands")
	f.quiet = quietFlag(fs)
	fs.StringVar(&f.figure, "figure", "", "write the figure to this .svg or .png file")
	fs.BoolVar(&f.logY, "logy", false, "logarithmic throughput axis in the figure")
	fs.StringVar(&f.format, "format", "text", "output format: text, csv, json or arrow (arrow needs -o)")
	fs.StringVar(&f.out, "o", "", "write the output to this file instead of stdout")
	fs.Float64Var(&f.maxEvents, "max-events", defaultMaxEvents, "refuse predictions whose simulator work exceeds this many events (estimated before running)")
	f.shard.register(ctx, fs, args, stderr)
	var prof cpuProfile
	prof.register(fs)
	var files []string
	for rest := args; ; { // flags may come before or after the input files
		if err := fs.Parse(rest); err != nil {
			return err
		}
		if fs.NArg() == 0 {
			break
		}
		files, rest = append(files, fs.Arg(0)), fs.Args()[1:]
	}
	fs.Visit(func(fl *flag.Flag) { f.set[fl.Name] = true })
	if len(files) == 0 {
		fs.Usage()
		return usagef("predict: no input file (a trace or a per-layer profile)")
	}
	if err := f.shard.parse("predict"); err != nil {
		return err
	}
	if err := f.checkOutput(); err != nil {
		return err
	}
	if err := f.loadTrust(); err != nil {
		return err
	}
	if err := prof.start(); err != nil {
		return err
	}
	defer func() { err = prof.stop(err) }()
	in, err := f.load(files)
	if err != nil {
		return err
	}
	runs, err := f.run(ctx, in)
	if err != nil {
		return err
	}
	if runs, err = f.shard.finish(runs); err != nil || runs == nil {
		return err // a shard wrote its part, not the outputs
	}
	if err := f.compare(in, runs); err != nil {
		return err
	}
	return f.write(in, runs, stdout)
}

// cluster is the predict.Cluster of the flags, without bandwidth.
func (f *predictFlags) cluster(in *predictInput) (predict.Cluster, error) {
	mode, err := predict.ParseTransport(f.transport)
	if err != nil {
		return predict.Cluster{}, fmt.Errorf("predict: -transport: %w", err)
	}
	order, err := predict.ParseOrder(f.order)
	if err != nil {
		return predict.Cluster{}, fmt.Errorf("predict: -order: %w", err)
	}
	overheadOn, err := sim.ParseOverheadPlacement(f.overheadOn)
	if err != nil {
		return predict.Cluster{}, fmt.Errorf("predict: -overhead-on: %w", err)
	}
	c := predict.Cluster{OverheadOn: overheadOn, Servers: f.servers, Batch: f.batch, DeviceSpeed: f.deviceSpeed, Link: sim.Link{Mode: mode, Order: order},
		Alpha: f.alpha, Beta: f.beta, Jitter: f.jitter, UpdateTime: f.update, ProfileSteps: f.profSteps,
		Steps: f.steps, Warmup: f.warmup, Seed: f.seed, Paper: f.paper, Precision: sim.Precision{Target: f.precision}}
	if math.IsNaN(f.maxEvents) || math.IsInf(f.maxEvents, 0) || f.maxEvents <= 0 {
		return c, fmt.Errorf("predict: -max-events %g: want a finite number of events > 0", f.maxEvents)
	}
	if f.set["ps"] && f.servers == 0 {
		return c, errors.New("predict: -ps 0: a cluster needs at least 1 parameter server (omit -ps for 1, or a recorded trace's own)")
	}
	if f.servers > placement.MaxServers {
		return c, fmt.Errorf("predict: -ps %d: at most %d parameter servers (placement.MaxServers)", f.servers, placement.MaxServers)
	}
	if math.IsNaN(f.precision) || f.precision <= 0 || f.precision > sim.MaxTarget {
		return c, fmt.Errorf("predict: -precision %g: want a relative half-width in (0, %g], e.g. 0.01 for ±1%%", f.precision, sim.MaxTarget)
	}
	if f.set["warmup"] && !f.paper {
		return c, errors.New("predict: -warmup applies to -paper (the fixed procedure); the converged estimate deletes its transient by MSER-5")
	}
	for _, v := range []struct {
		name string
		bad  bool
	}{{"-ps", f.servers < 0}, {"-batch", f.batch < 0}, {"-steps", f.steps < 0}, {"-warmup", f.warmup < 0},
		{"-profile-steps", f.profSteps < 0}, {"-device-speed", !(f.deviceSpeed > 0) || f.deviceSpeed > 1e6},
		{"-alpha", !(f.alpha >= 0) || f.alpha > 1}, {"-beta", !(f.beta >= 0) || f.beta > 1e6},
		{"-jitter", !(f.jitter >= 0) || f.jitter > 10}, {"-update", !(f.update >= 0) || f.update > 1}} {
		if v.bad {
			return c, fmt.Errorf("predict: %s: need a finite value ≥ 0 (> 0 for -device-speed)", v.name)
		}
	}
	if f.window != "" {
		if c.Link.Window, err = predict.ParseBytes(f.window); err != nil {
			return c, fmt.Errorf("predict: -window: %w", err)
		}
	}
	if c.Link.Window == 0 && mode == sim.Multiplex && (in.kind == "profile" || in.trace.Meta.Window == 0) {
		c.Link.Window = 28e6 // icpe20 §3.2.2: WIN ≈ 28 MB measured on average
	}
	if err := f.cl.apply(&c, in, f.set); err != nil {
		return c, err
	}
	if c.Sync == sim.BSP && !f.paper && f.steps > 0 && f.steps < sim.MinRegenerativeSteps {
		return c, fmt.Errorf("predict: -steps %d: a BSP estimate needs ≥ %d steps per worker (one whole cycle between barrier releases; -paper runs any)", f.steps, sim.MinRegenerativeSteps)
	}
	if in.kind == "profile" {
		return c, nil
	}
	return c, f.adoptTrace(in.trace, &c)
}

// adoptTrace reconciles the flags with a recorded trace's metadata.
func (f *predictFlags) adoptTrace(tr *trace.Trace, c *predict.Cluster) error {
	for _, name := range []string{"device-speed", "jitter", "update", "profile-steps"} {
		if f.set[name] {
			return fmt.Errorf("predict: -%s applies to a per-layer profile, not to a recorded trace (%s)", name, tr.Meta.Source)
		}
	}
	m := &tr.Meta
	switch {
	case m.Batch == 0 && f.batch == 0:
		return errors.New("predict: the trace records no batch size; pass -batch (examples per worker step)")
	case m.Batch == 0:
		m.Batch = f.batch
	case f.batch != 0 && f.batch != m.Batch:
		return fmt.Errorf("predict: -batch %d, but the trace was recorded at batch %d; a recorded trace cannot change its batch (predict from a per-layer profile instead)", f.batch, m.Batch)
	}
	if f.servers != 0 && f.servers != max(m.Servers, 1) {
		return fmt.Errorf("predict: -ps %d, but the trace was recorded with %d PS", f.servers, max(m.Servers, 1))
	}
	if f.set["alpha"] {
		m.Alpha = f.alpha
	}
	if f.set["beta"] {
		m.Beta = f.beta
	}
	c.Servers, c.Batch = 0, 0
	return nil
}

// bandwidths returns the bandwidths to predict at, bytes/s. A trace that
// records no bandwidth takes the one -bandwidth as its own.
func (f *predictFlags) bandwidths(in *predictInput) ([]float64, error) {
	if f.bandwidth == "" {
		if in.kind == "profile" {
			return nil, errors.New("predict: -bandwidth is required with a per-layer profile (e.g. -bandwidth 10Gbps, or 1Gbps,10Gbps)")
		}
		if in.trace.Meta.Bandwidth == 0 {
			return nil, errors.New("predict: the trace records no bandwidth; pass -bandwidth (the link bandwidth it was recorded at)")
		}
		return []float64{in.trace.Meta.Bandwidth}, nil
	}
	bws, err := predict.ParseBandwidths(f.bandwidth)
	if err != nil {
		return nil, fmt.Errorf("predict: -bandwidth: %w", err)
	}
	if in.kind == "trace" && in.trace.Meta.Bandwidth == 0 {
		if len(bws) > 1 {
			return nil, errors.New("predict: the trace records no bandwidth; give the one it was recorded at as -bandwidth")
		}
		in.trace.Meta.Bandwidth = bws[0]
	}
	return bws, nil
}

// run predicts at every bandwidth.
func (f *predictFlags) run(ctx context.Context, in *predictInput) ([]*predict.Prediction, error) {
	c, err := f.cluster(in)
	if err != nil {
		return nil, asUsage(err)
	}
	ws, err := predict.ParseWorkers(f.workers)
	if err != nil {
		return nil, usagef("predict: -workers: %w", err)
	}
	models, err := predict.ParseModels(f.models)
	if err != nil {
		return nil, usagef("predict: -models: %w", err)
	}
	bws, err := f.bandwidths(in)
	if err != nil {
		return nil, asUsage(err)
	}
	if err := f.checkScale(in, c, bws); err != nil {
		return nil, err
	}
	// Bounded work: estimate the simulator's events for the whole sweep
	// before anything runs (calibration included), refuse above
	// -max-events, and show progress on a terminal for long work.
	c.Bandwidth = bws[0]
	tr := in.trace
	if in.profile != nil {
		if tr, err = c.Synthesize(in.profile); err != nil {
			return nil, fmt.Errorf("predict: %s: %w", in.files[0], err)
		}
	}
	work := estimateWork(tr, c, ws, models, len(bws))
	if err := f.checkWork(work); err != nil {
		return nil, err
	}
	// The converged estimate's own bound: each bandwidth's sweep may spend
	// its share of -max-events, and sim.EstimateSweep shares it among the
	// worker counts in proportion to W.
	// Events are weighted by the sharing cost, so the bound is on work.
	c.Precision.MaxEvents = int64(f.eventLimit() / float64(max(len(bws), 1)) / max(work.cost, 1))
	bar := newProgress(f.stderr, *f.quiet, work)
	defer bar.finish()
	c.Progress = bar.done
	// -calibrate fits the device speed once, at the first bandwidth, so
	// that every shard and a merge use the same fitted speed.
	if in.profile != nil {
		c.Bandwidth = bws[0]
		if err := f.cl.fit(in, c, models); err != nil {
			return nil, err
		}
		if s, ok := f.cl.speed(); ok {
			c.DeviceSpeed = s
		}
	}
	var runs []*predict.Prediction
	for j, bw := range bws {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		wsj := f.shard.points(j, ws) // -shard: this process's points
		if wsj == nil {
			runs = append(runs, nil)
			continue
		}
		c.Bandwidth = bw
		bar.describe(fmt.Sprintf("predict: %s, bandwidth %d of %d", in.model, j+1, len(bws)))
		p, err := f.cl.predict(in, c, wsj, models)
		if err != nil {
			hint := ""
			if strings.Contains(err.Error(), "coarse models") {
				hint = " (-models simulator predicts without the coarse models)"
			}
			return nil, fmt.Errorf("%s at %s: %w%s", in.files[0], gbps(bw), err, hint)
		}
		runs = append(runs, p)
	}
	// -timeline is an output: written by an unsharded run and by a merge,
	// never by a shard, always for the first bandwidth.
	if !f.shard.spec.Enabled() || f.shard.merging {
		c.Bandwidth = bws[0]
		if err := f.cl.writeTimeline(in, c); err != nil {
			return nil, err
		}
	}
	return runs, nil
}

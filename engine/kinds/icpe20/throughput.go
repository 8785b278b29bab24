package icpe20

import (
	"context"
	"fmt"
	"slices"

	"pslab/engine/dataset"
	"pslab/engine/experiment"
	"pslab/engine/mva"
	"pslab/engine/predict"
	"pslab/engine/sim"
	"pslab/engine/trace"
	"pslab/engine/zoo"
)

// tputSettings are the platform and transport knobs of a throughput
// curve; each case may override the experiment's values (zero = inherit).
type tputSettings struct {
	// Transport is "multiplex" (HTTP/2 flow control on) or "whole" (flow
	// control off, one chunk per stream), in profiling and simulation.
	Transport string
	// Order is the stream order of the link schedulers: fifo, tic,
	// reverse-tic or random (sim.ParseOrder).
	Order string
	// Servers is the number of parameter servers M.
	Servers int
	// DeviceSpeed divides the profile's compute times (zoo.Options).
	DeviceSpeed float64 `toml:"device_speed"`
	// BandwidthGbps is the link bandwidth, 10⁹ bit/s, in profiling and
	// simulation.
	BandwidthGbps float64 `toml:"bandwidth_gbps"`
	// WindowMB is the HTTP/2 flow-control window WIN, 10⁶ bytes.
	WindowMB float64 `toml:"window_mb"`
	// Steps is the number of simulated steps per worker N (0 → 1000); with
	// estimate = "converged" each replication's initial length (0 →
	// sim.InitialSteps(W)).
	Steps int
	// OverheadOn is what the simulator's parsing overhead occupies:
	// "receive-threads" (default; a delay, as the trace records it) or
	// "processor" (queued on the receiving processor), sim.OverheadPlacement.
	OverheadOn string `toml:"overhead_on"`
	// Estimate is how the simulator's throughput is obtained: "paper"
	// (default: one run of Steps per worker, the first Warmup completions
	// excluded, workers started together, icpe20 §4.1) or "converged"
	// (sim.Estimate: independent replications with workers started apart
	// and their MSER-5 transient deleted, until the 95% interval is within
	// Precision; Steps is each replication's initial length).
	Estimate string
}

// inherit fills the zero fields of s from d.
func (s tputSettings) inherit(d tputSettings) tputSettings {
	if s.Transport == "" {
		s.Transport = d.Transport
	}
	if s.Order == "" {
		s.Order = d.Order
	}
	if s.Servers == 0 {
		s.Servers = d.Servers
	}
	if s.DeviceSpeed == 0 {
		s.DeviceSpeed = d.DeviceSpeed
	}
	if s.BandwidthGbps == 0 {
		s.BandwidthGbps = d.BandwidthGbps
	}
	if s.WindowMB == 0 {
		s.WindowMB = d.WindowMB
	}
	if s.Steps == 0 {
		s.Steps = d.Steps
	}
	if s.OverheadOn == "" {
		s.OverheadOn = d.OverheadOn
	}
	if s.Estimate == "" {
		s.Estimate = d.Estimate
	}
	return s
}

// tputCase is one curve set: a model profile at a batch size.
type tputCase struct {
	tputSettings
	// ID names the case in metric names (no spaces or dots).
	ID string
	// Model is the name of the input holding the layer profile: a
	// zoo.ProfileSchema dataset (.arrow) or a PipeDream graph.txt.
	Model string
	// Trace, instead of Model, names an input holding a recorded 1-worker
	// trace (dataset.TraceSchema, e.g. a testbed profile): it is used as
	// recorded, with its own bandwidth, WIN, α, β and PS count, and the
	// profile-synthesis settings do not apply.
	Trace string
	// Label prefixes the case's legend entries.
	Label string
	// Batch is the examples per worker step.
	Batch int
	// Panel is the paper's sub-figure letter, for error bounds and the
	// reported Fig. 25 panel table.
	Panel string
	// MeasuredModel is the model name in the measured dataset (default
	// Model, or the recorded trace's model).
	MeasuredModel string `toml:"measured_model"`
	// Series overrides the experiment's series for this case (a subset of
	// simulator, lin, cynthia, cynthia-halved; not events).
	Series []string
	// Measured names the input holding this case's measurements
	// (dataset.MeasurementSchema); empty means the experiment's input
	// "measured", if any.
	Measured string
	// Points names an input holding the testbed's judgement of the same
	// measurements (a points.arrow, accounting version 3 on): each point's
	// 95% interval over repetitions, operating modes and verdict. With it
	// the errors are intervals and the paper's claims are judged on the
	// points that hold only (measured.Point).
	Points string
	// Modes names an input holding the operating modes of those points
	// (a modes.arrow): each is drawn as a point of its own.
	Modes string
}

// tputCompare asks for the ratio of two cases' simulated curves.
type tputCompare struct{ Num, Den string }

// tputReported is a number of the reported claims table drawn as a bar
// (events mode): row (figure, metric) of input "claims".
type tputReported struct{ Figure, Metric, Label string }

type tputParams struct {
	tputSettings
	// Warmup is the number of step completions excluded (0 → 50) by the
	// paper procedure.
	Warmup int
	// Precision is the converged estimate's target relative half-width
	// (0 → sim.DefaultTarget).
	Precision float64
	// ProfileSteps is the number of steps of the 1-worker trace (0 → 100).
	ProfileSteps int `toml:"profile_steps"`
	// AlphaNsPerByte and BetaUs are the parsing overhead α (ns/byte) and
	// β (µs) of icpe20 §3.2.1.
	AlphaNsPerByte float64 `toml:"alpha_ns_per_byte"`
	BetaUs         float64 `toml:"beta_us"`
	// Jitter is the coefficient of variation of the per-step compute
	// factor of the synthesized trace (zoo.Options.Jitter).
	Jitter float64
	// UpdateNsPerByte is the PS update time per parameter byte, ns/byte
	// (0 → zoo.DefaultUpdateTime).
	UpdateNsPerByte float64 `toml:"update_ns_per_byte"`
	// Series are the predictions drawn: simulator, lin, cynthia,
	// cynthia-halved; or events alone (bar chart of simulated events).
	Series []string
	// LinVariant is the MVA variant of Lin et al.: exact, approximate or
	// hybrid (CATALOGUE I-18).
	LinVariant string `toml:"lin_variant"`
	// KneeEpsilon is ε of the saturation knee.
	KneeEpsilon float64 `toml:"knee_epsilon"`
	// ExtrapolateSteps is the N the events mode extrapolates to.
	ExtrapolateSteps int `toml:"extrapolate_steps"`
	// Figure is the paper figure number whose error bounds apply.
	Figure   int
	Cases    []tputCase `toml:"case"`
	Compare  []tputCompare
	Reported []tputReported
	Notes    []string
}

var tputSeriesKeys = []string{"simulator", "lin", "cynthia", "cynthia-halved", "events"}

var tputLinVariants = map[string]mva.Variant{"exact": mva.Exact, "approximate": mva.Approximate, "hybrid": mva.Hybrid}

// tputCurve is the computed curve set of one case.
type tputCurve struct {
	c      tputCase
	coarse predict.Coarse
	runs   []sim.Result   // paper procedure
	est    []sim.Estimate // converged estimates
	sim    []float64      // examples/s per worker count
	// coarseY holds the coarse models' curves (series key → examples/s per
	// worker count), for errors against measurements.
	coarseY map[string][]float64
	meas    map[int]measPoint // measured throughput by W (nil: no input)
	bound   float64           // link bound, examples/s
}

// icpe20Throughput predicts throughput vs workers for each case with the
// icpe20 simulator on a 1-worker trace synthesized from a real layer
// profile (zoo.Synthesize; or a recorded trace), and with the coarse
// models of icpe20 §4.4 (Lin et al.'s MVA, Cynthia's formula and its T_C/2
// variant) on the same trace (CATALOGUE §A.1 Figs. 2, 3, 13-22, 25,
// §B.1.7). Decisions:
//
//   - Simulator: sim.Sweep with the sim package's I-16 window (50 step
//     completions of all workers excluded); Steps per worker may be below
//     the paper's 1000 where an experiment says why. The parsing overhead
//     is a receive-thread delay (sim.ReceiveThreads, I-15: how zoo and the
//     testbed record it) unless overhead_on = "processor".
//   - Lin et al. (I-18: the variant is not printed): mva.Curve over the
//     tcpdump phases of predict.FromTrace, hybrid by default (mascots18's own
//     proposal), exact or approximate on request; 1 PS only.
//   - Cynthia (I-23): cynthia.ICPE with T_p = the worker's busy time per
//     step, T_C = one direction's bytes / bandwidth and U_1 = bytes moved
//     both ways / bandwidth / step time; the T_C/2 variant is
//     cynthia.ICPE.HalvedTC. All three are trace means.
//   - Knee (Fig. 2): the first swept W whose next point gains less than
//     knee_epsilon (predict.Knee).
//   - Link bound: batch · bandwidth / bytes per step through the busiest
//     PS NIC; a derived ceiling for every curve.
//   - Measured data (emitMeasured): signed relative errors per point and
//     the version-000 error bounds of icpe20 (I-19).
func icpe20Throughput(ctx context.Context, env *experiment.Env) (*experiment.Result, error) {
	p := tputParams{
		tputSettings: tputSettings{Transport: "multiplex", Order: "fifo", Servers: 1, DeviceSpeed: 1, BandwidthGbps: 10, WindowMB: 28,
			OverheadOn: sim.ReceiveThreads.String(), Estimate: "paper"},
		Series: []string{"simulator"}, LinVariant: "hybrid", KneeEpsilon: 0.05, ExtrapolateSteps: sim.DefaultSteps,
	}
	if err := env.Params(&p); err != nil {
		return nil, err
	}
	ws, err := tputWorkers(env)
	if err != nil {
		return nil, err
	}
	if err := p.check(env); err != nil {
		return nil, err
	}
	events := slices.Contains(p.Series, "events")
	res := experiment.NewResult()
	for _, n := range p.Notes {
		res.Note("%s", n)
	}
	if err := p.checkPanels(env, res); err != nil {
		return nil, err
	}
	bounds, err := p.errorBoundsTable(env)
	if err != nil {
		return nil, err
	}
	profiles, measTables := map[string]*zoo.Profile{}, map[string]*dataset.Table{}
	recorded, err := p.checkWork(env, ws, profiles, bounds)
	if err != nil {
		return nil, err
	}
	var curves []*tputCurve
	for i := range p.Cases {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		cv, err := p.run(env, &p.Cases[i], ws, profiles, recorded[i])
		if err != nil {
			return nil, err
		}
		curves = append(curves, cv)
		if events {
			p.emitEvents(res, cv, ws)
			continue
		}
		if cv.meas, err = loadMeasured(env, &cv.c, measTables); err != nil {
			return nil, err
		}
		if err := p.emit(env, res, cv, ws); err != nil {
			return nil, err
		}
		if err := p.emitMeasured(env, res, cv, ws, bounds); err != nil {
			return nil, err
		}
	}
	if events {
		return res, p.emitReported(env, res)
	}
	return res, p.compare(env, res, curves, ws)
}

// run gets the case's 1-worker trace (tr, if checkWork read it) and
// simulates every W; the work was bounded by checkWork and is counted.
func (p *tputParams) run(env *experiment.Env, c *tputCase, ws []int, cache map[string]*zoo.Profile, tr *trace.Trace) (*tputCurve, error) {
	if tr == nil {
		var err error
		if tr, err = p.trace(env, c, cache); err != nil {
			return nil, err
		}
		env.CountModelWork(experiment.SynthOpWork * float64(tputTraceOps(tr)))
	}
	var err error
	mode, _ := sim.ParseMode(c.Transport)
	order, _ := sim.ParseOrder(c.Order)
	on, _ := sim.ParseOverheadPlacement(c.OverheadOn)
	bw := tr.Meta.Bandwidth
	cv := &tputCurve{c: *c}
	if cv.c.MeasuredModel == "" {
		cv.c.MeasuredModel = tr.Meta.Model
	}
	if cv.coarse, err = predict.FromTrace(tr); err != nil {
		return nil, fmt.Errorf("case %q: %w", c.ID, err)
	}
	env.CountModelWork(float64(tputTraceOps(tr)))
	cv.bound = cv.coarse.LinkBound(c.Batch, bw)
	if !slices.Contains(c.Series, "simulator") && !slices.Contains(c.Series, "events") {
		return cv, nil
	}
	cfg := sim.Config{Steps: c.Steps, Warmup: p.Warmup, Link: sim.Link{Mode: mode, Order: order}, OverheadOn: on, Seed: env.Spec.Seed,
		Progress: env.EventCounter()}
	if slices.Contains(c.Series, "events") {
		cfg.Warmup = sim.NoWarmup // event counts need no measurement window
	}
	if c.Estimate == "converged" {
		return cv, p.estimate(env, c, tr, cfg, ws, cv)
	}
	if cv.runs, err = sim.Sweep(tr, cfg, ws); err != nil {
		return nil, fmt.Errorf("case %q: %w", c.ID, err)
	}
	for _, r := range cv.runs {
		cv.sim = append(cv.sim, r.Throughput)
	}
	return cv, nil
}

package icpe20

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

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
	// Steps is the number of simulated steps per worker N (0 → 1000).
	Steps int
	// OverheadOn is what the simulator's parsing overhead occupies:
	// "receive-threads" (default; a delay, as the trace records it) or
	// "processor" (queued on the receiving processor), sim.OverheadPlacement.
	OverheadOn string `toml:"overhead_on"`
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
	// Estimate is how the simulator's throughput is obtained: "paper"
	// (default: one run of Steps per worker, the first Warmup completions
	// excluded, workers started together, icpe20 §4.1) or "converged"
	// (sim.Estimate: independent replications with workers started apart
	// and their MSER-5 transient deleted, until the 95% interval is within
	// Precision; Steps is each replication's initial length).
	Estimate string
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
			OverheadOn: sim.ReceiveThreads.String()},
		Estimate: "paper", Series: []string{"simulator"}, LinVariant: "hybrid", KneeEpsilon: 0.05, ExtrapolateSteps: sim.DefaultSteps,
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

// check validates the parameters and fills the cases' settings.
func (p *tputParams) check(env *experiment.Env) error {
	switch {
	case p.Estimate != "paper" && p.Estimate != "converged":
		return env.Errorf("estimate", "estimate %q (want paper or converged)", p.Estimate)
	case p.Estimate == "converged" && slices.Contains(p.Series, "events"):
		return env.Errorf("estimate", "the events series counts one paper-procedure run; use estimate = \"paper\"")
	case math.IsNaN(p.Precision) || p.Precision < 0 || p.Precision > sim.MaxTarget:
		return env.Errorf("precision", "precision %v: want a relative half-width in (0, %g] (0: %g)", p.Precision, sim.MaxTarget, sim.DefaultTarget)
	case p.Estimate == "converged" && p.Warmup != 0:
		return env.Errorf("warmup", "warmup applies to estimate = \"paper\"; the converged estimate deletes its transient by MSER-5")
	}
	for _, s := range p.Series {
		if !slices.Contains(tputSeriesKeys, s) {
			return env.Errorf("series", "unknown series %q (want %v)", s, tputSeriesKeys)
		}
	}
	if len(p.Series) == 0 || (slices.Contains(p.Series, "events") && len(p.Series) > 1) {
		return env.Errorf("series", "series %v: name at least one, and events only alone (it is a bar chart)", p.Series)
	}
	if _, ok := tputLinVariants[p.LinVariant]; !ok {
		return env.Errorf("lin_variant", "unknown MVA variant %q (want exact, approximate or hybrid)", p.LinVariant)
	}
	for _, f := range []struct {
		key string
		v   float64
	}{{"alpha_ns_per_byte", p.AlphaNsPerByte}, {"beta_us", p.BetaUs}, {"jitter", p.Jitter}, {"update_ns_per_byte", p.UpdateNsPerByte}} {
		if !(f.v >= 0) || math.IsInf(f.v, 0) {
			return env.Errorf(f.key, "%v: need a finite value ≥ 0", f.v)
		}
	}
	if !(p.KneeEpsilon > 0) || p.KneeEpsilon >= 1 {
		return env.Errorf("knee_epsilon", "%v: need 0 < ε < 1", p.KneeEpsilon)
	}
	if p.Steps == 0 {
		p.Steps = sim.DefaultSteps
	}
	if p.Warmup < 0 || p.ProfileSteps < 0 || p.ExtrapolateSteps < 1 {
		return env.Errorf("warmup", "warmup %d, profile_steps %d, extrapolate_steps %d: need ≥ 0 (extrapolate ≥ 1)", p.Warmup, p.ProfileSteps, p.ExtrapolateSteps)
	}
	if len(p.Cases) == 0 {
		return env.Errorf("case", "no [[params.case]]")
	}
	seen := map[string]bool{}
	for i := range p.Cases {
		c := &p.Cases[i]
		c.tputSettings = c.tputSettings.inherit(p.tputSettings)
		if c.ID == "" || strings.ContainsAny(c.ID, " .") || seen[c.ID] {
			return env.Errorf("case", "case %d: id %q must be set, unique, without spaces or dots", i+1, c.ID)
		}
		seen[c.ID] = true
		if c.Label == "" {
			c.Label = c.ID
		}
		if (c.Model == "") == (c.Trace == "") {
			return env.Errorf("case", "case %q: set exactly one of model (a layer profile) or trace (a recorded trace)", c.ID)
		}
		if c.Batch < 1 {
			return env.Errorf("case", "case %q: batch %d < 1 example", c.ID, c.Batch)
		}
		if _, err := sim.ParseMode(c.Transport); err != nil {
			return env.Errorf("transport", "case %q: %v", c.ID, err)
		}
		if _, err := sim.ParseOrder(c.Order); err != nil {
			return env.Errorf("order", "case %q: %v", c.ID, err)
		}
		if _, err := sim.ParseOverheadPlacement(c.OverheadOn); err != nil {
			return env.Errorf("overhead_on", "case %q: %v", c.ID, err)
		}
		if c.Steps < 1 {
			return env.Errorf("steps", "case %q: %d simulated steps per worker, need ≥ 1", c.ID, c.Steps)
		}
		if c.Servers < 1 || !(c.DeviceSpeed > 0) || !(c.BandwidthGbps > 0) || !(c.WindowMB >= 0) {
			return env.Errorf("case", "case %q: servers %d, device_speed %v, bandwidth_gbps %v, window_mb %v: need ≥ 1, > 0, > 0, ≥ 0", c.ID, c.Servers, c.DeviceSpeed, c.BandwidthGbps, c.WindowMB)
		}
		if c.Series == nil {
			c.Series = p.Series
		}
		for _, s := range c.Series {
			if !slices.Contains(tputSeriesKeys, s) || (s == "events") != slices.Contains(p.Series, "events") {
				return env.Errorf("series", "case %q: series %q (want %v, events only for the whole experiment)", c.ID, s, tputSeriesKeys)
			}
		}
		if c.Servers > 1 && slices.Contains(c.Series, "lin") {
			return env.Errorf("series", "case %q: Lin et al. is computed from a 1-PS profile only (%d PS)", c.ID, c.Servers)
		}
		if c.MeasuredModel == "" {
			c.MeasuredModel = c.Model
		}
	}
	return nil
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
	if p.Estimate == "converged" {
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

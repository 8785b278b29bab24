package mechanism

import (
	"context"
	"fmt"
	"math"
	"strings"

	"pslab/engine/experiment"
	"pslab/engine/measured"
	"pslab/engine/sim"
	"pslab/engine/trace"
	"pslab/engine/zoo"
)

// The icpe20 mechanism experiments (Figs. 5, 7–12, 15, 16, 24, Table 1)
// show one model mechanism each on a small, documented input rather than
// predict a measured throughput. This file holds the shared profiling-trace
// parameters and the Fig. 5/8 comparison of link mechanisms.
//
// Decisions shared by these kinds (CATALOGUE §A.1, §B.1):
//   - Figure numbers follow [000] (I-1): Fig. 9 is the 1/n sharing
//     timeline, Fig. 10 the overhead fit.
//   - Fig. 5 has no experiment of its own: its model (zoo.Toy, assumed
//     sizes and times) is the input of fig8, which compares Fig. 8(c) and
//     8(d) on it, and of fig7.
//   - MB in parameters is 10⁶ bytes; WIN = 28 MB (§3.2.2) is 28·10⁶ bytes
//     (the paper does not say MB or MiB).
//   - Fig. 7's "rate 1/2 while both are active" is measured, not assumed:
//     each simulated link chunk's bytes/B is regressed on the time it spent
//     at each number of active workers (shareRates).
//   - Table 1's relative error is |predicted − recorded| / recorded, with
//     end times measured from the step start (the downlinks' request
//     time); the statistics are over all downlink streams of all steps,
//     quantiles empirical (no interpolation).
//   - Figs. 15/16 (AlexNet, batch 8, private CPU cluster on 1 Gbit/s) use
//     the PipeDream GPU profile slowed by an assumed device speed of 1/600
//     (≈ 1.6 s of compute per step) and an assumed 20% compute jitter: the
//     paper prints neither its compute times nor its step-time variation.

// mechTraceParams are the [params] keys that build the 1-worker profiling
// trace with zoo.Synthesize: the DNN is the spec's input "profile" (a
// zoo.ProfileSchema dataset or a PipeDream graph.txt) or, without that
// input, the Fig. 5 toy (zoo.Toy). Zero values take zoo's defaults.
type mechTraceParams struct {
	Batch         int     // examples per step (0: the profile's batch)
	DeviceSpeed   float64 `toml:"device_speed"`   // divides compute times (0: 1)
	BandwidthGbps float64 `toml:"bandwidth_gbps"` // profiling link bandwidth, Gbit/s
	WindowMB      float64 `toml:"window_mb"`      // profiling WIN in MB (10⁶ bytes); 0: flow control off
	AlphaNs       float64 `toml:"alpha_ns_per_byte"`
	BetaMs        float64 `toml:"beta_ms"`
	Jitter        float64 // compute jitter, coefficient of variation
	ProfiledSteps int     `toml:"profiled_steps"` // 0: zoo.DefaultSteps
	// OverheadOn is what the simulator's parsing overhead occupies:
	// "receive-threads" (default) or "processor" (sim.OverheadPlacement).
	OverheadOn string `toml:"overhead_on"`
}

// placement parses OverheadOn ("" → sim.ReceiveThreads).
func (p mechTraceParams) placement(env *experiment.Env) (sim.OverheadPlacement, error) {
	if p.OverheadOn == "" {
		return sim.ReceiveThreads, nil
	}
	on, err := sim.ParseOverheadPlacement(p.OverheadOn)
	if err != nil {
		return 0, env.Errorf("overhead_on", "overhead_on: %v", err)
	}
	return on, nil
}

// mechProfile returns the DNN of the profiling trace: the input "profile"
// or, without it, the Fig. 5 toy.
func mechProfile(env *experiment.Env) (*zoo.Profile, error) {
	if env.HasInput("profile") {
		return measured.Profile(env, "profile")
	}
	return zoo.Toy(), nil
}

// mechSynth synthesizes the profiling trace of params p from prof (seed
// seeds the compute jitter) and counts its ops as model work
// (experiment.SynthOpWork each). A kind bounds it first (mechSize).
func mechSynth(env *experiment.Env, prof *zoo.Profile, p mechTraceParams, seed uint64) (*trace.Trace, error) {
	tr, err := mechSynthesize(env, prof, p, seed)
	if err == nil {
		env.CountModelWork(experiment.SynthOpWork * float64(traceOps(tr)))
	}
	return tr, err
}

// mechSynthesize is mechSynth without counting (mechSize's probe, part of
// the estimate).
func mechSynthesize(env *experiment.Env, prof *zoo.Profile, p mechTraceParams, seed uint64) (*trace.Trace, error) {
	if !(p.BandwidthGbps > 0) || math.IsInf(p.BandwidthGbps, 0) {
		return nil, env.Errorf("bandwidth_gbps", "bandwidth_gbps: %v Gbit/s, want > 0", p.BandwidthGbps)
	}
	if p.WindowMB < 0 || math.IsNaN(p.WindowMB) || math.IsInf(p.WindowMB, 0) {
		return nil, env.Errorf("window_mb", "window_mb: %v MB, want finite and ≥ 0", p.WindowMB)
	}
	tr, err := zoo.Synthesize(prof, zoo.Options{
		Steps: p.ProfiledSteps, Batch: p.Batch, DeviceSpeed: p.DeviceSpeed,
		Bandwidth: gbps(p.BandwidthGbps), Window: int64(math.Round(p.WindowMB * 1e6)),
		Alpha: p.AlphaNs * 1e-9, Beta: p.BetaMs * 1e-3, Jitter: p.Jitter, Seed: seed,
	})
	if err != nil {
		return nil, env.Spec.Errorf([]string{"params"}, "%v", err)
	}
	return tr, nil
}

// mechSize returns the ops per step of the profiling trace of params p
// (from a one-step synthesis) and the steps it records (p's
// profiled_steps, at least 1, or zoo.DefaultSteps), so that a kind bounds
// its synthesis before it synthesizes them.
func mechSize(env *experiment.Env, prof *zoo.Profile, p mechTraceParams) (ops, steps int, err error) {
	if p.ProfiledSteps < 0 {
		return 0, 0, env.Errorf("profiled_steps", "profiled_steps %d: want ≥ 0 (0: %d)", p.ProfiledSteps, zoo.DefaultSteps)
	}
	one := p
	one.ProfiledSteps = 1
	tr, err := mechSynthesize(env, prof, one, 0)
	if err != nil {
		return 0, 0, err
	}
	steps = p.ProfiledSteps
	if steps == 0 {
		steps = zoo.DefaultSteps
	}
	return len(tr.Steps[0].Ops), steps, nil
}

// synthWork is the model work of synthesizing steps steps of ops ops
// (experiment.SynthOpWork each), plus the one-step synthesis of mechSize.
func synthWork(ops, steps int) float64 {
	return experiment.SynthOpWork * float64(ops) * float64(steps+1)
}

// replicatedSynthWork is synthWork for n replications that each
// synthesize their own steps steps (one mechSize probe in all).
func replicatedSynthWork(n, ops, steps int) float64 {
	return synthWork(ops, steps) + float64(n-1)*experiment.SynthOpWork*float64(ops)*float64(steps)
}

// traceOps is the number of ops of tr.
func traceOps(tr *trace.Trace) int {
	n := 0
	for _, st := range tr.Steps {
		n += len(st.Ops)
	}
	return n
}

// mechLinkParams name a link scheduler in [params]: mode "multiplex" (HTTP/2,
// flow control on) or "whole" (flow control off), order fifo (default),
// tic, reverse-tic or random, and WIN in MB (0: the trace's).
type mechLinkParams struct {
	Mode     string
	Order    string
	WindowMB float64 `toml:"window_mb"`
}

// link converts l to a sim.Link; key names the params entry in errors.
func (l mechLinkParams) link(env *experiment.Env, key string) (sim.Link, error) {
	var out sim.Link
	var err error
	if l.Mode != "" {
		if out.Mode, err = sim.ParseMode(l.Mode); err != nil {
			return out, env.Errorf(key, "%s: %v", key, err)
		}
	}
	if l.Order != "" {
		if out.Order, err = sim.ParseOrder(l.Order); err != nil {
			return out, env.Errorf(key, "%s: %v", key, err)
		}
	}
	if l.WindowMB < 0 || math.IsNaN(l.WindowMB) || math.IsInf(l.WindowMB, 0) {
		return out, env.Errorf(key, "%s: window_mb %v, want finite and ≥ 0", key, l.WindowMB)
	}
	out.Window = int64(math.Round(l.WindowMB * 1e6))
	return out, nil
}

// mechScheduler is one link scheduler compared by linkMechanisms.
type mechScheduler struct {
	mechLinkParams
	Name string // legend entry
	Key  string // metric-name component
}

type mechCompareParams struct {
	mechTraceParams
	Workers        int
	Steps          int
	BandwidthsGbps []float64 `toml:"bandwidths_gbps"`
	// Reference is the Key of the scheduler the others are compared with.
	Reference  string
	Mechanisms []mechScheduler
}

// linkMechanisms simulates the same profiling trace under several link
// schedulers (icpe20 Fig. 8: HTTP/2 multiplexing vs flow control off with
// an enforced order) at several simulated bandwidths and records the mean
// step time of each. Metrics: step_time.<key>.<gbps> (seconds) and
// excess.<key>.<gbps> = step time − the reference scheduler's; bars: step
// time in ms per scheduler (series) and bandwidth (category).
func linkMechanisms(_ context.Context, env *experiment.Env) (*experiment.Result, error) {
	p := mechCompareParams{Workers: 1, Steps: 3}
	if err := env.Params(&p); err != nil {
		return nil, err
	}
	if p.Workers < 1 || p.Steps < 1 {
		return nil, env.Errorf("workers", "workers %d and steps %d must be ≥ 1", p.Workers, p.Steps)
	}
	if err := env.PositiveList("bandwidths_gbps", p.BandwidthsGbps); err != nil {
		return nil, err
	}
	if len(p.Mechanisms) == 0 {
		return nil, env.Errorf("mechanisms", "no [[params.mechanisms]]")
	}
	on, err := p.placement(env)
	if err != nil {
		return nil, err
	}
	prof, err := mechProfile(env)
	if err != nil {
		return nil, err
	}
	ops, steps, err := mechSize(env, prof, p.mechTraceParams)
	if err != nil {
		return nil, err
	}
	runs := len(p.Mechanisms) * len(p.BandwidthsGbps)
	if err := env.CheckEvents(float64(runs)*experiment.SimEvents(ops, p.Steps, p.Workers), "mechanisms × bandwidths × workers × steps"); err != nil {
		return nil, err
	}
	// Its output: a bar and two metrics per run, a note.
	if err := env.CheckRows([]string{"params", "profiled_steps"}, synthWork(ops, steps), 3*float64(runs)+1,
		fmt.Sprintf("link-mechanisms: %d profiled steps of %d ops, %d runs", steps, ops, runs)); err != nil {
		return nil, err
	}
	rng := env.Rand()
	tr, err := mechSynth(env, prof, p.mechTraceParams, rng.Uint64())
	if err != nil {
		return nil, err
	}
	simSeed := rng.Uint64()
	// One compiled program serves every scheduler and bandwidth.
	prog, err := sim.Compile(tr)
	if err != nil {
		return nil, err
	}
	res := experiment.NewResult()
	times := map[string]float64{}
	for i, m := range p.Mechanisms {
		key := fmt.Sprintf("mechanisms[%d]", i)
		if m.Name == "" || m.Key == "" || strings.ContainsAny(m.Key, ". ") {
			return nil, env.Errorf("mechanisms", "%s: needs a name and a key without dots or spaces", key)
		}
		l, err := m.link(env, "mechanisms")
		if err != nil {
			return nil, err
		}
		for _, bw := range p.BandwidthsGbps {
			r, err := prog.Run(sim.Config{Workers: p.Workers, Steps: p.Steps, Warmup: sim.NoWarmup,
				Bandwidth: gbps(bw), Link: l, OverheadOn: on, Seed: simSeed, Progress: env.EventCounter()})
			if err != nil {
				return nil, fmt.Errorf("scheduler %q at %g Gbit/s: %w", m.Name, bw, err)
			}
			id := fmt.Sprintf("%s.%g", m.Key, bw)
			if _, dup := times[id]; dup {
				return nil, env.Errorf("mechanisms", "%s: key %q used twice", key, m.Key)
			}
			times[id] = r.StepTime.Mean
			res.Metric("step_time."+id, r.StepTime.Mean)
			res.Bar(m.Name, fmt.Sprintf("%g Gbit/s", bw), "icpe20-sim", "derived", r.StepTime.Mean*1e3)
		}
	}
	for _, m := range p.Mechanisms {
		for _, bw := range p.BandwidthsGbps {
			ref, ok := times[fmt.Sprintf("%s.%g", p.Reference, bw)]
			if !ok {
				return nil, env.Errorf("reference", "reference %q is not a scheduler key", p.Reference)
			}
			res.Metric(fmt.Sprintf("excess.%s.%g", m.Key, bw), times[fmt.Sprintf("%s.%g", m.Key, bw)]-ref)
		}
	}
	res.Note("trace: %s, %d profiled steps; %d worker(s), %d simulated steps each", tr.Meta.Model, len(tr.Steps), p.Workers, p.Steps)
	return res, nil
}

// gbps converts a link speed in Gbit/s to bytes/s.
func gbps(g float64) float64 { return g * 1e9 / 8 }

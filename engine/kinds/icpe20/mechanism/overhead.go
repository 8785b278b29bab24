package mechanism

import (
	"context"
	"fmt"
	"math"
	"sync/atomic"

	"pslab/engine/experiment"
	"pslab/engine/sim"
	"pslab/engine/trace"
)

type overheadFitParams struct {
	AlphaNs float64 `toml:"alpha_ns_per_byte"` // true α of the synthetic points, ns/byte
	BetaMs  float64 `toml:"beta_ms"`           // true β, ms
	NoiseMs float64 `toml:"noise_ms"`          // standard deviation of the additive Gaussian noise, ms
	MaxMB   float64 `toml:"max_mb"`            // sizes are Sizes evenly spaced points in (0, MaxMB]
	Sizes   int
	Repeats int // noisy draws per size
	// The §4.3 example: overhead is Fraction of a recorded communication
	// operation at ProfileGbps; what is it at TargetGbps?
	Fraction    float64
	ProfileGbps float64 `toml:"profile_gbps"`
	TargetGbps  float64 `toml:"target_gbps"`
	// Replications is the number of independent replications of the
	// noise (at least experiment.MinReplications; Env.ReplicationRands).
	Replications int
}

// overheadFit is icpe20 §3.2.1's overhead model (Fig. 10 of [000], Fig. 9
// of [001]): it draws synthetic (size, overhead) points from overhead =
// α·size + β plus seeded Gaussian noise, fits α and β with sim.FitOverhead
// and records the fit, its relative errors and its z-scores (error over the
// least-squares standard error), each the mean over Replications
// independent draws of the noise with its 95% interval
// (experiment.MetricCI; replication 0's points and fit are drawn). It then runs §4.3's example through the
// simulator: one downlink whose parsing overhead (β = 0) is Fraction of its
// recorded duration at ProfileGbps, simulated at ProfileGbps and at
// TargetGbps; the metrics example.fraction.<gbps> are the overhead chunk's
// share of the operation's simulated duration.
func overheadFit(_ context.Context, env *experiment.Env) (*experiment.Result, error) {
	p := overheadFitParams{Sizes: 40, Repeats: 3, Replications: experiment.MinReplications}
	if err := env.Params(&p); err != nil {
		return nil, err
	}
	for _, f := range []struct {
		key string
		v   float64
	}{{"alpha_ns_per_byte", p.AlphaNs}, {"beta_ms", p.BetaMs}, {"max_mb", p.MaxMB},
		{"profile_gbps", p.ProfileGbps}, {"target_gbps", p.TargetGbps}} {
		if !(f.v > 0) || math.IsInf(f.v, 0) {
			return nil, env.Errorf(f.key, "%s: %v, want > 0", f.key, f.v)
		}
	}
	if !(p.NoiseMs >= 0) || p.Sizes < 3 || p.Repeats < 1 || !(p.Fraction > 0 && p.Fraction < 1) {
		return nil, env.Errorf("noise_ms", "want noise_ms ≥ 0, sizes ≥ 3, repeats ≥ 1 and 0 < fraction < 1")
	}
	if err := env.CheckReplications(p.Replications); err != nil {
		return nil, err
	}
	// Per replication sizes × repeats noisy points, each drawn, fitted and
	// summed (three units); replication 0's point per size and fit lines,
	// 6 metrics with their interval bounds, 2 example metrics, 2 notes.
	points := float64(p.Replications) * float64(p.Sizes) * float64(p.Repeats)
	if err := env.CheckRows([]string{"params", "sizes"}, 3*points, float64(p.Sizes)+4+3*6+2+2,
		fmt.Sprintf("overhead-fit: %d replications of %d sizes × %d repeats", p.Replications, p.Sizes, p.Repeats)); err != nil {
		return nil, err
	}
	if err := env.CheckEvents(2*experiment.SimEvents(2, 1, 1), "the §4.3 example"); err != nil {
		return nil, err
	}
	alpha, beta, noise := p.AlphaNs*1e-9, p.BetaMs*1e-3, p.NoiseMs*1e-3
	res := experiment.NewResult()
	var rep experiment.Replicated
	for i, rng := range env.ReplicationRands(p.Replications) {
		var xs, ys []float64
		for k := 1; k <= p.Sizes; k++ {
			size := p.MaxMB * 1e6 * float64(k) / float64(p.Sizes)
			sum := 0.0
			for range p.Repeats {
				y := alpha*size + beta + noise*rng.NormFloat64()
				xs, ys = append(xs, size), append(ys, y)
				sum += y
			}
			if i == 0 {
				res.Point(fmt.Sprintf("synthetic overhead, mean of %d draws", p.Repeats), "synthetic", "derived", size/1e6, sum/float64(p.Repeats)*1e3)
			}
		}
		env.CountModelWork(3 * float64(len(xs)))
		a, b, err := sim.FitOverhead(xs, ys)
		if err != nil {
			return nil, err
		}
		seA, seB := olsStandardErrors(xs, ys, a, b)
		if i == 0 {
			for _, mb := range []float64{0, p.MaxMB} {
				res.Point(fmt.Sprintf("fit: %.3g ns/byte · size + %.3g ms", a*1e9, b*1e3), "FitOverhead", "derived", mb, (a*mb*1e6+b)*1e3)
				res.Point("true line (assumed α, β)", "assumed", "derived", mb, (alpha*mb*1e6+beta)*1e3)
			}
			res.Note("replication 1 of %d drawn: %d points, fitted α = %.4g ns/byte (SE %.2g), β = %.4g ms (SE %.2g)", p.Replications, len(xs), a*1e9, seA*1e9, b*1e3, seB*1e3)
		}
		rep.Add("alpha_fit", a*1e9)
		rep.Add("beta_fit", b*1e3)
		rep.Add("alpha_rel_err", (a-alpha)/alpha)
		rep.Add("beta_rel_err", (b-beta)/beta)
		rep.Add("alpha_z", (a-alpha)/seA)
		rep.Add("beta_z", (b-beta)/seB)
	}
	rep.Record(res)
	res.Note("fit metrics: means over %d independent replications of the noise with their 95%% interval (Student's t)", p.Replications)
	for _, g := range []float64{p.ProfileGbps, p.TargetGbps} {
		f, err := overheadShareOn(env.EventCounter(), p.Fraction, gbps(p.ProfileGbps), gbps(g))
		if err != nil {
			return nil, err
		}
		res.Metric(fmt.Sprintf("example.fraction.%g", g), f)
	}
	return res, nil
}

// olsStandardErrors returns the standard errors of the least-squares slope
// and intercept a, b of ys on xs.
func olsStandardErrors(xs, ys []float64, a, b float64) (seA, seB float64) {
	n := float64(len(xs))
	var mx, sxx, sse float64
	for _, x := range xs {
		mx += x
	}
	mx /= n
	for i, x := range xs {
		sxx += (x - mx) * (x - mx)
		r := ys[i] - a*x - b
		sse += r * r
	}
	s := math.Sqrt(sse / (n - 2))
	return s / math.Sqrt(sxx), s * math.Sqrt(1/n+mx*mx/sxx)
}

// overheadShare simulates one downlink of 10⁸ bytes whose parsing overhead
// α·bytes (β = 0) is `fraction` of its recorded duration (transfer plus
// overhead) at bandwidth b0 (bytes/s), at bandwidth b (bytes/s), and
// returns the overhead's share of the simulated duration there.
func overheadShare(fraction, b0, b float64) (float64, error) {
	return overheadShareOn(nil, fraction, b0, b)
}

// overheadShareOn is overheadShare counting the simulator's events on
// progress (sim.Config.Progress; nil: not counted).
func overheadShareOn(progress *atomic.Int64, fraction, b0, b float64) (float64, error) {
	const bytes = 1e8
	alpha := fraction / (1 - fraction) / b0 // overhead = fraction/(1−fraction) × transfer time
	tr := &trace.Trace{Meta: trace.Meta{Source: "icpe20 §4.3 overhead example", Batch: 1, Bandwidth: b0, Servers: 1},
		Steps: []trace.Step{{Ops: []trace.Op{{Name: "tensor", Resource: trace.Resource{Kind: trace.Downlink}, Bytes: bytes}}}}}
	var over, total float64
	_, err := sim.Run(tr, sim.Config{Workers: 1, Steps: 1, Warmup: sim.NoWarmup, Bandwidth: b,
		Overhead: &sim.Overhead{Alpha: alpha}, Link: sim.Link{Mode: sim.WholeStream}, Progress: progress,
		OnSpan: func(s sim.Span) {
			total += s.End - s.Start
			if s.Overhead {
				over += s.End - s.Start
			}
		}})
	if err != nil {
		return 0, err
	}
	return over / total, nil
}

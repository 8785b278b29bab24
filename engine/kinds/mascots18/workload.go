package mascots18

import (
	"context"
	"fmt"
	"math"

	"pslab/engine/dataset"
	"pslab/engine/experiment"
	"pslab/engine/mva"
)

type jobWorkloadParams struct {
	// GFLOPS is the worker GPU's speed in GFLOP/s (K520: 1229, mascots18
	// §VI), used at 100% efficiency (CATALOGUE M-12).
	GFLOPS float64
	// Bandwidth is the link speed in bit/s (1 Gbps).
	Bandwidth float64
	// Batch is the mini-batch size the TFLOP column is given for (1024).
	Batch float64
	// BytesPerMB is how many bytes a printed MB is (10^6 or 2^20, M-12).
	BytesPerMB float64 `toml:"bytes_per_mb"`
	// ServerTime is S^S in seconds, unspecified in the paper (M-12).
	ServerTime float64 `toml:"server_time"`
}

// defaultJobWorkloadParams are the mascots18 §V-B settings: a K520 at
// 1229 GFLOP/s, 1 Gbps links, batches of 1024, MB = 10^6 bytes, S^S = 0.
func defaultJobWorkloadParams() jobWorkloadParams {
	return jobWorkloadParams{GFLOPS: 1229, Bandwidth: 1e9, Batch: 1024, BytesPerMB: 1e6}
}

// validate reports a non-positive or infinite speed, bandwidth, batch or
// MB size, or a negative server time, at the key prefix+name of [params].
func (p jobWorkloadParams) validate(env *experiment.Env, prefix string) error {
	for name, v := range map[string]float64{"gflops": p.GFLOPS, "bandwidth": p.Bandwidth, "batch": p.Batch, "bytes_per_mb": p.BytesPerMB} {
		if !(v > 0) || math.IsInf(v, 0) {
			return env.Errorf(prefix+name, "%s must be a positive number, got %v", name, v)
		}
	}
	if !(p.ServerTime >= 0) || math.IsInf(p.ServerTime, 0) {
		return env.Errorf(prefix+"server_time", "invalid server time %v s", p.ServerTime)
	}
	return nil
}

// phases derives the per-step phase times (seconds) of row i of a Table III
// table and its number of steps: S^W = TFLOP per batch / GPU speed,
// S^U = S^D = model size / bandwidth, S^S = ServerTime and
// steps = ceil(epochs·|D|/batch).
func (p jobWorkloadParams) phases(t *dataset.Table, i int) (ph mva.Phases, steps float64) {
	su := t.Floats("model_size")[i] * p.BytesPerMB * 8 / p.Bandwidth
	ph = mva.Phases{Worker: t.Floats("tflop_per_batch")[i] * 1e12 / (p.GFLOPS * 1e9), Uplink: su, Server: p.ServerTime, Downlink: su}
	return ph, math.Ceil(float64(t.Ints("epochs")[i]) * t.Floats("examples")[i] / p.Batch)
}

// jobWorkload derives the per-step phase times of mascots18 Table III jobs
// (jobWorkloadParams.phases), the 1-worker cycle S^W+S^U+S^S+S^D, the
// bottleneck speedup limit cycle/max(S^U,S^D,S^S) and S(1) = steps·cycle.
func jobWorkload(_ context.Context, env *experiment.Env) (*experiment.Result, error) {
	p := defaultJobWorkloadParams()
	if err := env.Params(&p); err != nil {
		return nil, err
	}
	if err := p.validate(env, ""); err != nil {
		return nil, err
	}
	t, err := env.Input("jobs", mascotsTable3)
	if err != nil {
		return nil, err
	}
	// Three bars, six metrics and a note per job, one metric.
	if err := env.CheckRows([]string{"inputs", "jobs"}, float64(t.Len()), 10*float64(t.Len())+1,
		fmt.Sprintf("job-workload: %d jobs", t.Len())); err != nil {
		return nil, err
	}
	env.CountModelWork(float64(t.Len()))
	res := experiment.NewResult()
	var meanS1 float64
	for i, name := range t.Strings("name") {
		ph, steps := p.phases(t, i)
		sw, su := ph.Worker, ph.Uplink
		cycle := sw + 2*su + ph.Server
		limit := cycle / math.Max(su, ph.Server)
		s1 := steps * cycle / 86400
		meanS1 += s1 / float64(t.Len())
		res.Bar("S^W worker (s)", name, "derived", dataset.Derived, sw)
		res.Bar("S^U = S^D link (s)", name, "derived", dataset.Derived, su)
		res.Bar("1-worker cycle (s)", name, "derived", dataset.Derived, cycle)
		for k, v := range map[string]float64{"s_w": sw, "s_u": su, "steps": steps, "cycle": cycle, "speedup_limit": limit, "s1_days": s1} {
			res.Metric(k+"."+name, v)
		}
		res.Note("%-9s S^W %.3f s, S^U = S^D %.3f s, %g steps, cycle %.3f s, speedup limit %.2f, S(1) %.2f days", name, sw, su, steps, cycle, limit, s1)
	}
	res.Metric("mean_s1_days", meanS1)
	return res, nil
}

// The columns read from mascots18 Table III.
var (
	mascotsTable3 = &dataset.Schema{Name: "mascots18-table3", Columns: []dataset.Column{
		{Name: "name", Type: dataset.String},
		{Name: "examples", Type: dataset.Float64, Rule: dataset.Positive},
		{Name: "model_size", Type: dataset.Float64, Rule: dataset.Positive, Unit: "MB"},
		{Name: "tflop_per_batch", Type: dataset.Float64, Rule: dataset.Positive, Unit: "TFLOP"},
		{Name: "epochs", Type: dataset.Int64, Rule: dataset.Positive},
	}}
)

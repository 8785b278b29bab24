package main

import (
	"slices"

	"pslab/engine/predict"
)

// maxStepSeconds bounds one step of the 1-worker configuration the flags
// ask for, before anything is synthesized or simulated: 10^6 s (11.6
// days). The simulator's clock is int64 nanoseconds (292 years), which
// must hold thousands of such steps, with W workers queueing on the links;
// a flag off by orders of magnitude (-bandwidth 1e-300bps, -batch 2^63−1,
// -device-speed 1e-300) used to surface as "op "conv0/down" ends at
// 1.6e+307 s, beyond int64 nanoseconds", naming an op instead of the flag.
const maxStepSeconds = 1e6

// stepParts are the parts of a 1-worker step the flags scale, s: compute
// (the profile's, × -batch ÷ the profile's batch ÷ -device-speed),
// transfers (bytes each way ÷ the slowest -bandwidth, plus the parsing
// overhead -alpha, -beta) and the PS update (-update × parameter bytes).
type stepParts struct {
	compute, transfer, update float64
	bytes                     float64 // bytes each way
}

// checkScale refuses flags under which one step of one worker would take
// longer than maxStepSeconds, naming the flags that make it so (a usage
// error). It is a lower bound on the simulated step (no queueing, no
// jitter), so no configuration it refuses could have run.
func (f *predictFlags) checkScale(in *predictInput, c predict.Cluster, bws []float64) error {
	if len(bws) == 0 {
		return nil
	}
	bw := slices.Min(bws)
	var p stepParts
	if in.profile != nil {
		prof := in.profile
		batch, speed := c.Batch, c.DeviceSpeed
		if batch == 0 {
			batch = prof.Batch
		}
		if speed == 0 {
			speed = 1
		}
		p.bytes = float64(prof.ParamBytes())
		p.compute = prof.ComputeSeconds() * float64(batch) / float64(max(prof.Batch, 1)) / speed
		p.update = c.UpdateTime * p.bytes
		if p.compute > maxStepSeconds {
			return usagef("predict: -batch %d and -device-speed %g: one step's compute would take %.3g s (the profile's %.4g s at batch %d × %d/%d ÷ %g), "+
				"more than the %g s a step may take; lower -batch or raise -device-speed", batch, speed, p.compute, prof.ComputeSeconds(),
				prof.Batch, batch, prof.Batch, speed, float64(maxStepSeconds))
		}
		if p.update > maxStepSeconds {
			return usagef("predict: -update %g s/byte: one step's PS updates would take %.3g s (%.4g MB of parameters), more than the %g s a step may take",
				c.UpdateTime, p.update, p.bytes/1e6, float64(maxStepSeconds))
		}
	} else {
		for _, op := range in.trace.Steps[0].Ops {
			if op.Resource.Kind.IsLink() {
				p.bytes += float64(op.Bytes) / 2 // both directions recorded: bytes each way on average
			}
		}
	}
	p.transfer = 2 * (p.bytes/bw + c.Alpha*p.bytes)
	if p.transfer > maxStepSeconds {
		return usagef("predict: -bandwidth %s (slowest %s) and -alpha %g s/B: one step's transfers would take %.3g s (%.4g MB each way), "+
			"more than the %g s a step may take; raise -bandwidth", f.bandwidthText(in), gbps(bw), c.Alpha, p.transfer, p.bytes/1e6, float64(maxStepSeconds))
	}
	if total := p.compute + p.transfer + p.update; total > maxStepSeconds {
		return usagef("predict: -bandwidth %s, -batch, -device-speed and -update: one step would take %.3g s (compute %.3g s, transfers %.3g s, updates %.3g s), "+
			"more than the %g s a step may take", f.bandwidthText(in), total, p.compute, p.transfer, p.update, float64(maxStepSeconds))
	}
	return nil
}

// bandwidthText is -bandwidth as given, or the trace's own when not given.
func (f *predictFlags) bandwidthText(in *predictInput) string {
	if f.bandwidth != "" {
		return f.bandwidth
	}
	return "(the trace's " + gbps(in.trace.Meta.Bandwidth) + ")"
}

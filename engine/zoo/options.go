package zoo

import (
	"fmt"
	"math"
)

// DefaultSteps is the number of steps Synthesize records when
// Options.Steps is 0: icpe20 profiles 100 steps (§3.2.2, Table 1).
const DefaultSteps = 100

// DefaultUpdateTime is the PS update cost used when Options.UpdateTime is
// 0, in seconds per parameter byte: 0.2 ns/byte, i.e. a parameter server
// applying plain SGD (read weights and gradient, write weights) at about
// 5 GB/s of parameters. This is an ASSUMED value: no paper states the PS
// update time per byte.
const DefaultUpdateTime = 0.2e-9

// Options configures Synthesize. The zero value is not usable (Bandwidth
// is required); every other zero field has the default stated on it.
type Options struct {
	// Steps is the number of profiled steps to record (0 → DefaultSteps).
	Steps int
	// Servers is the number of parameter servers (0 → 1). Layers are
	// placed with placement.Greedy in topological order.
	Servers int
	// Batch is the examples per step (0 → the profile's batch). Compute
	// times are scaled by Batch/Profile.Batch: an ASSUMPTION of linear
	// scaling with no fixed per-layer cost, which overestimates the time
	// saved by small batches on GPUs.
	Batch int
	// DeviceSpeed divides every worker compute time (0 → 1): 2 means a
	// device twice as fast as the one profiled (dimensionless).
	DeviceSpeed float64
	// Bandwidth is the capacity of each link during profiling, in bytes/s
	// (required, > 0). The worker's NIC has the same capacity and is shared
	// equally by its active PS connections in each direction.
	Bandwidth float64
	// Window is the HTTP/2 flow-control window WIN in bytes; 0 turns flow
	// control off (whole streams, FIFO in request order). icpe20 §3.2.2
	// measured WIN ≈ 28 MB on average.
	Window int64
	// Alpha (seconds/byte) and Beta (seconds) give the parsing overhead
	// Alpha·bytes + Beta added to the recorded end of every transfer
	// (icpe20 §3.2.1; 0 → no overhead).
	Alpha, Beta float64
	// Jitter is the relative standard deviation (coefficient of variation)
	// of a per-step multiplicative compute noise (0 → none). Each step
	// draws one lognormal factor with mean 1 that scales all its worker
	// and PS compute times; transfers are not jittered.
	Jitter float64
	// UpdateTime is the PS update time per parameter byte, in seconds/byte
	// (0 → DefaultUpdateTime). It is not scaled by Batch or DeviceSpeed.
	UpdateTime float64
	// Seed seeds the PCG generator (math/rand/v2) of the jitter.
	Seed uint64
}

// withDefaults validates o and fills the zero fields. The error names the
// field.
func (o Options) withDefaults(profileBatch int) (Options, error) {
	for _, f := range []struct {
		name string
		v    float64
	}{
		{"DeviceSpeed", o.DeviceSpeed}, {"Bandwidth", o.Bandwidth},
		{"Alpha", o.Alpha}, {"Beta", o.Beta}, {"Jitter", o.Jitter},
		{"UpdateTime", o.UpdateTime},
	} {
		if math.IsNaN(f.v) || math.IsInf(f.v, 0) || f.v < 0 {
			return o, fmt.Errorf("zoo: Options.%s: %v, need a finite value ≥ 0", f.name, f.v)
		}
	}
	for _, f := range []struct {
		name string
		v    int64
	}{
		{"Steps", int64(o.Steps)}, {"Servers", int64(o.Servers)},
		{"Batch", int64(o.Batch)}, {"Window", o.Window},
	} {
		if f.v < 0 {
			return o, fmt.Errorf("zoo: Options.%s: negative value %d", f.name, f.v)
		}
	}
	if o.Bandwidth == 0 {
		return o, fmt.Errorf("zoo: Options.Bandwidth: 0 bytes/s, need > 0")
	}
	if o.Steps == 0 {
		o.Steps = DefaultSteps
	}
	if o.Servers == 0 {
		o.Servers = 1
	}
	if o.Batch == 0 {
		o.Batch = profileBatch
	}
	if o.DeviceSpeed == 0 {
		o.DeviceSpeed = 1
	}
	if o.UpdateTime == 0 {
		o.UpdateTime = DefaultUpdateTime
	}
	return o, nil
}

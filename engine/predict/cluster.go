package predict

import (
	"fmt"
	"math"
	"sync/atomic"

	"pslab/engine/sim"
	"pslab/engine/trace"
	"pslab/engine/zoo"
)

// Cluster is the PS cluster a prediction is for, and how a per-layer
// profile becomes its 1-worker profiling trace (zoo.Synthesize). Zero
// fields take the default named on them.
type Cluster struct {
	// Bandwidth is the link bandwidth B, bytes/s per direction of each
	// PS NIC and of the worker's NIC (required for a profile; 0 → a
	// recorded trace's own bandwidth).
	Bandwidth float64
	// Servers is the number of parameter servers M (0 → 1, or a recorded
	// trace's).
	Servers int
	// Batch is the examples per worker step (0 → the profile's or trace's
	// batch). A profile's compute times scale linearly with it
	// (zoo.Options.Batch, an assumption).
	Batch int
	// DeviceSpeed divides a profile's compute times (0 → 1).
	DeviceSpeed float64
	// Link is the transport: Multiplex (HTTP/2 flow control on) or
	// WholeStream (off), the stream order and the window WIN in bytes
	// (0 → a recorded trace's). A profile is synthesized with WIN when
	// multiplexed and without flow control otherwise.
	Link sim.Link
	// Alpha (s/byte) and Beta (s) are the parsing overhead α·bytes + β of
	// icpe20 §3.2.1 recorded into a synthesized trace (0 → none).
	Alpha, Beta float64
	// OverheadOn is what the simulator's parsing overhead occupies
	// (sim.Config.OverheadOn; zero → sim.ReceiveThreads, a delay that
	// occupies no processor, as zoo.Synthesize records it).
	OverheadOn sim.OverheadPlacement
	// Jitter is the coefficient of variation of a synthesized trace's
	// per-step compute factor (zoo.Options.Jitter; 0 → none).
	Jitter float64
	// UpdateTime is the PS update time per parameter byte, s/byte
	// (0 → zoo.DefaultUpdateTime).
	UpdateTime float64
	// ProfileSteps is the number of synthesized profiling steps
	// (0 → zoo.DefaultSteps).
	ProfileSteps int
	// Steps is, with Paper, the number N of simulated steps per worker
	// (0 → sim.DefaultSteps); otherwise the initial length of each
	// replication of the converged estimate (0 → sim.DefaultEstimateSteps).
	Steps int
	// Warmup is, with Paper, the number of step completions the simulator
	// excludes (0 → sim.DefaultWarmup, sim.NoWarmup for none); the
	// converged estimate deletes its transient by MSER-5 instead.
	Warmup int
	// Paper runs the simulator once per worker count with icpe20's fixed
	// procedure (Steps, Warmup, workers started together) instead of a
	// converged estimate; its points then carry no interval.
	Paper bool
	// Precision is the converged estimate's stopping rule (sim.Precision:
	// target relative half-width, events bound, replications); ignored
	// with Paper.
	Precision sim.Precision
	// Seed seeds the synthesized jitter and the simulator's step sampling.
	Seed uint64
	// Sync is sim.ASP (the zero value) or sim.BSP; each model runs the
	// mode it defines and is n/a in the other (Model.Defines).
	Sync sim.Sync
	// Reading is how the MVA phases are read from the 1-worker trace
	// (AutoReading: OpReading in RunProfile, TcpdumpReading in Run).
	Reading PhaseReading
	// GPUsPerNode is G, the GPUs of one worker node (0 → 1): each computes
	// Batch examples, the node sums their gradients over the intra-node
	// link and makes one push and one pull per tensor (NodeProfile).
	// Profile only.
	GPUsPerNode int
	// IntraBandwidth is the intra-node GPU-to-GPU bandwidth, bytes/s
	// (0 → DefaultIntraBandwidth). Used when GPUsPerNode > 1.
	IntraBandwidth float64
	// Colocate puts one PS shard on each worker node, sharing its NIC;
	// Servers is then W. The simulator shares each node's NIC between its
	// worker and its shard (sim.Config.Colocated); the coarse models get
	// the equivalent cluster of W PSs at ColocatedBandwidth. Profile only.
	Colocate bool
	// SharedPS makes each PS one processor shared by all workers
	// (sim.Config.SharedPS) instead of a processor share of its own per
	// worker (icpe20), e.g. the host CPU of a multi-GPU node (Host). The
	// coarse models see the same: Cynthia's BSP model gets the PS CPU's
	// demand (c_prof, the PS ops' share of the 1-worker step, against
	// c_ps = 1), zhang's aggregation cost per packet is UpdateTime·pks;
	// MVA's PS station is shared in any case.
	SharedPS bool
	// Progress, if non-nil, counts the simulator's events as they run
	// (sim.Config.Progress), for a progress display.
	Progress *atomic.Int64
	// Estimates, if non-nil, shares converged estimates with other callers
	// of the same trace and configuration (sim.Config.Estimates).
	Estimates *sim.EstimateCache
	// nicBandwidth is the node NIC bandwidth the simulator shares under
	// Colocate, bytes/s; nodeTrace sets it, as Bandwidth then holds the
	// coarse models' equivalent.
	nicBandwidth float64
}

// PhaseReading is how FromTrace's phases feed MVA.
type PhaseReading uint8

const (
	// AutoReading is OpReading for a per-layer profile (RunProfile) and
	// TcpdumpReading for a recorded trace (Run).
	AutoReading PhaseReading = iota
	// TcpdumpReading gives MVA Coarse.Phases (icpe20 §1's reading, the one
	// the icpe20-throughput and byo experiments reproduce).
	TcpdumpReading
	// OpReading gives MVA Coarse.OpPhases: compute, transfer time at the
	// bandwidth, update ops.
	OpReading
)

// Synthesize returns the 1-worker profiling trace of profile p on cluster
// c: zoo.Synthesize with c's bandwidth, servers, batch, device speed,
// window (0 when flow control is off), overhead, jitter, update time,
// profiling steps and seed.
func (c Cluster) Synthesize(p *zoo.Profile) (*trace.Trace, error) {
	if !(c.Bandwidth > 0) || math.IsInf(c.Bandwidth, 0) {
		return nil, fmt.Errorf("predict: bandwidth %g bytes/s, need > 0", c.Bandwidth)
	}
	opt := zoo.Options{Steps: c.ProfileSteps, Servers: c.Servers, Batch: c.Batch, DeviceSpeed: c.DeviceSpeed,
		Bandwidth: c.Bandwidth, Alpha: c.Alpha, Beta: c.Beta, Jitter: c.Jitter, UpdateTime: c.UpdateTime, Seed: c.Seed}
	if c.Link.Mode == sim.Multiplex {
		opt.Window = c.Link.Window
	}
	return zoo.Synthesize(p, opt)
}

// simConfig is the simulator configuration of c for trace tr.
func (c Cluster) simConfig() sim.Config {
	cfg := sim.Config{Steps: c.Steps, Warmup: c.Warmup, Bandwidth: c.Bandwidth, OverheadOn: c.OverheadOn,
		Link: c.Link, Batch: c.Batch, Seed: c.Seed, Sync: c.Sync, Progress: c.Progress, SharedPS: c.SharedPS, Estimates: c.Estimates}
	if c.Colocate && c.nicBandwidth > 0 {
		cfg.Colocated, cfg.Bandwidth = true, c.nicBandwidth
	}
	return cfg
}

// ParsePhaseReading parses "auto", "tcpdump" or "ops".
func ParsePhaseReading(s string) (PhaseReading, error) {
	switch s {
	case "auto", "":
		return AutoReading, nil
	case "tcpdump":
		return TcpdumpReading, nil
	case "ops":
		return OpReading, nil
	}
	return 0, fmt.Errorf("%q: want auto, tcpdump or ops", s)
}

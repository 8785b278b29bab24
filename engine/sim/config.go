package sim

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"sync/atomic"

	"pslab/engine/trace"
)

// DefaultSteps is the number of SGD steps simulated per worker when
// Config.Steps is zero (icpe20 §4.1: "a trace of 1000 steps is sufficient").
const DefaultSteps = 1000

// DefaultWarmup is the number of step completions, counted over all workers,
// excluded from the measurement window when Config.Warmup is zero (icpe20
// §4.1: "we exclude the first 50 simulated steps", CATALOGUE I-16).
const DefaultWarmup = 50

// NoWarmup as Config.Warmup measures from time zero.
const NoWarmup = -1

// Mode selects how a link scheduler splits a stream (one communication
// operation) into chunks.
type Mode uint8

const (
	// Multiplex is HTTP/2 with flow control on (icpe20 §3.2.2, CATALOGUE
	// B.1.4): the first service of a stream sends min(remaining, WIN) bytes,
	// the second service sends the rest; a stream is never split again.
	Multiplex Mode = iota
	// WholeStream is flow control off (icpe20 §3.3, Figs. 17–19): every
	// stream is one chunk, served in the scheduler's order.
	WholeStream
)

var modeNames = [...]string{"multiplex", "whole"}

// String returns "multiplex" or "whole".
func (m Mode) String() string {
	if int(m) < len(modeNames) {
		return modeNames[m]
	}
	return "mode(" + strconv.Itoa(int(m)) + ")"
}

// ParseMode parses a name written by Mode.String.
func ParseMode(s string) (Mode, error) {
	for i, n := range modeNames {
		if s == n {
			return Mode(i), nil
		}
	}
	return 0, fmt.Errorf("sim: unknown link mode %q (want multiplex or whole)", s)
}

// Order selects which waiting stream a link scheduler serves next. Ties are
// broken by the time the stream entered the scheduler (first in, first out).
type Order uint8

const (
	// FIFO serves streams by ready time; a stream preempted after its first
	// service re-enters at the tail (CATALOGUE I-12, Fig. 12).
	FIFO Order = iota
	// TIC serves streams by TicTac's timing-independent priority (see doc.go).
	TIC
	// ReverseTIC serves streams in the reverse of the TIC priority.
	ReverseTIC
	// Random serves streams by a random priority, one permutation of all
	// communication operations drawn per run from Config.Seed.
	Random
)

var orderNames = [...]string{"fifo", "tic", "reverse-tic", "random"}

// String returns "fifo", "tic", "reverse-tic" or "random".
func (o Order) String() string {
	if int(o) < len(orderNames) {
		return orderNames[o]
	}
	return "order(" + strconv.Itoa(int(o)) + ")"
}

// ParseOrder parses a name written by Order.String.
func ParseOrder(s string) (Order, error) {
	for i, n := range orderNames {
		if s == n {
			return Order(i), nil
		}
	}
	return 0, fmt.Errorf("sim: unknown stream order %q (want fifo, tic, reverse-tic or random)", s)
}

// Link configures the scheduler of every (worker, direction, PS) link.
type Link struct {
	// Mode is how streams are split into chunks; the zero value is Multiplex.
	Mode Mode
	// Window is the HTTP/2 flow-control window WIN in bytes; zero means the
	// trace's Meta.Window (CATALOGUE I-13: one constant WIN per trace).
	// Ignored by WholeStream.
	Window int64
	// Order is the stream selection order; the zero value is FIFO.
	Order Order
}

// OverheadPlacement selects what a communication op's parsing overhead
// α·bytes + β occupies on the receiving side (icpe20 §3.2.1, CATALOGUE
// I-15; see doc.go).
type OverheadPlacement uint8

const (
	// ReceiveThreads (the default) makes the overhead a pure delay between
	// the transfer's last byte and the availability of the tensor to its
	// dependents: it occupies neither the link nor a processor, and
	// concurrent overheads overlap (an infinite-server station), as
	// TensorFlow's gRPC receive threads deserialize tensors concurrently
	// with computation and as package zoo records synthesized traces.
	ReceiveThreads OverheadPlacement = iota
	// Processor makes the overhead a computation op queued on the receiving
	// processor (the worker for downlinks, the PS for uplinks), serialized
	// with that processor's other computation (FIFO, I-11).
	Processor
)

var placementNames = [...]string{"receive-threads", "processor"}

// String returns "receive-threads" or "processor".
func (o OverheadPlacement) String() string {
	if int(o) < len(placementNames) {
		return placementNames[o]
	}
	return "overhead-placement(" + strconv.Itoa(int(o)) + ")"
}

// ParseOverheadPlacement parses a name written by OverheadPlacement.String.
func ParseOverheadPlacement(s string) (OverheadPlacement, error) {
	for i, n := range placementNames {
		if s == n {
			return OverheadPlacement(i), nil
		}
	}
	return 0, fmt.Errorf("sim: unknown overhead placement %q (want receive-threads or processor)", s)
}

// Overhead holds the parsing-overhead coefficients of icpe20 §3.2.1:
// overhead = Alpha·bytes + Beta.
type Overhead struct {
	Alpha float64 // seconds per byte
	Beta  float64 // seconds
}

// Config parameterizes one simulation run. The zero value of every field
// except Workers is usable and takes the default named in its comment.
type Config struct {
	// Workers is the number of workers W (≥ 1).
	Workers int
	// Steps is the number N of SGD steps simulated per worker; zero means
	// DefaultSteps.
	Steps int
	// Warmup is the number of step completions, counted over all workers,
	// excluded before the measurement window starts; zero means
	// DefaultWarmup, NoWarmup (−1) means none.
	Warmup int
	// Bandwidth is the link bandwidth B of the simulated cluster in bytes/s,
	// per direction of each PS NIC; zero means the trace's Meta.Bandwidth.
	Bandwidth float64
	// Overhead overrides the trace's Meta.Alpha and Meta.Beta; nil means use
	// the trace's values. &Overhead{} disables the overhead model.
	Overhead *Overhead
	// OverheadOn is where the overhead is spent; the zero value is
	// ReceiveThreads (a delay that occupies no resource).
	OverheadOn OverheadPlacement
	// Link configures the link schedulers.
	Link Link
	// Batch is the number of examples per step per worker; zero means the
	// trace's Meta.Batch.
	Batch int
	// Seed seeds the PCG generators (math/rand/v2): worker w samples its
	// steps from PCG(Seed, w), so its sequence of sampled steps does not
	// depend on W, the link mode or the order; the Random order uses its own
	// stream. Same seed, same result.
	Seed uint64
	// Sync is ASP (the zero value, icpe20) or BSP (a barrier per step; see
	// Sync).
	Sync Sync
	// Colocated places PS shard i on worker i's node, so the trace must
	// have exactly Workers PSs: each node's NIC, Bandwidth per direction,
	// carries both its worker's transfers with the other nodes' shards and
	// its shard's transfers with the other workers, shared max-min fairly
	// across the sending and the receiving NIC (see nicNet); a worker's
	// transfers with its own shard take no time. False: every PS has a NIC
	// of its own (icpe20).
	Colocated bool
	// SharedPS makes each PS's processor one processor shared by every
	// worker (processor sharing: n workers with a PS op running each get
	// 1/n of it, like a PS NIC), instead of a processor share of its own per
	// worker (icpe20 B.1.3, Share = 1 for computation, the default). It
	// models a PS whose one CPU serves all workers, e.g. the host CPU of a
	// multi-GPU node that sums every GPU's gradients (predict.Host). Not
	// with Colocated.
	SharedPS bool
	// Start selects when each worker starts its first step; the zero value
	// is Together (all at time 0, icpe20 Fig. 15(a)). See Start.
	Start Start
	// StartOffsets, if non-nil, gives each worker's first-step start time
	// in seconds (len Workers, finite, ≥ 0) and overrides Start: tests use
	// it to perturb one worker by 1 ns.
	StartOffsets []float64
	// SeriesWindow, if positive, is the length in seconds of the windows of
	// Result.Series (throughput and downlink overlap over time, Fig. 16).
	SeriesWindow float64
	// Timeline, if non-nil, receives the simulated timeline as Chrome trace
	// JSON (chrome://tracing, Perfetto).
	Timeline io.Writer
	// OnSpan, if non-nil, is called for every completed chunk in completion
	// order.
	OnSpan func(Span)
	// Progress, if non-nil, counts the simulated events (Result.Events) as
	// they run, in batches of 4,096 and the rest at the end, for a
	// progress display read from another goroutine. Runs that share it
	// (replications, sweeps) add up.
	Progress *atomic.Int64
	// Estimates, if non-nil, lets Estimate answer from the estimates other
	// callers already made of the same trace, configuration and precision
	// (EstimateCache); Run ignores it.
	Estimates *EstimateCache

	// fullSharing recomputes every colocated flow's rate from scratch on
	// each change (maxMin) instead of incrementally (fairShare): the
	// reference the tests compare against.
	fullSharing bool
}

// params is a Config resolved against a trace's metadata.
type params struct {
	workers, steps, warmup int
	bandwidth              float64
	alpha, beta            float64
	overheadOn             OverheadPlacement
	mode                   Mode
	window                 int64
	order                  Order
	batch                  int
	seed                   uint64
	series                 float64
	colocated              bool
	sharedPS               bool
	fullSharing            bool
	start                  Start
	sync                   Sync
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// resolve fills defaults from the trace metadata and checks every field.
// Workers is checked by run, so that Sweep can share one params value.
func resolve(m *trace.Meta, c *Config) (params, error) {
	p := params{
		workers: c.Workers, steps: c.Steps, warmup: c.Warmup,
		bandwidth: c.Bandwidth, alpha: m.Alpha, beta: m.Beta, overheadOn: c.OverheadOn,
		mode: c.Link.Mode, window: c.Link.Window, order: c.Link.Order,
		batch: c.Batch, seed: c.Seed, series: c.SeriesWindow, colocated: c.Colocated, sharedPS: c.SharedPS,
		fullSharing: c.fullSharing, start: c.Start, sync: c.Sync,
	}
	if p.sharedPS && p.colocated {
		return p, fmt.Errorf("sim: Config.SharedPS: not with Colocated (a colocated shard's processor is its node's)")
	}
	if p.start > Staggered {
		return p, fmt.Errorf("sim: Config.Start: unknown %s", p.start)
	}
	if p.steps == 0 {
		p.steps = DefaultSteps
	}
	if p.steps < 0 {
		return p, fmt.Errorf("sim: Config.Steps: negative %d", c.Steps)
	}
	switch {
	case p.warmup == 0:
		p.warmup = DefaultWarmup
	case p.warmup == NoWarmup:
		p.warmup = 0
	case p.warmup < 0:
		return p, fmt.Errorf("sim: Config.Warmup: %d (want ≥ 0 or NoWarmup)", c.Warmup)
	}
	if p.bandwidth == 0 {
		p.bandwidth = m.Bandwidth
	}
	if !finite(p.bandwidth) || p.bandwidth <= 0 {
		return p, fmt.Errorf("sim: Config.Bandwidth: %g bytes/s (trace Meta.Bandwidth %g); want > 0", c.Bandwidth, m.Bandwidth)
	}
	if c.Overhead != nil {
		p.alpha, p.beta = c.Overhead.Alpha, c.Overhead.Beta
	}
	if !finite(p.alpha) || p.alpha < 0 {
		return p, fmt.Errorf("sim: Config.Overhead.Alpha: %g s/byte; want ≥ 0", p.alpha)
	}
	if !finite(p.beta) || p.beta < 0 {
		return p, fmt.Errorf("sim: Config.Overhead.Beta: %g s; want ≥ 0", p.beta)
	}
	if p.overheadOn > Processor {
		return p, fmt.Errorf("sim: Config.OverheadOn: unknown %s", p.overheadOn)
	}
	if p.mode > WholeStream {
		return p, fmt.Errorf("sim: Config.Link.Mode: unknown %s", p.mode)
	}
	if p.order > Random {
		return p, fmt.Errorf("sim: Config.Link.Order: unknown %s", p.order)
	}
	if p.window == 0 {
		p.window = m.Window
	}
	if p.window < 0 {
		return p, fmt.Errorf("sim: Config.Link.Window: negative %d bytes", p.window)
	}
	if p.mode == Multiplex && p.window == 0 {
		return p, fmt.Errorf("sim: Config.Link.Window: HTTP/2 multiplexing needs WIN > 0 bytes (trace Meta.Window is 0)")
	}
	if p.batch == 0 {
		p.batch = m.Batch
	}
	if p.batch <= 0 {
		return p, fmt.Errorf("sim: Config.Batch: %d examples (trace Meta.Batch %d); want > 0", c.Batch, m.Batch)
	}
	if !finite(p.series) || p.series < 0 {
		return p, fmt.Errorf("sim: Config.SeriesWindow: %g s; want ≥ 0", p.series)
	}
	return p, nil
}

package training

import (
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"time"

	"pslab/engine/dataset"
	"pslab/engine/zoo"
)

// Transports.
const (
	// Multiplexed sends every tensor on its own gRPC stream, all requested
	// at step start and multiplexed by HTTP/2 with flow control on.
	Multiplexed = "multiplexed"
	// Ordered sends whole tensors one at a time on one stream per PS and
	// direction, with windows so large that flow control never blocks.
	Ordered = "ordered"
)

// Synchronization modes.
const (
	ASP = "asp" // asynchronous: every gradient is applied when it arrives
	BSP = "bsp" // bulk-synchronous: step s+1 waits for all step-s gradients
)

// OrderedWindow is the HTTP/2 stream and connection window of the ordered
// transport, in bytes: the largest value HTTP/2 allows (2³¹−1), so flow
// control never blocks a whole-tensor transfer ("effectively off").
const OrderedWindow = math.MaxInt32

// Job is what the parameter servers and the workers of one run agree on:
// the model, its scale factors, placement and the communication scheme.
// Every process of a run must be given the same Job (checked with
// Fingerprint when a worker registers).
type Job struct {
	// Profile is the path of a PipeDream graph.txt profile, of its import
	// as a zoo.ProfileSchema Arrow file (.arrow), or "toy" for
	// zoo.Toy (the icpe20 Fig. 5 model).
	Profile string
	// Batch is the examples per step per worker (0 → the profile's batch).
	// Compute times scale by Batch/profile batch (linear, as zoo assumes).
	Batch int
	// DeviceSpeed divides every compute time (dimensionless, > 0): 10
	// emulates a device ten times faster than the profiled GPU.
	DeviceSpeed float64
	// BytesScale multiplies every tensor size (dimensionless, in (0, 1]).
	BytesScale float64
	// Servers is the number of parameter servers (1 or more).
	Servers int
	// Workers is the number of workers in the run (≥ 1).
	Workers int
	// Sync is ASP or BSP.
	Sync string
	// Transport is Multiplexed or Ordered.
	Transport string
	// Order is the downlink order of the ordered transport: default, tic,
	// reverse or random (see DownlinkOrder); ignored when multiplexed.
	Order string
	// Seed seeds the random order (math/rand/v2 PCG).
	Seed uint64
	// Window and ConnWindow are the HTTP/2 initial stream and connection
	// flow-control windows of the multiplexed transport, in bytes (gRPC
	// ignores values below 64 KiB, so those are rejected). The ordered
	// transport always uses OrderedWindow.
	Window, ConnWindow int64
	// StartStagger delays worker i's first step by i·StartStagger after
	// every worker has registered (0: all start together). An
	// intervention for the study of operating modes (engine/testbed doc,
	// "Operating modes"): it sets the workers' initial phases.
	StartStagger time.Duration
}

// MaxStartStagger bounds Job.StartStagger: a minute between consecutive
// workers' starts is far beyond any step the testbed emulates.
const MaxStartStagger = time.Minute

// minWindow is gRPC-Go's lower bound on flow-control windows (bytes).
const minWindow = 64 * 1024

// RegisterFlags adds the job flags to fs, writing into j.
func (j *Job) RegisterFlags(fs *flag.FlagSet) {
	fs.StringVar(&j.Profile, "profile", "", "PipeDream graph.txt profile, its import as .arrow (datasets/zoo), or \"toy\"")
	fs.IntVar(&j.Batch, "batch", 0, "examples per step per worker (0: the profile's batch)")
	fs.Float64Var(&j.DeviceSpeed, "device-speed", 1, "compute times are divided by this factor")
	fs.Float64Var(&j.BytesScale, "bytes-scale", 1, "tensor sizes are multiplied by this factor")
	fs.IntVar(&j.Servers, "servers", 1, "number of parameter servers")
	fs.IntVar(&j.Workers, "workers", 1, "number of workers in the run")
	fs.StringVar(&j.Sync, "sync", ASP, "asp or bsp")
	fs.StringVar(&j.Transport, "transport", Multiplexed, "multiplexed or ordered")
	fs.StringVar(&j.Order, "order", "default", "ordered transport downlink order: default, tic, reverse, random")
	fs.Uint64Var(&j.Seed, "seed", 1, "seed of the random order")
	fs.Int64Var(&j.Window, "window", 256*1024, "HTTP/2 stream window of the multiplexed transport (bytes)")
	fs.Int64Var(&j.ConnWindow, "conn-window", 256*1024, "HTTP/2 connection window of the multiplexed transport (bytes)")
	fs.DurationVar(&j.StartStagger, "start-stagger", 0, "worker i starts its first step i times this after all registered (0: together)")
}

// Args returns the command-line flags that reproduce j.
func (j *Job) Args() []string {
	return []string{
		"-profile", j.Profile, "-batch", fmt.Sprint(j.Batch),
		"-device-speed", fmt.Sprint(j.DeviceSpeed), "-bytes-scale", fmt.Sprint(j.BytesScale),
		"-servers", fmt.Sprint(j.Servers), "-workers", fmt.Sprint(j.Workers),
		"-sync", j.Sync, "-transport", j.Transport, "-order", j.Order,
		"-seed", fmt.Sprint(j.Seed), "-window", fmt.Sprint(j.Window), "-conn-window", fmt.Sprint(j.ConnWindow),
		"-start-stagger", j.StartStagger.String(),
	}
}

// Validate checks every field; the error names the field.
func (j *Job) Validate() error {
	switch {
	case j.Profile == "":
		return fmt.Errorf("testbed: job: empty profile")
	case j.Batch < 0:
		return fmt.Errorf("testbed: job: negative batch %d", j.Batch)
	case !(j.DeviceSpeed > 0) || math.IsInf(j.DeviceSpeed, 0):
		return fmt.Errorf("testbed: job: device speed %v, need a finite value > 0", j.DeviceSpeed)
	case !(j.BytesScale > 0 && j.BytesScale <= 1):
		return fmt.Errorf("testbed: job: bytes scale %v, need 0 < scale ≤ 1", j.BytesScale)
	case j.Servers < 1:
		return fmt.Errorf("testbed: job: %d servers, need ≥ 1", j.Servers)
	case j.Workers < 1:
		return fmt.Errorf("testbed: job: %d workers, need ≥ 1", j.Workers)
	case j.Sync != ASP && j.Sync != BSP:
		return fmt.Errorf("testbed: job: sync %q, want asp or bsp", j.Sync)
	case j.Transport != Multiplexed && j.Transport != Ordered:
		return fmt.Errorf("testbed: job: transport %q, want multiplexed or ordered", j.Transport)
	case j.StartStagger < 0 || j.StartStagger > MaxStartStagger:
		return fmt.Errorf("testbed: job: start stagger %v, need 0 ≤ stagger ≤ %v", j.StartStagger, MaxStartStagger)
	}
	if _, err := ParseOrder(j.Order); err != nil {
		return fmt.Errorf("testbed: job: %w", err)
	}
	if j.Transport == Multiplexed {
		for _, w := range []struct {
			name string
			v    int64
		}{{"window", j.Window}, {"conn window", j.ConnWindow}} {
			if w.v < minWindow || w.v > math.MaxInt32 {
				return fmt.Errorf("testbed: job: %s %d bytes, need %d ≤ window ≤ %d (gRPC ignores smaller windows)", w.name, w.v, minWindow, math.MaxInt32)
			}
		}
	}
	return nil
}

// Windows returns the stream and connection windows the transport uses
// (bytes).
func (j *Job) Windows() (stream, conn int32) {
	if j.Transport == Ordered {
		return OrderedWindow, OrderedWindow
	}
	return int32(j.Window), int32(j.ConnWindow)
}

// Fingerprint is a short string that differs between jobs whose processes
// could not work together.
func (j *Job) Fingerprint() string {
	return fmt.Sprintf("%s|%d|%g|%g|%d|%d|%s|%s|%s|%d", filepath.Base(j.Profile), j.Batch, j.DeviceSpeed,
		j.BytesScale, j.Servers, j.Workers, j.Sync, j.Transport, j.Order, j.Seed)
}

// LoadProfile reads the job's profile ("toy" gives zoo.Toy).
func (j *Job) LoadProfile() (*zoo.Profile, error) {
	if j.Profile == "toy" {
		return zoo.Toy(), nil
	}
	if strings.HasSuffix(j.Profile, ".arrow") { // an imported profile (datasets/zoo)
		t, err := dataset.Read(j.Profile, zoo.ProfileSchema, dataset.Allocator)
		if err != nil {
			return nil, fmt.Errorf("testbed: profile: %w", err)
		}
		p, err := zoo.ProfileFromTable(t)
		if err != nil {
			return nil, fmt.Errorf("testbed: profile %s: %w", j.Profile, err)
		}
		return p, nil
	}
	f, err := os.Open(j.Profile)
	if err != nil {
		return nil, fmt.Errorf("testbed: profile: %w", err)
	}
	defer f.Close()
	return zoo.Parse(f, strings.TrimSuffix(filepath.Base(j.Profile), ".graph.txt")+".graph.txt")
}

// LoadPlan validates the job, loads its profile and builds the plan.
func (j *Job) LoadPlan() (*Plan, error) {
	if err := j.Validate(); err != nil {
		return nil, err
	}
	p, err := j.LoadProfile()
	if err != nil {
		return nil, err
	}
	return NewPlan(p, *j)
}

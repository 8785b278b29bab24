package collection

import (
	"fmt"
	"math"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"

	"github.com/apache/arrow/go/v17/arrow/memory"

	"pslab/engine/atomicfile"
	"pslab/engine/dataset"
	"pslab/engine/testbed/analysis"
	"pslab/engine/testbed/config"
	"pslab/engine/testbed/node"
	"pslab/engine/testbed/training"
)

// RunsSchema has one row per throughput run. The last three columns are
// new with accounting version 3 (issue 29); ReadFacts reads files
// without them as unstretched runs.
var RunsSchema = &dataset.Schema{Name: "testbed-runs", Columns: []dataset.Column{
	{Name: "workers", Type: dataset.Int64, Rule: dataset.Positive, Doc: "W, workers in the run"},
	{Name: "repetition", Type: dataset.Int64, Rule: dataset.NonNegative, Doc: "repetition index (per W and dilation)"},
	{Name: "throughput", Type: dataset.Float64, Rule: dataset.NonNegative, Unit: "examples/s", Doc: "time average over the last `average` steps (Throughput), on the configuration's time scale: the run's own × dilation"},
	{Name: "wall_s", Type: dataset.Float64, Rule: dataset.NonNegative, Unit: "s", Doc: "wall time of the run incl. process start"},
	{Name: "dilation", Type: dataset.Float64, Rule: dataset.Positive, Unit: "1", Doc: "stretch factor k of the run: device_speed and bandwidth ÷ k (1: as configured; doc.go, Dilation sensitivity)"},
	{Name: "synchrony", Type: dataset.Float64, Rule: dataset.Any, Unit: "1", Doc: "mean resultant length of the workers' step-start phases in the averaging window (analysis.Synchrony): 1 lockstep, 0 evenly interleaved; −1 undefined"},
	{Name: "start_spread_s", Type: dataset.Float64, Rule: dataset.NonNegative, Unit: "s", Doc: "latest less earliest first step start of the workers (analysis.StartSpread)"},
}}

// StepsSchema has one row per step of every worker of every run: the
// per-step timestamps behind the throughput.
var StepsSchema = &dataset.Schema{Name: "testbed-steps", Columns: []dataset.Column{
	{Name: "run", Type: dataset.String, Rule: dataset.Enum, Values: []string{"profile", "throughput"}, Doc: "1-worker profiling run or throughput run"},
	{Name: "workers", Type: dataset.Int64, Rule: dataset.Positive, Doc: "W, workers in the run"},
	{Name: "repetition", Type: dataset.Int64, Rule: dataset.NonNegative, Doc: "repetition index (0 for the profile)"},
	{Name: "worker", Type: dataset.Int64, Rule: dataset.NonNegative, Doc: "worker index"},
	{Name: "step", Type: dataset.Int64, Rule: dataset.NonNegative, Doc: "step index"},
	{Name: "start_ns", Type: dataset.Int64, Rule: dataset.NonNegative, Unit: "ns", Doc: "step start, from the run's first step start"},
	{Name: "end_ns", Type: dataset.Int64, Rule: dataset.NonNegative, Unit: "ns", Doc: "step end, from the run's first step start"},
	{Name: "dilation", Type: dataset.Float64, Rule: dataset.Positive, Unit: "1", Doc: "stretch factor k of the run (1: as configured); its times are on its own, stretched clock (accounting version 3)"},
}}

// Files written per configuration, in datasets/testbed/<name>/.
const (
	TraceFile      = "trace.arrow"
	ThroughputFile = "throughput.arrow"
	PhasesFile     = "phases.arrow"
	RunsFile       = "runs.arrow"
	StepsFile      = "steps.arrow"
)

// Host describes the machine for provenance.
type Host struct {
	Kernel, CPU, Date, Command string
}

// platform is the platform string of trace and measurement rows.
func platform(network string) string {
	return fmt.Sprintf("pslab testbed: gRPC-Go %s over real TCP, network %s, %s/%s", grpcVersion(), network, runtime.GOOS, runtime.GOARCH)
}

func grpcVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, d := range bi.Deps {
			if d.Path == "google.golang.org/grpc" {
				return d.Version
			}
		}
	}
	return "(unknown version)"
}

// provenance is the common provenance of a configuration's files.
func (o *Outcome) provenance(h Host) dataset.Provenance {
	c, p := o.Config, o.Plan
	f := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	i := func(v int64) string { return strconv.FormatInt(v, 10) }
	workers := make([]string, len(c.Workers))
	for k, w := range c.Workers {
		workers[k] = strconv.Itoa(w)
	}
	computeScale := float64(p.Batch) / float64(p.Profile.Batch) / c.DeviceSpeed
	prov := dataset.Provenance{
		Origin:  dataset.Measured,
		Source:  ConfigSource(c.Name),
		Licence: "produced by pslab; same licence as the repository",
		Command: h.Command,
		Notes: fmt.Sprintf("Real parameter-server training emulator: %d PS and W workers as separate processes speaking gRPC over real TCP (%s); "+
			"compute emulated by sleeping the PipeDream per-layer times × compute_scale; tensors scaled by bytes_scale. "+
			"The emulated cluster stands for one with bandwidth B/bytes_scale and a device device_speed× the profiled GPU, "+
			"running at real time; per-message costs (RTT, gRPC, parsing) are not scaled. See engine/testbed/doc.go.", c.Servers, o.Network),
		Extra: map[string]string{
			"testbed.config":             c.Name,
			"testbed.network":            o.Network,
			"testbed.kernel":             h.Kernel,
			"testbed.cpu":                h.CPU,
			"testbed.cpus":               strconv.Itoa(runtime.NumCPU()),
			"testbed.date":               h.Date,
			"testbed.go":                 runtime.Version(),
			"testbed.grpc":               grpcVersion(),
			"testbed.profile":            filepath.Base(p.Job.Profile),
			"testbed.profile_batch":      strconv.Itoa(p.Profile.Batch),
			"testbed.batch":              strconv.Itoa(p.Batch),
			"testbed.device_speed":       f(c.DeviceSpeed),
			"testbed.compute_scale":      f(computeScale),
			"testbed.bytes_scale":        f(c.BytesScale),
			"testbed.model_bytes":        i(p.ModelBytes()),
			"testbed.profile_bytes":      i(p.Profile.ParamBytes()),
			"testbed.step_compute_s":     f(p.StepCompute().Seconds()),
			"testbed.bandwidth_mbit":     f(c.BandwidthMbit),
			"testbed.bandwidth_bps":      f(c.Bandwidth()),
			"testbed.servers":            strconv.Itoa(c.Servers),
			"testbed.ps_load_bytes":      joinInts(p.Load),
			"testbed.sync":               c.Sync,
			"testbed.transport":          c.Transport,
			"testbed.order":              c.Order,
			"testbed.seed":               strconv.FormatUint(c.Seed, 10),
			"testbed.window_config":      i(c.Window),
			"testbed.conn_window_config": i(c.ConnWindow),
			"testbed.window_wire":        i(o.Window),
			"testbed.conn_window_wire":   i(o.ConnWindow),
			"testbed.workers":            strings.Join(workers, ","),
			"testbed.repetitions":        strconv.Itoa(c.Repetitions),
			"testbed.steps":              strconv.Itoa(c.Steps),
			"testbed.average":            strconv.Itoa(c.Average),
			"testbed.profile_steps":      strconv.Itoa(c.ProfileSteps),
			"testbed.phase_skip":         strconv.Itoa(c.PhaseSkip),
			"testbed.clock_clamped_ops":  strconv.Itoa(o.Clamped),
			"testbed.loadavg_start":      o.Load[0],
			"testbed.loadavg_end":        o.Load[1],
			"testbed.nice":               strconv.Itoa(o.Nice),
			"testbed.gomaxprocs":         strings.TrimPrefix(node.GOMAXPROCS, "GOMAXPROCS="),
			"testbed.elapsed_s":          f(o.Elapsed.Round(1e6).Seconds()),
			"testbed.max_repetitions":    strconv.Itoa(c.RepCap()),
			"testbed.dilations":          joinFloats(c.Dilations),
			"testbed.dilate_points":      strconv.Itoa(c.StretchedPoints()),
			"testbed.max_minutes":        f(c.MaxMinutes),
			"testbed.dilation_network":   DilationNetwork,
		},
	}
	if c.StartStaggerMs > 0 { // an intervention, written only where made
		prov.Extra["testbed.start_stagger_ms"] = f(c.StartStaggerMs)
	}
	o.acctExtra(prov.Extra)
	return prov
}

// DilationNetwork says what of the network a stretched run stretches
// (metadata testbed.dilation_network; network.Link).
const DilationNetwork = "device_speed and bandwidth ÷ k; shaper burst and queues kept in bytes (k× as long); TCP rto_min k×200 ms (namespaces); delayed-ACK timer not stretched"

func joinFloats(v []float64) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = strconv.FormatFloat(x, 'g', -1, 64)
	}
	return strings.Join(s, ",")
}

func joinInts(v []int64) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = strconv.FormatInt(x, 10)
	}
	return strings.Join(s, ",")
}

// Tables returns the configuration's datasets by file name.
func (o *Outcome) Tables(h Host) (map[string]*dataset.Table, error) {
	c, p := o.Config, o.Plan
	prov := o.provenance(h)
	copyProv := func() dataset.Provenance {
		q := prov
		q.Extra = make(map[string]string, len(prov.Extra))
		for k, v := range prov.Extra {
			q.Extra[k] = v
		}
		return q
	}
	out := map[string]*dataset.Table{}
	tp := copyProv()
	tp.Extra["overhead_samples"] = strconv.Itoa(o.Overhead.Samples)
	out[TraceFile] = dataset.FromTrace(o.Trace, tp)

	m := dataset.NewTable(dataset.MeasurementSchema, copyProv())
	for _, pt := range o.Points {
		if err := m.Append("testbed:"+c.Name, platform(o.Network), p.Profile.Model, p.Batch, pt.Workers, c.Servers,
			c.Sync, c.Transport, orderOf(c), pt.Mean, pt.Std, c.Average, windowOf(c, o.Window)); err != nil {
			return nil, err
		}
	}
	out[ThroughputFile] = m

	ph := dataset.NewTable(dataset.PhasesSchema, copyProv())
	ph.Provenance.Extra["phases.steps"] = strconv.Itoa(o.Phases.Steps)
	ph.Provenance.Extra["phases.method"] = "mascots18 §III-A: S^D, S^U = first to last byte of each direction at the receiver; S^W, S^S = gaps between transmissions (ExtractPhases)"
	if err := ph.Append(p.Profile.Model, p.Batch, o.Phases.SW, o.Phases.SU, o.Phases.SS, o.Phases.SD, dataset.Measured); err != nil {
		return nil, err
	}
	out[PhasesFile] = ph

	runs := dataset.NewTable(RunsSchema, copyProv())
	for _, r := range o.Runs {
		sync := analysis.Synchrony(r.Steps, c.Average)
		if math.IsNaN(sync) {
			sync = -1
		}
		if err := runs.Append(r.Workers, r.Repetition, r.Throughput, r.Wall.Seconds(), r.dilation(), sync, analysis.StartSpread(r.Steps)); err != nil {
			return nil, err
		}
	}
	out[RunsFile] = runs

	steps := dataset.NewTable(StepsSchema, copyProv())
	add := func(kind string, r Run) error {
		t0 := r.Steps[0].Start[0]
		for _, st := range r.Steps {
			t0 = min(t0, st.Start[0])
		}
		for w, st := range r.Steps {
			for s := range st.End {
				if err := steps.Append(kind, r.Workers, r.Repetition, w, s, st.Start[s]-t0, st.End[s]-t0, r.dilation()); err != nil {
					return err
				}
			}
		}
		return nil
	}
	if err := add("profile", o.Profile); err != nil {
		return nil, err
	}
	for _, r := range o.Runs {
		if err := add("throughput", r); err != nil {
			return nil, err
		}
	}
	out[StepsFile] = steps
	acct, err := o.accountingTable(copyProv())
	if err != nil {
		return nil, err
	}
	out[AccountingFile] = acct
	points, stretched := Judge(o.Facts(), o.JudgeInput())
	if out[PointsFile], err = pointsTable(copyProv(), points, stretched); err != nil {
		return nil, err
	}
	if out[ModesFile], err = modesTable(copyProv(), points, stretched); err != nil {
		return nil, err
	}
	return out, nil
}

// ConfigSource is the source of every dataset of configuration name, in
// its provenance and in its trace's metadata alike (so that `pslab testbed
// timeline` writes again, byte for byte, the timeline a run wrote).
func ConfigSource(name string) string {
	return "pslab testbed configuration " + name + " (datasets/testbed/configs.toml)"
}

// orderOf is the order column: the order of the ordered transport, or
// "default" for multiplexed (requests in topological order, HTTP/2 decides).
func orderOf(c config.Config) string {
	if c.Transport == training.Multiplexed {
		return training.OrderDefault
	}
	return c.Order
}

// Write writes the configuration's datasets (Tables) and the profile as
// a TensorFlow-style timeline (TimelineFile) into dir with WriteDir.
func (o *Outcome) Write(dir string, h Host, mem memory.Allocator) error {
	tables, err := o.Tables(h)
	if err != nil {
		return err
	}
	tl, err := EncodeTimeline(o.Trace)
	if err != nil {
		return fmt.Errorf("%s: %w", filepath.Join(dir, TimelineFile), err)
	}
	return WriteDir(dir, tables, map[string][]byte{TimelineFile: tl}, mem)
}

// WriteDir encodes every table and then replaces dir with a directory
// holding them and the already encoded files (name → content),
// atomically (atomicfile.NewDir): the files are written to a temporary
// directory beside dir that is renamed into place, so dir is either the
// old complete set, the new complete set, or absent; never partial. A
// failure removes the temporary directory; one left by a writer that was
// killed is removed by the next WriteDir of the same dir.
func WriteDir(dir string, tables map[string]*dataset.Table, files map[string][]byte, mem memory.Allocator) error {
	enc := map[string][]byte{}
	for name, b := range files {
		if _, dup := tables[name]; dup {
			return fmt.Errorf("%s: given both as a table and as a file", filepath.Join(dir, name))
		}
		enc[name] = b
	}
	for name, t := range tables {
		b, err := dataset.Encode(t, mem)
		if err != nil {
			return fmt.Errorf("%s: %w", filepath.Join(dir, name), err)
		}
		enc[name] = b
	}
	tmp, err := atomicfile.NewDir(dir)
	if err != nil {
		return err
	}
	defer tmp.Abort()
	for name, b := range enc {
		if err := atomicfile.Write(filepath.Join(tmp.Path, name), b); err != nil {
			return err
		}
	}
	return tmp.Commit()
}

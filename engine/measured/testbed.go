package measured

import (
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"

	"pslab/engine/dataset"
	"pslab/engine/experiment"
	"pslab/engine/predict"
	"pslab/engine/trace"
)

// Config is one loaded testbed configuration directory (engine/testbed's
// output: trace.arrow, throughput.arrow, phases.arrow, steps.arrow).
type Config struct {
	// Name is the spec input that named the directory.
	Name string
	// Trace is the recorded 1-worker profile.
	Trace *trace.Trace
	// Meas are the measured points by ascending W.
	Meas []predict.Measurement
	// Sync is "asp" or "bsp"; Transport and Order as engine/testbed names them.
	Sync, Transport, Order string
	// Model names the DNN.
	Model string
	// Batch is the per-worker batch (examples); Servers the PS count.
	Batch, Servers int
	// Bandwidth is the emulated link speed in bytes/s.
	Bandwidth float64
	// BytesScale and DeviceSpeed are the emulation's scale factors
	// (dimensionless; engine/testbed doc, "Scale factors").
	BytesScale, DeviceSpeed float64
	// MeasTable, Phases and Steps are the tables as read.
	MeasTable, Phases, Steps *dataset.Table
	// Points is each unstretched point's judgement by W (its verdict,
	// interval over repetitions and modes) from points.arrow, accounting
	// version 3 on; nil for an older directory, which
	// testbed.acct.host_limited judges as a whole.
	Points map[int]Point
	// Runs are the unstretched throughput runs from runs.arrow; nil for
	// a directory older than accounting version 3 (ReadRuns).
	Runs []Run
}

// Load reads the testbed configuration directory of input name: its
// trace, throughput, phases and steps files, and the configuration facts
// from the throughput file's metadata (engine/testbed, Outcome.Tables).
func Load(env *experiment.Env, name string) (*Config, error) {
	dir, err := env.InputPath(name)
	if err != nil {
		return nil, err
	}
	fail := func(format string, args ...any) error {
		return env.Spec.Errorf([]string{"inputs", name}, "input %q: "+format, append([]any{name}, args...)...)
	}
	read := func(file string, s *dataset.Schema) (*dataset.Table, error) {
		t, err := dataset.Read(filepath.Join(dir, file), s, env.Mem)
		if err != nil {
			return nil, fail("%v", err)
		}
		return t, nil
	}
	c := &Config{Name: name}
	tt, err := read("trace.arrow", dataset.TraceSchema)
	if err != nil {
		return nil, err
	}
	if c.Trace, err = dataset.ToTrace(tt); err != nil {
		return nil, fail("trace.arrow: %v", err)
	}
	if c.MeasTable, err = read("throughput.arrow", dataset.MeasurementSchema); err != nil {
		return nil, err
	}
	if c.Phases, err = read("phases.arrow", dataset.PhasesSchema); err != nil {
		return nil, err
	}
	if c.Steps, err = read("steps.arrow", StepsSchema); err != nil {
		return nil, err
	}
	// optional reads a file newer collections write (accounting version 3
	// on), if present, and parses it.
	optional := func(file string, s *dataset.Schema, parse func(*dataset.Table) error) error {
		if _, err := os.Stat(filepath.Join(dir, file)); err != nil {
			return nil
		}
		t, err := read(file, s)
		if err != nil {
			return err
		}
		if err := parse(t); err != nil {
			return fail("%v", err)
		}
		return nil
	}
	if err := optional(PointsFile, nil, func(t *dataset.Table) (err error) { c.Points, err = ReadPoints(t); return err }); err != nil {
		return nil, err
	}
	if err := optional(RunsFile, nil, func(t *dataset.Table) (err error) { c.Runs, err = ReadRuns(t); return err }); err != nil {
		return nil, err
	}
	x := c.MeasTable.Provenance.Extra
	c.Sync, c.Transport, c.Order = x["testbed.sync"], x["testbed.transport"], x["testbed.order"]
	nums := map[string]*float64{"testbed.bandwidth_bps": &c.Bandwidth, "testbed.bytes_scale": &c.BytesScale, "testbed.device_speed": &c.DeviceSpeed}
	for key, dst := range nums {
		v, err := strconv.ParseFloat(x[key], 64)
		if err != nil || !(v > 0) || math.IsInf(v, 0) {
			return nil, fail("throughput.arrow metadata %s = %q: want a positive number", key, x[key])
		}
		*dst = v
	}
	if c.Sync != "asp" && c.Sync != "bsp" {
		return nil, fail("throughput.arrow metadata testbed.sync = %q: want asp or bsp", c.Sync)
	}
	c.Model, c.Batch, c.Servers = c.Trace.Meta.Model, c.Trace.Meta.Batch, max(c.Trace.Meta.Servers, 1)
	if c.Trace.Meta.Bandwidth != c.Bandwidth {
		return nil, fail("trace bandwidth %g bytes/s, throughput metadata %g", c.Trace.Meta.Bandwidth, c.Bandwidth)
	}
	mt := c.MeasTable
	for i := range mt.Len() {
		if mt.Strings("model")[i] != c.Model || int(mt.Ints("batch")[i]) != c.Batch || int(mt.Ints("ps")[i]) != c.Servers ||
			mt.Strings("sync")[i] != c.Sync || mt.Strings("transport")[i] != c.Transport || mt.Strings("order")[i] != c.Order {
			return nil, fail("throughput.arrow row %d (%s batch %d, %d PS, %s %s/%s) is not the configuration of the trace (%s batch %d, %d PS, %s %s/%s)",
				i+1, mt.Strings("model")[i], mt.Ints("batch")[i], mt.Ints("ps")[i], mt.Strings("sync")[i], mt.Strings("transport")[i], mt.Strings("order")[i],
				c.Model, c.Batch, c.Servers, c.Sync, c.Transport, c.Order)
		}
		w, x := int(mt.Ints("workers")[i]), mt.Floats("throughput")[i]
		if !(x > 0) || slices.ContainsFunc(c.Meas, func(m predict.Measurement) bool { return m.Workers == w }) {
			return nil, fail("throughput.arrow row %d: %d workers at %v examples/s; want one row per W and a throughput > 0", i+1, w, x)
		}
		c.Meas = append(c.Meas, predict.Measurement{Workers: w, Throughput: x, Std: mt.Floats("throughput_std")[i]})
	}
	if len(c.Meas) == 0 {
		return nil, fail("throughput.arrow has no rows")
	}
	slices.SortFunc(c.Meas, func(a, b predict.Measurement) int { return a.Workers - b.Workers })
	for _, m := range c.Meas {
		if _, ok := c.Points[m.Workers]; c.Points != nil && !ok {
			return nil, fail("%s has no unstretched point for W = %d of throughput.arrow", PointsFile, m.Workers)
		}
	}
	return c, nil
}

// Judges reports whether the measured point at W may judge a model: it
// holds its testbed judgement (points.arrow), or the directory predates
// per-point judgement (Points nil). Verdict is the testbed's verdict ("" without
// points.arrow).
func (c *Config) Judges(w int) (ok bool, verdict string) {
	if c.Points == nil {
		return true, ""
	}
	p := c.Points[w]
	return p.Holds(), p.Verdict
}

// CI is the relative 95% half-width over repetitions of the measured
// point at W (points.arrow), 0 when unknown (no points.arrow, one
// repetition).
func (c *Config) CI(w int) float64 {
	if p, ok := c.Points[w]; ok && p.CI >= 0 {
		return p.CI
	}
	return 0
}

// Range is what a figure draws around measurement m (examples/s): its
// 95% confidence interval over repetitions where points.arrow gives one,
// else ± one standard deviation over repetitions.
func (c *Config) Range(m predict.Measurement) (lo, hi float64) {
	if h := c.CI(m.Workers); h > 0 {
		return m.Throughput * (1 - h), m.Throughput * (1 + h)
	}
	return m.Throughput - m.Std, m.Throughput + m.Std
}

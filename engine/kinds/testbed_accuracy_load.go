package kinds

import (
	"math"
	"path/filepath"
	"slices"
	"strconv"

	"pslab/engine/dataset"
	"pslab/engine/experiment"
	"pslab/engine/predict"
	"pslab/engine/trace"
)

// tbaConfig is one loaded testbed configuration.
type tbaConfig struct {
	name  string
	trace *trace.Trace
	// meas are the measured points by ascending W.
	meas                       []predict.Measurement
	sync, transport, order     string
	model                      string
	batch, servers             int
	bandwidth                  float64 // bytes/s
	bytesScale, deviceSpeed    float64
	measTable, phases, stepTab *dataset.Table
}

// tbaLoad reads the testbed configuration directory of input name: its
// trace, throughput, phases and steps files, and the configuration facts
// from the throughput file's metadata (engine/testbed, Outcome.Tables).
func tbaLoad(env *experiment.Env, name string) (*tbaConfig, error) {
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
	c := &tbaConfig{name: name}
	tt, err := read("trace.arrow", dataset.TraceSchema)
	if err != nil {
		return nil, err
	}
	if c.trace, err = dataset.ToTrace(tt); err != nil {
		return nil, fail("trace.arrow: %v", err)
	}
	if c.measTable, err = read("throughput.arrow", dataset.MeasurementSchema); err != nil {
		return nil, err
	}
	if c.phases, err = read("phases.arrow", dataset.PhasesSchema); err != nil {
		return nil, err
	}
	if c.stepTab, err = read("steps.arrow", testbedSteps); err != nil {
		return nil, err
	}
	x := c.measTable.Provenance.Extra
	c.sync, c.transport, c.order = x["testbed.sync"], x["testbed.transport"], x["testbed.order"]
	nums := map[string]*float64{"testbed.bandwidth_bps": &c.bandwidth, "testbed.bytes_scale": &c.bytesScale, "testbed.device_speed": &c.deviceSpeed}
	for key, dst := range nums {
		v, err := strconv.ParseFloat(x[key], 64)
		if err != nil || !(v > 0) || math.IsInf(v, 0) {
			return nil, fail("throughput.arrow metadata %s = %q: want a positive number", key, x[key])
		}
		*dst = v
	}
	if c.sync != "asp" && c.sync != "bsp" {
		return nil, fail("throughput.arrow metadata testbed.sync = %q: want asp or bsp", c.sync)
	}
	c.model, c.batch, c.servers = c.trace.Meta.Model, c.trace.Meta.Batch, max(c.trace.Meta.Servers, 1)
	if c.trace.Meta.Bandwidth != c.bandwidth {
		return nil, fail("trace bandwidth %g bytes/s, throughput metadata %g", c.trace.Meta.Bandwidth, c.bandwidth)
	}
	mt := c.measTable
	for i := range mt.Len() {
		if mt.Strings("model")[i] != c.model || int(mt.Ints("batch")[i]) != c.batch || int(mt.Ints("ps")[i]) != c.servers ||
			mt.Strings("sync")[i] != c.sync || mt.Strings("transport")[i] != c.transport || mt.Strings("order")[i] != c.order {
			return nil, fail("throughput.arrow row %d (%s batch %d, %d PS, %s %s/%s) is not the configuration of the trace (%s batch %d, %d PS, %s %s/%s)",
				i+1, mt.Strings("model")[i], mt.Ints("batch")[i], mt.Ints("ps")[i], mt.Strings("sync")[i], mt.Strings("transport")[i], mt.Strings("order")[i],
				c.model, c.batch, c.servers, c.sync, c.transport, c.order)
		}
		w, x := int(mt.Ints("workers")[i]), mt.Floats("throughput")[i]
		if !(x > 0) || slices.ContainsFunc(c.meas, func(m predict.Measurement) bool { return m.Workers == w }) {
			return nil, fail("throughput.arrow row %d: %d workers at %v examples/s; want one row per W and a throughput > 0", i+1, w, x)
		}
		c.meas = append(c.meas, predict.Measurement{Workers: w, Throughput: x, Std: mt.Floats("throughput_std")[i]})
	}
	if len(c.meas) == 0 {
		return nil, fail("throughput.arrow has no rows")
	}
	slices.SortFunc(c.meas, func(a, b predict.Measurement) int { return a.Workers - b.Workers })
	return c, nil
}

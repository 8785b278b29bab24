package zhang

import (
	"math"

	"pslab/engine/experiment"
	"pslab/engine/measured"
	"pslab/engine/syncps"
)

// This file holds what every zhang kind shares: the DNN list, the
// per-layer profiles (PipeDream, engine/zoo) and the model constants the
// paper does not print (CATALOGUE Z-10), which every zhang experiment must
// state in its [params.constants] table.

// DNN is one DNN of an experiment: [[params.dnn]].
type DNN struct {
	// Name labels the DNN in the figure and in metric names.
	Name string
	// Input names the spec input holding its per-layer profile.
	Input string
	// Batch is the per-worker batch in examples; 0 keeps the profile's
	// batch. Layer times scale linearly with batch (an assumption).
	Batch int
}

// Constants are the syncps.Config constants zhang does not print.
// Every field must be given in the spec (NaN marks a missing one).
type Constants struct {
	PacketSize       float64 `toml:"packet_size"`        // pks, bytes
	Alpha            float64 `toml:"alpha"`              // α of Eq. 10, wire bytes per payload byte
	BaseDelay        float64 `toml:"base_delay"`         // t_base-delay of Eq. 10, s
	SwitchRate       float64 `toml:"switch_rate"`        // S_f of Eq. 11, packets/s
	Hops             float64 `toml:"hops"`               // h of Eq. 12
	AggFixed         float64 `toml:"agg_fixed"`          // a of Eq. 14, s
	AggPerPacket     float64 `toml:"agg_per_packet"`     // b of Eq. 14, s/packet
	AggDelayFraction float64 `toml:"agg_delay_fraction"` // place of t_ag-delay in [min, max] of Eq. 15–16
	Sigma            float64 `toml:"sigma"`              // σ of Eq. 7, s
	Iterations       float64 `toml:"iterations"`         // M iterations averaged over
	IOTime           float64 `toml:"io_time"`            // t_io, s
	UpdateTime       float64 `toml:"update_time"`        // t_up, s
	CompressionCost  float64 `toml:"compression_cost"`   // κ of t_c(r_c), s/byte
}

func UnsetConstants() Constants {
	n := math.NaN()
	return Constants{n, n, n, n, n, n, n, n, n, n, n, n, n}
}

// Config returns a syncps.Config with the constants c, or an error naming
// the first missing or non-integral one.
func (c Constants) Config(env *experiment.Env) (syncps.Config, error) {
	named := []struct {
		key string
		v   float64
	}{{"packet_size", c.PacketSize}, {"alpha", c.Alpha}, {"base_delay", c.BaseDelay}, {"switch_rate", c.SwitchRate},
		{"hops", c.Hops}, {"agg_fixed", c.AggFixed}, {"agg_per_packet", c.AggPerPacket},
		{"agg_delay_fraction", c.AggDelayFraction}, {"sigma", c.Sigma}, {"iterations", c.Iterations},
		{"io_time", c.IOTime}, {"update_time", c.UpdateTime}, {"compression_cost", c.CompressionCost}}
	for _, f := range named {
		if math.IsNaN(f.v) {
			return syncps.Config{}, env.Errorf("constants", "constants.%s is missing: every constant zhang does not print must be stated (CATALOGUE Z-10)", f.key)
		}
	}
	if c.Hops != math.Trunc(c.Hops) || c.Iterations != math.Trunc(c.Iterations) || math.Abs(c.Iterations) > 1e6 || math.Abs(c.Hops) > 1e6 {
		return syncps.Config{}, env.Errorf("constants", "constants.hops %v and constants.iterations %v must be whole numbers ≤ 1e6", c.Hops, c.Iterations)
	}
	cfg := syncps.DefaultConfig()
	cfg.PacketSize, cfg.Alpha, cfg.BaseDelay, cfg.SwitchRate = c.PacketSize, c.Alpha, c.BaseDelay, c.SwitchRate
	cfg.Hops, cfg.Iterations = int(c.Hops), int(c.Iterations)
	cfg.AggFixed, cfg.AggPerPacket, cfg.AggDelayFraction, cfg.Sigma = c.AggFixed, c.AggPerPacket, c.AggDelayFraction, c.Sigma
	cfg.IOTime, cfg.UpdateTime, cfg.CompressionCost = c.IOTime, c.UpdateTime, c.CompressionCost
	// Validate the constants now, so the error points at the spec; the
	// bandwidth and layers are set by each kind.
	probe := cfg
	probe.Bandwidth, probe.Layers = 1, []syncps.Layer{{Name: "probe"}}
	if err := probe.Validate(); err != nil {
		return syncps.Config{}, env.Errorf("constants", "%v", err)
	}
	return cfg, nil
}

// Common is the part of [params] every zhang kind reads.
type Common struct {
	DNN []DNN `toml:"dnn"`
	// GPUSpeed is the compute capability of the simulated GPU relative to
	// the profiled one (dimensionless): layer times are divided by it.
	GPUSpeed  float64 `toml:"gpu_speed"`
	Constants Constants
}

// Model is a DNN ready for syncps: layers at the experiment's batch.
type Model struct {
	Name   string
	Batch  int
	Layers []syncps.Layer
}

// ComputeSeconds is Σ (forward + backward) at the model's batch on the
// profiled device, in seconds.
func (m Model) ComputeSeconds() float64 {
	var s float64
	for _, l := range m.Layers {
		s += l.Forward + l.Backward
	}
	return s
}

// ParamBytes is the model's gradient size in bytes.
func (m Model) ParamBytes() int64 {
	var s int64
	for _, l := range m.Layers {
		s += l.ParamBytes
	}
	return s
}

// Load validates the common params, reads the DNN profiles and returns
// them with the base syncps.Config (constants and compute scale set;
// workers, servers, bandwidth and layers are left to the kind).
func (c *Common) Load(env *experiment.Env) ([]Model, syncps.Config, error) {
	if len(c.DNN) == 0 {
		return nil, syncps.Config{}, env.Errorf("dnn", "no [[params.dnn]] entries")
	}
	if !(c.GPUSpeed > 0) || math.IsInf(c.GPUSpeed, 0) {
		return nil, syncps.Config{}, env.Errorf("gpu_speed", "gpu_speed must be a positive number, got %v", c.GPUSpeed)
	}
	cfg, err := c.Constants.Config(env)
	if err != nil {
		return nil, syncps.Config{}, err
	}
	cfg.ComputeScale = c.GPUSpeed
	models := make([]Model, len(c.DNN))
	for i, d := range c.DNN {
		m, err := zhangProfile(env, d)
		if err != nil {
			return nil, syncps.Config{}, err
		}
		models[i] = m
	}
	return models, cfg, nil
}

// zhangProfile reads a DNN's per-layer profile and turns it into syncps
// layers in topological (forward) order, without the Input node, whose time
// is data loading (CATALOGUE §B.1.1); the experiments set t_io explicitly.
// Times are scaled linearly to d.Batch.
func zhangProfile(env *experiment.Env, d DNN) (Model, error) {
	if d.Name == "" || d.Input == "" {
		return Model{}, env.Errorf("dnn", "every [[params.dnn]] needs a name and an input")
	}
	if d.Batch < 0 {
		return Model{}, env.Errorf("dnn", "dnn %q: negative batch %d", d.Name, d.Batch)
	}
	prof, err := measured.Profile(env, d.Input)
	if err != nil {
		return Model{}, err
	}
	batch, scale := prof.Batch, 1.0
	if d.Batch > 0 {
		batch, scale = d.Batch, float64(d.Batch)/float64(prof.Batch)
	}
	m := Model{Name: d.Name, Batch: batch}
	for _, l := range prof.Layers {
		if l.IsInput() {
			continue
		}
		m.Layers = append(m.Layers, syncps.Layer{Name: l.Name, ParamBytes: l.ParamBytes, Forward: l.Forward * scale, Backward: l.Backward * scale})
	}
	if len(m.Layers) == 0 {
		return Model{}, env.Spec.Errorf([]string{"inputs", d.Input}, "dnn %q: profile has no layers besides the input", d.Name)
	}
	return m, nil
}

// Predict is syncps.Predict of cfg with its work counted on env
// (PredictWork).
func Predict(env *experiment.Env, cfg syncps.Config) (syncps.Prediction, error) {
	env.CountModelWork(PredictWork(cfg.Iterations, len(cfg.Layers)))
	return syncps.Predict(cfg)
}

// PredictWork is the model work of one syncps.Predict of a model of layers
// layers over iterations iterations (units of
// experiment.DefaultMaxModelWork): one per layer and iteration of its
// pipelines and one per iteration, about 28 ns each on one core (measured
// on a 100-layer model). syncps.Speedup costs twice as much. The zhang
// kinds estimate their work with it before predicting anything.
func PredictWork(iterations, layers int) float64 {
	return float64(max(iterations, 0)) * float64(layers+1)
}

// checkPredictions bounds a zhang kind's work before it predicts: units of
// model work (PredictWork summed over its predictions) and rows rows,
// metrics and notes of its result, against [limits] model_work, naming key.
func checkPredictions(env *experiment.Env, key []string, units, rows float64, what string) error {
	return env.CheckRows(key, units, rows, env.Spec.Kind+": "+what)
}

// gbps converts a link speed in Gbit/s to bytes/s.
func gbps(g float64) float64 { return g * 1e9 / 8 }

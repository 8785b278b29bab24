package beyond

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"pslab/engine/experiment"
	"pslab/engine/importer"
	"pslab/engine/measured"
	"pslab/engine/predict"
	"pslab/engine/zoo"
)

// tfbModels are the models of tf-benchmarks in drawing order; the MVA
// variants are metrics, the hybrid (mascots18's proposal) is drawn.
var tfbModels = []string{string(predict.Simulator), string(predict.MVAExact), string(predict.MVAApproximate),
	string(predict.MVAHybrid), string(predict.Cynthia), string(predict.Zhang)}

// tfbDrawn are the models drawn as bars.
var tfbDrawn = []predict.Model{predict.Simulator, predict.MVAHybrid, predict.Cynthia, predict.Zhang}

// tfbLabel is a model's legend entry: TensorFlow's parameter_server mode
// is synchronous, so Cynthia is its own BSP model and MVA (asynchronous
// only) is its asynchronous approximation.
func tfbLabel(m predict.Model) string {
	switch m {
	case predict.Cynthia:
		return "Cynthia (own BSP model)"
	case predict.Zhang:
		return "zhang (BSP)"
	case predict.Simulator:
		return "icpe20 simulator (BSP)"
	}
	return m.Label() + ", asynchronous"
}

// tfbParams are the [params] of a tf-benchmarks experiment.
type tfbParams struct {
	// Table is the input holding the benchmark table
	// (importer.TFBenchmarksSchema).
	Table string
	// Steps is the number of simulated steps per GPU, the first excluded
	// (Warmup = G completions): every run is deterministic and in BSP
	// lockstep, so every later step is the same.
	Steps int
	// Slowdowns is the grid predict.Host.Slowdown is fitted on, one
	// platform at a time (dimensionless, ≥ 1, ascending).
	Slowdowns []float64
	// Profiles maps a model name of the table to the input holding its
	// per-layer profile.
	Profiles map[string]string
	// Platforms maps a platform of the table to its node (host).
	Platforms map[string]tfbPlatform `toml:"platform"`
}

// tfbPlatform is one [params.platform.<name>]: its host's hardware
// specifications (predict.Host) and its name in figure labels.
type tfbPlatform struct {
	Label string
	// LinkBandwidth is one host link, bytes/s per direction.
	LinkBandwidth float64 `toml:"link_bandwidth"`
	// GPUsPerLink is how many GPUs share one host link.
	GPUsPerLink int `toml:"gpus_per_link"`
	// MemoryBandwidth is the host memory bandwidth, bytes/s.
	MemoryBandwidth float64 `toml:"memory_bandwidth"`
}

// host is the platform's predict.Host at slowdown s.
func (pl tfbPlatform) host(s float64) predict.Host {
	return predict.Host{LinkBandwidth: pl.LinkBandwidth, GPUsPerLink: pl.GPUsPerLink, MemoryBandwidth: pl.MemoryBandwidth, Slowdown: s}
}

// tfbRow is one row of the table.
type tfbRow struct {
	index                   int // row in the table
	platform, model, data   string
	update                  string
	gpus, batch             int
	throughput              float64 // examples/s of the node
	table                   string  // the table's path, for errors
	calibrate, judged, skip bool
}

// String names the row in errors and notes: file, row and configuration.
func (r tfbRow) String() string {
	return fmt.Sprintf("%s row %d (%s, %s, batch %d per GPU, %s data, %s, G = %d)",
		r.table, r.index, r.platform, r.model, r.batch, r.data, r.update, r.gpus)
}

// tfbGroup is one (platform, model, batch, data) of parameter_server rows:
// its 1-GPU row, which every model is calibrated on, and the rows with
// more GPUs it predicts.
type tfbGroup struct {
	platform, model, data string
	batch                 int
	ref                   tfbRow
	rows                  []tfbRow
	profile               *zoo.Profile
}

// key names the group in notes.
func (g *tfbGroup) key() string {
	return fmt.Sprintf("%s %s b%d %s", g.platform, g.model, g.batch, g.data)
}

// tfBenchmarks predicts every parameter_server row of TensorFlow's
// single-node benchmark table (datasets/tf-benchmarks: one node of G GPUs,
// the variables on the host CPU) from its platform's, model's, batch's and
// data's 1-GPU row only, with every model, each calibrated on its own on
// that row (predict.CalibrateModel: the device speed at which the model
// reproduces it). Three variants, each a figure category per platform:
//
//   - before: the node as pslab modelled it before its own costs, one
//     worker of G GPUs (predict.NodeProfile: gradients reduced GPU to GPU
//     at predict.DefaultIntraBandwidth, one push and pull per tensor) with
//     its PS across one host link (the platform's link_bandwidth);
//   - spec: the node's own costs (predict.Host) at the hardware
//     specifications: G workers (BSP), the host CPU the one PS on a shared
//     processor (sum per byte and GPU, update per byte), the host path of
//     ⌈G/gpus_per_link⌉ links and the CPU's staging copies;
//   - lopo: the same with Host.Slowdown fitted on the other platform (the
//     grid value with the simulator's least mean |error| over that
//     platform's rows), never on the rows it is judged on.
//
// The simulator runs BSP in icpe20's fixed procedure (params.steps per
// GPU, the first step excluded; deterministic, so in lockstep), flow
// control off (DMA), FIFO; Cynthia its own BSP model; zhang (BSP); the
// MVA variants, which model asynchronous workers only, the asynchronous
// network of the same cluster. replicated_nccl rows (all-reduce, not a
// parameter server) are counted and excluded.
//
// Metrics (percent of |predicted − measured|/measured over the rows with
// more than one GPU): error.mean|max.<variant>.<platform|all>.<model>,
// iter_error.mean.<variant>.<platform>.zhang (zhang's iteration time
// G·batch/throughput, the quantity zhang states), within5.<variant>.
// <platform>.simulator (rows within 5%), slowdown.fit.<platform> and
// fit.error.mean.<platform> (fitted on that platform), calibration.max.
// <model> (largest |model − 1-GPU row| at the calibration point, %),
// rows.<platform> and rows.replicated_nccl.
func tfBenchmarks(ctx context.Context, env *experiment.Env) (*experiment.Result, error) {
	var p tfbParams
	if err := env.Params(&p); err != nil {
		return nil, err
	}
	if err := p.check(env); err != nil {
		return nil, err
	}
	groups, replicated, err := p.load(env)
	if err != nil {
		return nil, err
	}
	var models []predict.Model
	for _, m := range tfbModels {
		if env.UsesModel(m) {
			models = append(models, predict.Model(m))
		}
	}
	run := &tfbRun{p: &p, env: env, groups: groups, models: models, res: experiment.NewResult(), calib: map[predict.Model]float64{}}
	if err := env.CheckEvents(run.events(), "table rows × (variants + slowdowns)"); err != nil {
		return nil, err
	}
	units, rows := run.modelWork()
	if err := env.CheckRows([]string{"params", "slowdowns"}, units, rows, "tf-benchmarks: table rows × models × (variants + slowdowns)"); err != nil {
		return nil, err
	}
	run.res.Metric("rows.replicated_nccl", float64(replicated))
	if err := run.all(ctx); err != nil {
		return nil, err
	}
	return run.res, nil
}

// check validates the parameters.
func (p *tfbParams) check(env *experiment.Env) error {
	if p.Steps < 2 {
		return env.Errorf("steps", "%d simulated steps per GPU, need ≥ 2 (the first is excluded)", p.Steps)
	}
	if len(p.Slowdowns) == 0 || !slices.IsSorted(p.Slowdowns) || p.Slowdowns[0] < 1 {
		return env.Errorf("slowdowns", "%v: need an ascending grid of values ≥ 1", p.Slowdowns)
	}
	if err := env.PositiveList("slowdowns", p.Slowdowns); err != nil {
		return err
	}
	if p.Table == "" || !env.HasInput(p.Table) {
		return env.Errorf("table", "%q is not an input", p.Table)
	}
	for name, pl := range p.Platforms {
		if _, err := pl.host(1).PathBandwidth(1); err != nil || pl.Label == "" {
			return env.Errorf("platform", "platform %q: label %q, %v (want a label and finite values ≥ 0, 0 for the defaults)", name, pl.Label, err)
		}
	}
	for m, in := range p.Profiles {
		if !env.HasInput(in) {
			return env.Errorf("profiles", "model %q: %q is not an input", m, in)
		}
	}
	for _, m := range env.Spec.Models {
		if !slices.Contains(tfbModels, m) {
			return env.Spec.Errorf([]string{"models"}, "unknown model %q (want %v)", m, tfbModels)
		}
	}
	return nil
}

// load reads the table, groups its parameter_server rows and loads each
// group's profile. A row with more GPUs whose group has no 1-GPU row, a
// platform without [params.platform] and a model without a profile are
// errors naming the table's file and row.
func (p *tfbParams) load(env *experiment.Env) ([]*tfbGroup, int, error) {
	path, err := env.InputPath(p.Table)
	if err != nil {
		return nil, 0, err
	}
	t, err := env.Input(p.Table, importer.TFBenchmarksSchema)
	if err != nil {
		return nil, 0, err
	}
	rel := env.Spec.Inputs[p.Table]
	plat, model, data := t.Strings("platform"), t.Strings("model"), t.Strings("data")
	upd, gpus, batch, x := t.Strings("variable_update"), t.Ints("gpus"), t.Ints("batch_per_gpu"), t.Floats("throughput")
	var groups []*tfbGroup
	byKey := map[string]*tfbGroup{}
	profiles := map[string]*zoo.Profile{}
	replicated := 0
	for i := range t.Len() {
		r := tfbRow{index: i, platform: plat[i], model: model[i], data: data[i], update: upd[i], gpus: int(gpus[i]),
			batch: int(batch[i]), throughput: x[i], table: rel}
		if r.update != "parameter_server" {
			if r.update == "replicated_nccl" {
				replicated++
			}
			continue
		}
		if !(r.throughput > 0) {
			return nil, 0, fmt.Errorf("%s: throughput %g examples/s, need > 0", r, r.throughput)
		}
		if _, ok := p.Platforms[r.platform]; !ok {
			return nil, 0, fmt.Errorf("%s: no [params.platform.%q] describes this platform's node (known: %s)", r, r.platform, strings.Join(sortedKeys(p.Platforms), ", "))
		}
		in, ok := p.Profiles[r.model]
		if !ok {
			return nil, 0, fmt.Errorf("%s: no per-layer profile for model %q in [params.profiles] (known: %s)", r, r.model, strings.Join(sortedKeys(p.Profiles), ", "))
		}
		if profiles[r.model] == nil {
			if profiles[r.model], err = measured.Profile(env, in); err != nil {
				return nil, 0, err
			}
		}
		key := fmt.Sprintf("%s|%s|%d|%s", r.platform, r.model, r.batch, r.data)
		g := byKey[key]
		if g == nil {
			g = &tfbGroup{platform: r.platform, model: r.model, data: r.data, batch: r.batch, profile: profiles[r.model]}
			byKey[key] = g
			groups = append(groups, g)
		}
		if r.gpus == 1 {
			g.ref = r
			continue
		}
		g.rows = append(g.rows, r)
	}
	if len(groups) == 0 {
		return nil, 0, fmt.Errorf("%s: no parameter_server rows", path)
	}
	for _, g := range groups {
		if g.ref.gpus != 1 {
			return nil, 0, fmt.Errorf("%s: no 1-GPU parameter_server row of this platform, model, batch and data to calibrate on", g.rows[0])
		}
		slices.SortFunc(g.rows, func(a, b tfbRow) int { return a.gpus - b.gpus })
	}
	return groups, replicated, nil
}

// sortedKeys returns the keys of m in order.
func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

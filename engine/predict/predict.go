package predict

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"pslab/engine/mva"
	"pslab/engine/sim"
	"pslab/engine/trace"
	"pslab/engine/zoo"
)

// Model names one prediction model.
type Model string

// The models a prediction runs.
const (
	// Simulator is the icpe20 trace-driven simulator (engine/sim).
	Simulator Model = "simulator"
	// MVAExact, MVAApproximate and MVAHybrid are Lin et al.'s (mascots18)
	// exact, approximate and hybrid MVA on the tcpdump phases (Coarse).
	MVAExact       Model = "mva-exact"
	MVAApproximate Model = "mva-approximate"
	MVAHybrid      Model = "mva-hybrid"
	// Cynthia is Cynthia's formula as restated by icpe20 (cynthia.ICPE)
	// under ASP, and Cynthia's own BSP model (cynthia.ModelCynthia) under
	// BSP.
	Cynthia Model = "cynthia"
	// Zhang is Zhang et al.'s synchronous PS model (engine/syncps), BSP
	// only, from a per-layer profile.
	Zhang Model = "zhang"
)

// AllModels returns every model in presentation order.
func AllModels() []Model {
	return []Model{Simulator, MVAExact, MVAApproximate, MVAHybrid, Cynthia, Zhang}
}

// Defines reports whether model m defines synchronization mode y: the
// simulator and Cynthia define both, MVA only ASP (Lin et al. model
// asynchronous workers), zhang only BSP.
func (m Model) Defines(y sim.Sync) bool {
	switch {
	case m == Zhang:
		return y == sim.BSP
	case m == Simulator, m == Cynthia:
		return true
	}
	return y == sim.ASP
}

// undefinedWhy says why m does not define synchronization mode y, as a
// note beside the n/a cells where "asp only" alone would leave the reader
// asking (MVA under bsp), else "".
func (m Model) undefinedWhy(y sim.Sync) string {
	switch _, isMVA := m.variant(); {
	case m.Defines(y):
		return ""
	case isMVA:
		return "MVA n/a under bsp: Lin et al.'s model is a closed product-form network of independent workers " +
			"(mascots18 Sect. III, Fig. 6); a barrier per step is a fork-join synchronization, which has no product form, so exact " +
			"MVA does not apply and pslab implements no fork-join approximation (e.g. Varki's, 1999, unvalidated here); " +
			"the simulator, Cynthia's own BSP model and zhang cover bsp"
	}
	return "" // zhang under asp: "bsp only" says it (one barrier per iteration is its model)
}

// ParseModels parses a comma-separated list of model names.
func ParseModels(s string) ([]Model, error) {
	var out []Model
	for _, f := range strings.Split(s, ",") {
		m := Model(strings.TrimSpace(f))
		if !slices.Contains(AllModels(), m) {
			return nil, fmt.Errorf("unknown model %q (want %v)", m, AllModels())
		}
		if slices.Contains(out, m) {
			return nil, fmt.Errorf("model %q named twice", m)
		}
		out = append(out, m)
	}
	return out, nil
}

// variant is the MVA variant of an MVA model.
func (m Model) variant() (mva.Variant, bool) {
	switch m {
	case MVAExact:
		return mva.Exact, true
	case MVAApproximate:
		return mva.Approximate, true
	case MVAHybrid:
		return mva.Hybrid, true
	}
	return 0, false
}

// Curve is one model's predicted throughput, examples/s of the whole
// cluster, at each of Prediction.Workers.
type Curve struct {
	Model      Model
	Throughput []float64 // examples/s of the cluster, per worker count
	// Lo and Hi bound each point's 95% confidence interval, examples/s:
	// the simulator's converged estimate (sim.Estimate); nil for the
	// analytical models and for the simulator under Cluster.Paper.
	Lo, Hi []float64
	// Converged reports per point whether the simulator's estimate
	// reached Cluster.Precision's target (nil as Lo).
	Converged []bool
	// Replications and Steps say how each point was obtained: independent
	// replications of Steps steps per worker each (nil as Lo).
	Replications, Steps []int
	// Modes are the operating modes of each point when its replications
	// suggest more than one (sim.Estimate.Modes), else nil (nil as Lo).
	Modes [][]sim.OperatingMode
}

// Unavailable is a model asked for that has no curve, and why (printed in
// every row of every output format as "n/a (<Reason>)").
type Unavailable struct {
	Model  Model
	Reason string
}

// Prediction is the throughput of one cluster predicted by several models.
type Prediction struct {
	// Workers are the predicted worker counts W (nodes), ascending.
	Workers []int
	// Batch is the examples per worker (node) step: GPUs × the per-GPU
	// batch.
	Batch int
	// GPUs is the GPUs per worker node G (≥ 1); per-GPU throughput is
	// throughput / (W·G).
	GPUs int
	// Sync is the synchronization mode predicted.
	Sync sim.Sync
	// Servers is the number of parameter servers M (0 with Colocated: M
	// is W).
	Servers int
	// Colocated is true when each worker node holds one PS shard.
	Colocated bool
	// Bandwidth is the link bandwidth, bytes/s.
	Bandwidth float64
	// Coarse holds the coarse-model inputs read from the trace; HasCoarse
	// is false when they were not computed (see Unavailable). With
	// Colocated they are those of the first W.
	Coarse    Coarse
	HasCoarse bool
	// Reading is the phase reading MVA was given.
	Reading PhaseReading
	// LinkBound is batch · bandwidth / bytes per step through the busiest
	// PS NIC, examples/s (+Inf when unknown or Colocated).
	LinkBound float64
	// Models are the models asked for, in order; each has a Curve or an
	// Unavailable entry.
	Models []Model
	// Curves are the models' predictions, in the order asked for.
	Curves []Curve
	// Unavailable are the models asked for that have no curve.
	Unavailable []Unavailable
	// Sim are the simulator's runs under Cluster.Paper, one per worker
	// count (nil without the simulator or without Paper).
	Sim []sim.Result
	// Estimates are the simulator's converged estimates, one per worker
	// count (nil without the simulator or under Paper).
	Estimates []sim.Estimate
	// Notes are remarks on the inputs.
	Notes []string
}

// Curve returns the throughput of model m, if it was predicted.
func (p *Prediction) Curve(m Model) ([]float64, bool) {
	for _, c := range p.Curves {
		if c.Model == m {
			return c.Throughput, true
		}
	}
	return nil, false
}

// curve returns the curve of model m, if it was predicted.
func (p *Prediction) curve(m Model) (*Curve, bool) {
	for i := range p.Curves {
		if p.Curves[i].Model == m {
			return &p.Curves[i], true
		}
	}
	return nil, false
}

// models are p.Models, or the models of p.Curves for a Prediction built
// without them.
func (p *Prediction) models() []Model {
	if p.Models != nil {
		return p.Models
	}
	var ms []Model
	for _, c := range p.Curves {
		ms = append(ms, c.Model)
	}
	return ms
}

// gpus is p.GPUs, at least 1.
func (p *Prediction) gpus() int { return max(p.GPUs, 1) }

// Why returns the reason model m has no curve ("" if it has one).
func (p *Prediction) Why(m Model) string {
	for _, u := range p.Unavailable {
		if u.Model == m {
			return u.Reason
		}
	}
	return ""
}

// Run predicts the throughput of cluster c for each worker count in
// workers (ascending, ≥ 1) from tr, the 1-worker profiling trace (recorded,
// or synthesized by c.Synthesize), with each model in models that defines
// c.Sync (the others are Unavailable, "asp only" or "bsp only"):
//
//   - Simulator: a converged estimate per worker count (sim.Estimate at
//     c.Precision: replications until the 95% interval is within its
//     target), at c's bandwidth, link, batch, seed and sync (BSP: sim's
//     barrier mode); with c.Paper, one sim.Sweep run per worker count
//     with icpe20's fixed procedure (c.Steps, c.Warmup).
//   - MVA models (ASP): mva.Curve on FromTrace's phases (c.Reading,
//     AutoReading is TcpdumpReading here) with
//     M PSs (mva.Phases.WithServers), times the batch. The tcpdump
//     reading is of one PS link, so it is Unavailable with M > 1.
//   - Cynthia: ASP, cynthia.ICPE from FromTrace's T_p, T_C and U_1 (with
//     OpReading, T_C and U_1 over the M PS NICs, Cynthia's Σ b_ps); BSP,
//     cynthia.ModelCynthia (cynthiaBSP).
//   - Zhang (BSP): syncps on per-layer inputs derived from the trace
//     (zhangLayers: a layer per parameter tensor, forward and backward
//     time as recorded), at c's bandwidth; from a profile (RunProfile),
//     on the profile's layers.
//
// The coarse models read their inputs from the trace as recorded, so they
// describe the trace's own bandwidth: when c.Bandwidth differs from
// tr.Meta.Bandwidth they are Unavailable, "trace at <its> Gbit/s" (synthesize the profile at
// c.Bandwidth instead). A trace the coarse models cannot read (FromTrace's
// errors) is an error when one of them is asked for.
func Run(tr *trace.Trace, c Cluster, workers []int, models []Model) (*Prediction, error) {
	return run(tr, c, workers, models, nil)
}

// run is Run with the per-layer profile zhang needs (nil for a recorded
// trace).
func run(tr *trace.Trace, c Cluster, workers []int, models []Model, prof *zoo.Profile) (*Prediction, error) {
	if err := checkWorkers(workers); err != nil {
		return nil, err
	}
	if len(models) == 0 {
		return nil, fmt.Errorf("predict: no models")
	}
	bw := c.Bandwidth
	if bw == 0 {
		bw = tr.Meta.Bandwidth
	}
	if !(bw > 0) || math.IsInf(bw, 0) {
		return nil, fmt.Errorf("predict: bandwidth %g bytes/s (trace records %g), need > 0", c.Bandwidth, tr.Meta.Bandwidth)
	}
	if c.Reading == AutoReading {
		c.Reading = TcpdumpReading
	}
	p := &Prediction{Workers: workers, Batch: c.Batch, GPUs: max(c.GPUsPerNode, 1), Sync: c.Sync, Servers: max(tr.Meta.Servers, 1),
		Bandwidth: bw, LinkBound: math.Inf(1), Models: models, Reading: c.Reading}
	if p.Batch == 0 {
		p.Batch = tr.Meta.Batch
	}
	if p.Batch < 1 {
		return nil, fmt.Errorf("predict: batch %d examples (trace records %d), need ≥ 1", c.Batch, tr.Meta.Batch)
	}
	coarse := slices.ContainsFunc(models, func(m Model) bool { return m != Simulator && m.Defines(c.Sync) })
	if co, err := FromTrace(tr); err == nil {
		p.LinkBound = co.LinkBound(p.Batch, bw)
		p.Coarse, p.HasCoarse = co, bw == tr.Meta.Bandwidth
	} else if coarse {
		return nil, err
	}
	phases := p.Coarse.Phases
	if c.Reading == OpReading {
		phases = p.Coarse.OpPhases
	}
	for _, m := range models {
		var y []float64
		var err error
		na := func(format string, a ...any) {
			p.Unavailable = append(p.Unavailable, Unavailable{Model: m, Reason: fmt.Sprintf(format, a...)})
		}
		switch v, isMVA := m.variant(); {
		case !m.Defines(c.Sync):
			na("%s only", map[sim.Sync]string{sim.ASP: "bsp", sim.BSP: "asp"}[c.Sync])
			if why := m.undefinedWhy(c.Sync); why != "" && !slices.Contains(p.Notes, why) {
				p.Notes = append(p.Notes, why)
			}
			continue
		case m == Simulator && c.Paper:
			if p.Sim, err = sim.Sweep(tr, c.simConfig(), workers); err != nil {
				return nil, fmt.Errorf("predict: simulator: %w", err)
			}
			for _, r := range p.Sim {
				y = append(y, r.Throughput)
			}
		case m == Simulator:
			pr, err := sim.Compile(tr)
			if err != nil {
				return nil, fmt.Errorf("predict: simulator: %w", err)
			}
			if p.Estimates, err = pr.EstimateSweep(c.simConfig(), c.Precision, workers); err != nil {
				return nil, fmt.Errorf("predict: simulator: %w", err)
			}
			cv := Curve{Model: m}
			for _, e := range p.Estimates {
				cv.Throughput, cv.Lo, cv.Hi = append(cv.Throughput, e.Throughput), append(cv.Lo, e.Lo), append(cv.Hi, e.Hi)
				cv.Converged = append(cv.Converged, e.Converged)
				cv.Replications, cv.Steps = append(cv.Replications, e.Replications), append(cv.Steps, e.Steps)
				cv.Modes = append(cv.Modes, e.Modes)
			}
			p.Curves = append(p.Curves, cv)
			continue
		case m == Zhang && prof == nil: // a recorded trace: its per-layer inputs derived (zhangLayers)
			layers, err := zhangLayers(tr)
			if err != nil {
				na("no per-layer inputs in the trace: %v", err)
				continue
			}
			if y, err = zhangOn(layers, 1, p.Batch, c, p.Servers, bw, workers); err != nil {
				return nil, fmt.Errorf("predict: %s: %w", m.LabelFor(c.Sync), err)
			}
		case !p.HasCoarse:
			na("trace at %.4g Gbit/s", tr.Meta.Bandwidth*8/1e9)
			continue
		case isMVA && p.Servers > 1 && c.Reading == TcpdumpReading:
			na("tcpdump phases are of one PS; the trace has %d", p.Servers)
			continue
		case isMVA:
			x, err := mva.Curve(phases, workers[len(workers)-1], p.Servers, v)
			if err != nil {
				return nil, fmt.Errorf("predict: %s: %w", m.LabelFor(c.Sync), err)
			}
			for _, w := range workers {
				y = append(y, float64(p.Batch)*x[w-1])
			}
		case m == Cynthia && c.Sync == sim.BSP:
			cprof := 0.0 // the PS CPU never limits: each worker has its own share (icpe20)
			if c.SharedPS && p.Coarse.Step > 0 {
				cprof = p.Coarse.OpPhases.Server / p.Coarse.Step
			}
			if y, err = cynthiaBSP(p.Coarse, p.Batch, p.Servers, bw, cprof, workers); err != nil {
				return nil, fmt.Errorf("predict: %s: %w", m.LabelFor(c.Sync), err)
			}
			if g := p.Coarse.Tc * bw; g > 0 { // Cynthia's own knee (Fig. 3, Eq. 19's balance)
				p.Notes = append(p.Notes, fmt.Sprintf("Cynthia BSP's own knee: computation T_p = communication 2·g·W/(M·B) at W* = %.4g",
					p.Coarse.Tp*float64(p.Servers)*bw/(2*g)))
			}
		case m == Cynthia:
			cy := p.Coarse.Cynthia(p.Batch)
			if c.Reading == OpReading { // Cynthia's Σ b_ps over the M PS NICs
				cy.Tc, cy.U1 = cy.Tc/float64(p.Servers), cy.U1/float64(p.Servers)
			}
			for _, w := range workers {
				x, err := cy.Throughput(w)
				if err != nil {
					return nil, fmt.Errorf("predict: %s: %w", m.LabelFor(c.Sync), err)
				}
				y = append(y, x)
			}
		case m == Zhang:
			if y, err = zhang(prof, c, p.Servers, bw, workers); err != nil {
				return nil, fmt.Errorf("predict: %s: %w", m.LabelFor(c.Sync), err)
			}
		default:
			return nil, fmt.Errorf("predict: unknown model %q", m)
		}
		p.Curves = append(p.Curves, Curve{Model: m, Throughput: y})
	}
	return p, nil
}

// checkWorkers requires ascending worker counts ≥ 1.
func checkWorkers(ws []int) error {
	if len(ws) == 0 {
		return fmt.Errorf("predict: no worker counts")
	}
	for i, w := range ws {
		if w < 1 || (i > 0 && w <= ws[i-1]) {
			return fmt.Errorf("predict: workers %v: want ascending integers ≥ 1", ws)
		}
	}
	return nil
}

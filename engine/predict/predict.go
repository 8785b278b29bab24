package predict

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"pslab/engine/mva"
	"pslab/engine/sim"
	"pslab/engine/trace"
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
	// Cynthia is Cynthia's formula as restated by icpe20 (cynthia.ICPE).
	Cynthia Model = "cynthia"
)

// AllModels returns every model in presentation order.
func AllModels() []Model {
	return []Model{Simulator, MVAExact, MVAApproximate, MVAHybrid, Cynthia}
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

// Label is the model's legend name, as the icpe20-throughput experiments
// write it.
func (m Model) Label() string {
	if _, ok := m.variant(); ok {
		return fmt.Sprintf("Lin et al. MVA (%s)", strings.TrimPrefix(string(m), "mva-"))
	}
	switch m {
	case Simulator:
		return "icpe20 simulator"
	case Cynthia:
		return "Cynthia (icpe20 restatement)"
	}
	return string(m)
}

// Tag is the model's name in result tables (dataset.ResultSchema's model
// column), as the icpe20-throughput experiments write it.
func (m Model) Tag() string {
	if _, ok := m.variant(); ok {
		return "mascots18-" + string(m)
	}
	if m == Simulator {
		return "icpe20-simulator"
	}
	return string(m)
}

// Curve is one model's predicted throughput, examples/s, at each of
// Prediction.Workers.
type Curve struct {
	Model      Model
	Throughput []float64
}

// Prediction is the throughput of one cluster predicted by several models.
type Prediction struct {
	// Workers are the predicted worker counts W, ascending.
	Workers []int
	// Batch is the examples per worker step.
	Batch int
	// Servers is the number of parameter servers M.
	Servers int
	// Bandwidth is the simulated link bandwidth, bytes/s.
	Bandwidth float64
	// Coarse holds the coarse-model inputs read from the trace; HasCoarse
	// is false when they were not computed (see Notes).
	Coarse    Coarse
	HasCoarse bool
	// LinkBound is batch · bandwidth / bytes per step through the busiest
	// PS NIC, examples/s (+Inf when unknown).
	LinkBound float64
	// Curves are the models' predictions, in the order asked for.
	Curves []Curve
	// Sim are the simulator's runs, one per worker count (nil without the
	// simulator).
	Sim []sim.Result
	// Notes say which models were left out and why.
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

// Run predicts the throughput of cluster c for each worker count in
// workers (ascending, ≥ 1) from tr, the 1-worker profiling trace (recorded,
// or synthesized by c.Synthesize), with each model in models:
//
//   - Simulator: sim.Sweep at c's bandwidth, link, batch, steps, warm-up
//     and seed.
//   - MVA models: mva.Curve on FromTrace's tcpdump phases, times the
//     batch; 1 PS only (mascots18's phases are of one PS).
//   - Cynthia: cynthia.ICPE from FromTrace's T_p, T_C and U_1.
//
// The coarse models read their inputs from the trace as recorded, so they
// describe the trace's own bandwidth: when c.Bandwidth differs from
// tr.Meta.Bandwidth they are left out with a note (synthesize the profile
// at c.Bandwidth instead), as the MVA models are with M > 1. A trace the
// coarse models cannot read (FromTrace's errors) is an error when one of
// them is asked for.
func Run(tr *trace.Trace, c Cluster, workers []int, models []Model) (*Prediction, error) {
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
	p := &Prediction{Workers: workers, Batch: c.Batch, Servers: max(tr.Meta.Servers, 1), Bandwidth: bw, LinkBound: math.Inf(1)}
	if p.Batch == 0 {
		p.Batch = tr.Meta.Batch
	}
	if p.Batch < 1 {
		return nil, fmt.Errorf("predict: batch %d examples (trace records %d), need ≥ 1", c.Batch, tr.Meta.Batch)
	}
	coarse := slices.ContainsFunc(models, func(m Model) bool { return m != Simulator })
	if co, err := FromTrace(tr); err == nil {
		p.LinkBound = co.LinkBound(p.Batch, bw)
		p.Coarse, p.HasCoarse = co, bw == tr.Meta.Bandwidth
	} else if coarse {
		return nil, err
	}
	for _, m := range models {
		var y []float64
		var err error
		switch v, isMVA := m.variant(); {
		case m == Simulator:
			if p.Sim, err = sim.Sweep(tr, c.simConfig(), workers); err != nil {
				return nil, fmt.Errorf("predict: simulator: %w", err)
			}
			for _, r := range p.Sim {
				y = append(y, r.Throughput)
			}
		case !p.HasCoarse:
			p.Notes = append(p.Notes, fmt.Sprintf("%s left out: its inputs are read from the trace, recorded at %.4g Gbit/s, not %.4g Gbit/s",
				m.Label(), tr.Meta.Bandwidth*8/1e9, bw*8/1e9))
			continue
		case isMVA && p.Servers > 1:
			p.Notes = append(p.Notes, fmt.Sprintf("%s left out: Lin et al.'s phases are of one PS (the trace has %d)", m.Label(), p.Servers))
			continue
		case isMVA:
			x, err := mva.Curve(p.Coarse.Phases, workers[len(workers)-1], 1, v)
			if err != nil {
				return nil, fmt.Errorf("predict: %s: %w", m.Label(), err)
			}
			for _, w := range workers {
				y = append(y, float64(p.Batch)*x[w-1])
			}
		case m == Cynthia:
			cy := p.Coarse.Cynthia(p.Batch)
			for _, w := range workers {
				x, err := cy.Throughput(w)
				if err != nil {
					return nil, fmt.Errorf("predict: %s: %w", m.Label(), err)
				}
				y = append(y, x)
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

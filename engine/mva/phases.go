package mva

import (
	"fmt"
	"math"
)

// Phases is the 1-worker, 1-server profile of one SGD step (mascots18 §III-A,
// Fig. 4), in seconds per step.
type Phases struct {
	// Worker is S^W, gradient computation at the worker.
	Worker float64
	// Uplink is S^U, gradient transmission worker → parameter server.
	Uplink float64
	// Server is S^S, gradient application at the parameter server.
	Server float64
	// Downlink is S^D, parameter transmission parameter server → worker.
	Downlink float64
}

// Validate reports a negative, NaN or infinite phase, or a zero cycle.
func (p Phases) Validate() error {
	for _, f := range []struct {
		name string
		v    float64
	}{{"Worker", p.Worker}, {"Uplink", p.Uplink}, {"Server", p.Server}, {"Downlink", p.Downlink}} {
		if math.IsNaN(f.v) || math.IsInf(f.v, 0) || f.v < 0 {
			return fmt.Errorf("mva: phases: %s: invalid time %v s", f.name, f.v)
		}
	}
	if p.Cycle() == 0 {
		return fmt.Errorf("mva: phases: all times are zero")
	}
	return nil
}

// Cycle is S^W + S^U + S^S + S^D, the 1-worker step time in seconds.
func (p Phases) Cycle() float64 { return p.Worker + p.Uplink + p.Server + p.Downlink }

// WithServers returns the profile for m parameter servers (mascots18 §VII):
// Uplink, Server and Downlink divided by m, Worker unchanged. This assumes a
// uniform split of the parameters and synchronous server completions
// (CATALOGUE M-16). It returns an error if m < 1.
func (p Phases) WithServers(m int) (Phases, error) {
	if m < 1 {
		return Phases{}, fmt.Errorf("mva: servers: %d < 1", m)
	}
	f := float64(m)
	return Phases{Worker: p.Worker, Uplink: p.Uplink / f, Server: p.Server / f, Downlink: p.Downlink / f}, nil
}

// Variant names a mascots18 throughput model of the Fig. 6 network.
type Variant int

const (
	// Exact is exact MVA (Eq. 1) with PS uplink and downlink (Fig. 7
	// yellow line).
	Exact Variant = iota
	// Approximate is MVA with deterministic FCFS uplink and downlink
	// (Eq. 2; Fig. 7 green line).
	Approximate
	// Hybrid is Eq. 3–4 at the links with g on the total link utilization
	// at arrival, Σ_j ρ_j(n−e_k) (CATALOGUE M-7).
	Hybrid
	// HybridPerClass is Eq. 3–4 with g on the per-class utilization
	// ρ_k(n), as printed, solved as a fixed point at each n.
	HybridPerClass
	// HybridFixedPoint is Eq. 3–4 with g on the total link utilization
	// ρ(n), solved as a fixed point at each n.
	HybridFixedPoint
	// Schweitzer is the Exact network solved with Bard–Schweitzer
	// approximate MVA, one fixed point per worker count.
	Schweitzer
)

// String returns the variant's name.
func (v Variant) String() string {
	switch v {
	case Exact:
		return "Exact"
	case Approximate:
		return "Approximate"
	case Hybrid:
		return "Hybrid"
	case HybridPerClass:
		return "HybridPerClass"
	case HybridFixedPoint:
		return "HybridFixedPoint"
	case Schweitzer:
		return "Schweitzer"
	}
	return fmt.Sprintf("Variant(%d)", int(v))
}

// Station indices of the network built by Network and used by Curve.
const (
	WorkerStation   = 0 // "W", Delay (IS), S^W
	UplinkStation   = 1 // "U", link, S^U
	ServerStation   = 2 // "S", FCFS, S^S
	DownlinkStation = 3 // "D", link, S^D
)

// setup returns the link kind and the options fields a variant fixes.
func (v Variant) setup(opt Options) (Kind, Options, error) {
	switch v {
	case Exact:
		return PS, opt, nil
	case Approximate:
		return DeterministicFCFS, opt, nil
	case Hybrid:
		opt.Argument = TotalAtArrival
		return HybridLink, opt, nil
	case HybridPerClass:
		opt.Argument = ClassFixedPoint
		return HybridLink, opt, nil
	case HybridFixedPoint:
		opt.Argument = TotalFixedPoint
		return HybridLink, opt, nil
	case Schweitzer:
		opt.Method = BardSchweitzer
		return PS, opt, nil
	}
	return 0, opt, fmt.Errorf("mva: unknown variant %v", v)
}

func stationsFor(link Kind) []Station {
	return []Station{{Name: "W", Kind: Delay}, {Name: "U", Kind: link}, {Name: "S", Kind: FCFS}, {Name: "D", Kind: link}}
}

// Network builds the mascots18 Fig. 6 model: one class of population 1 per
// worker (possibly heterogeneous), a Delay station W (the K per-worker IS
// stations of Fig. 6 merged; equivalent for IS), links U and D whose kind
// depends on v, and the FCFS parameter server S, with the shared-station
// demands divided by servers (§VII). The returned Options select v's method
// and g argument; set Options.G to change g.
func Network(workers []Phases, servers int, v Variant) (Model, Options, error) {
	link, opt, err := v.setup(Options{})
	if err != nil {
		return Model{}, Options{}, err
	}
	if len(workers) == 0 {
		return Model{}, Options{}, fmt.Errorf("mva: network: no workers")
	}
	m := Model{Stations: stationsFor(link), Classes: make([]Class, len(workers))}
	for k, p := range workers {
		if err := p.Validate(); err != nil {
			return Model{}, Options{}, fmt.Errorf("worker %d: %w", k+1, err)
		}
		q, err := p.WithServers(servers)
		if err != nil {
			return Model{}, Options{}, err
		}
		m.Classes[k] = Class{Name: fmt.Sprintf("worker %d", k+1), Population: 1,
			Demands: []float64{q.Worker, q.Uplink, q.Server, q.Downlink}}
	}
	return m, opt, nil
}

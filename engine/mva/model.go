package mva

import (
	"fmt"
	"math"
)

// Kind is a station's service discipline; it selects the MVA equation used
// for the station's response time. The zero Kind is invalid, so a station
// whose kind was forgotten is reported rather than silently treated as Delay.
type Kind int

const (
	// Delay is an infinite-server (IS) station: T = S (Eq. 1, IS case).
	// mascots18 worker nodes are Delay stations.
	Delay Kind = iota + 1
	// PS is a processor-sharing station: T_k = S_k·[1 + Σ_j N_j(n−e_k)]
	// (Eq. 1). mascots18 Fig. 6 uplink and downlink.
	PS
	// FCFS is a first-come first-served station with exponential service,
	// solved with the same Eq. 1 as PS. mascots18 parameter server.
	FCFS
	// DeterministicFCFS is an FCFS station with deterministic service,
	// solved with Reiser's approximation (mascots18 Eq. 2):
	// T_k = S_k + Σ_j S_j·[N_j(n−e_k) − ½·ρ_j(n−e_k)].
	DeterministicFCFS
	// HybridLink is a link that behaves as deterministic FCFS at light load
	// and as PS at heavy load (mascots18 Eq. 3):
	// T_k = γ·T_k^PS + (1−γ)·T_k^FCFS, with γ = g(ρ) from Options.G and the
	// utilization argument chosen by Options.Argument.
	HybridLink
)

// String returns the kind's name.
func (k Kind) String() string {
	switch k {
	case Delay:
		return "Delay"
	case PS:
		return "PS"
	case FCFS:
		return "FCFS"
	case DeterministicFCFS:
		return "DeterministicFCFS"
	case HybridLink:
		return "HybridLink"
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

func (k Kind) valid() bool { return k >= Delay && k <= HybridLink }

// Station is one service centre of a closed queueing network.
type Station struct {
	// Name identifies the station in errors and reports (e.g. "U").
	Name string
	// Kind is the discipline; it must be set.
	Kind Kind
}

// Class is one closed chain of customers. Every class visits every station
// once per cycle (visit ratio 1, as in mascots18 Fig. 6); a zero demand
// means the class does not visit that station.
type Class struct {
	// Name identifies the class in errors and reports (e.g. "worker 3").
	Name string
	// Population is the number of customers of the class (jobs, ≥ 0).
	Population int
	// Demands holds the mean service time of one visit, in seconds, per
	// station, index-aligned with Model.Stations.
	Demands []float64
}

// Model is a closed multi-class product-form queueing network.
type Model struct {
	// Stations are the service centres.
	Stations []Station
	// Classes are the customer chains; at least one must have a positive
	// population.
	Classes []Class
}

func stationLabel(m Model, l int) string {
	if n := m.Stations[l].Name; n != "" {
		return fmt.Sprintf("station %q", n)
	}
	return fmt.Sprintf("station %d", l)
}

func classLabel(m Model, k int) string {
	if n := m.Classes[k].Name; n != "" {
		return fmt.Sprintf("class %q", n)
	}
	return fmt.Sprintf("class %d", k)
}

// Validate reports the first invalid field of m: no stations or classes,
// unknown kinds, negative populations, zero total population, demand rows
// of the wrong length, negative, NaN or infinite demands, and populated
// classes whose demands are all zero (their throughput would be infinite).
func (m Model) Validate() error {
	if len(m.Stations) == 0 {
		return fmt.Errorf("mva: model has no stations")
	}
	if len(m.Classes) == 0 {
		return fmt.Errorf("mva: model has no classes")
	}
	for l, st := range m.Stations {
		if !st.Kind.valid() {
			return fmt.Errorf("mva: %s: unknown kind %v", stationLabel(m, l), st.Kind)
		}
	}
	total := 0
	for k, c := range m.Classes {
		if c.Population < 0 {
			return fmt.Errorf("mva: %s: negative population %d", classLabel(m, k), c.Population)
		}
		if len(c.Demands) != len(m.Stations) {
			return fmt.Errorf("mva: %s: %d demands for %d stations", classLabel(m, k), len(c.Demands), len(m.Stations))
		}
		sum := 0.0
		for l, d := range c.Demands {
			if math.IsNaN(d) || math.IsInf(d, 0) || d < 0 {
				return fmt.Errorf("mva: %s: %s: invalid demand %v s", stationLabel(m, l), classLabel(m, k), d)
			}
			sum += d
		}
		if c.Population > 0 && sum == 0 {
			return fmt.Errorf("mva: %s: all demands are zero with population %d", classLabel(m, k), c.Population)
		}
		total += c.Population
	}
	if total == 0 {
		return fmt.Errorf("mva: total population is zero")
	}
	return nil
}

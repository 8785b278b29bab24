package cynthia

import (
	"fmt"
	"math"
)

// Model selects a training-time model. The zero value is the Cynthia model.
type Model int

const (
	// ModelCynthia is Cynthia's Eq. (2)–(7) with the demand/supply
	// utilization rule (C-4): BSP overlaps computation and communication.
	ModelCynthia Model = iota
	// ModelOptimus is the Optimus baseline as Cynthia §5.1 characterizes
	// it: t_iter = t_comp + t_comm for BSP and ASP, workers always at 100%
	// CPU (no PS bottleneck). See the package doc for the formula.
	ModelOptimus
	// ModelPaleo is the Paleo baseline as Cynthia §5.1 characterizes it.
	// Under that characterization its formula equals ModelOptimus.
	ModelPaleo
)

// String returns "cynthia", "optimus", "paleo" or "Model(n)".
func (m Model) String() string {
	switch m {
	case ModelCynthia:
		return "cynthia"
	case ModelOptimus:
		return "optimus"
	case ModelPaleo:
		return "paleo"
	}
	return fmt.Sprintf("Model(%d)", int(m))
}

func (m Model) check() error {
	if m < ModelCynthia || m > ModelPaleo {
		return fmt.Errorf("unknown model %v", m)
	}
	return nil
}

// Bottleneck names the PS resource that limits the workers' CPU utilization.
type Bottleneck int

const (
	// NoBottleneck: demand <= supply for both PS CPU and PS network.
	NoBottleneck Bottleneck = iota
	// CPUBottleneck: c_supply/c_demand is the smaller ratio and < 1.
	CPUBottleneck
	// NetworkBottleneck: b_supply/b_demand is the smaller ratio and < 1
	// (ties go to the network).
	NetworkBottleneck
)

// String returns "none", "cpu", "network" or "Bottleneck(n)".
func (b Bottleneck) String() string {
	switch b {
	case NoBottleneck:
		return "none"
	case CPUBottleneck:
		return "cpu"
	case NetworkBottleneck:
		return "network"
	}
	return fmt.Sprintf("Bottleneck(%d)", int(b))
}

// Breakdown is one prediction: the inputs' demand and supply, the workers'
// utilization and the per-iteration times.
type Breakdown struct {
	// Model and Sync echo the model used and the workload's mechanism.
	Model Model
	Sync  Sync
	// Workers is n_wk and PS is n_ps.
	Workers, PS int
	// RScale is r_scale of Eq. (7), dimensionless.
	RScale float64
	// CDemand and CSupply are the PS CPU demand (Eq. 6) and Σ_k c_ps^k,
	// in FLOP/s.
	CDemand, CSupply float64
	// BDemand and BSupply are the PS network demand (Eq. 6) and
	// Σ_k b_ps^k, in bytes/s.
	BDemand, BSupply float64
	// CPUOverloaded is CDemand > CSupply; NetworkOverloaded is
	// BDemand > BSupply. They describe the inputs for every model.
	CPUOverloaded, NetworkOverloaded bool
	// Bottleneck is the resource that sets Utilization in this model.
	// The baselines ignore the PS, so for them it is always NoBottleneck.
	Bottleneck Bottleneck
	// Utilization is u_wk as a fraction in (0, 1] (1 = 100%), the same for
	// every worker (C-4). Always 1 for the baselines.
	Utilization float64
	// Comp is t_comp in seconds (Eq. 4). For ASP it is the computation
	// time on the slowest worker.
	Comp float64
	// Comm is t_comm in seconds (Eq. 5).
	Comm float64
	// Iter is t_iter in seconds (Eq. 3 for Cynthia, Comp+Comm for the
	// baselines). For ASP it is the iteration time of the slowest worker.
	Iter float64
	// IterRate is the cluster's iterations per second: 1/Iter for BSP,
	// Σ_j 1/t_iter^j over the workers for ASP.
	IterRate float64
	// Throughput is Workload.Batch × IterRate in examples/s.
	Throughput float64
	// Time is T_train in seconds (Eq. 2) for Workload.Iterations:
	// Iterations/IterRate (see C-2 for ASP).
	Time float64
}

// Predict evaluates Cynthia's model (Eq. 2–7 and the utilization rule) for
// workload w on cluster c. It is ModelCynthia.Predict.
func Predict(w Workload, c Cluster) (Breakdown, error) {
	return ModelCynthia.Predict(w, c)
}

// Predict evaluates model m for workload w on the (possibly heterogeneous)
// cluster c. It returns an error naming the first invalid input.
func (m Model) Predict(w Workload, c Cluster) (Breakdown, error) {
	if err := m.check(); err != nil {
		return Breakdown{}, prefixed(err)
	}
	if err := w.check(); err != nil {
		return Breakdown{}, prefixed(err)
	}
	if err := c.check(); err != nil {
		return Breakdown{}, prefixed(err)
	}
	a := aggregate{n: len(c.Workers), nps: len(c.PS), cBase: c.CBase, cMin: math.Inf(1)}
	for _, in := range c.Workers {
		a.cMin = math.Min(a.cMin, in.CPU)
		a.cSum += in.CPU
	}
	for _, in := range c.PS {
		a.bSum += in.Bandwidth
		a.cpsSum += in.CPU
	}
	return m.predict(w, a, c.Workers), nil
}

// PredictHomogeneous evaluates model m for workload w on the homogeneous
// cluster h without allocating.
func (m Model) PredictHomogeneous(w Workload, h Homogeneous) (Breakdown, error) {
	if err := m.check(); err != nil {
		return Breakdown{}, prefixed(err)
	}
	if err := w.check(); err != nil {
		return Breakdown{}, prefixed(err)
	}
	if err := h.check(); err != nil {
		return Breakdown{}, prefixed(err)
	}
	return m.predict(w, homogeneousAggregate(h), nil), nil
}

// aggregate holds the cluster sums the equations need.
type aggregate struct {
	n, nps       int
	cMin, cSum   float64 // workers: min_j c_wk^j and Σ_j c_wk^j (FLOP/s)
	bSum, cpsSum float64 // PS: Σ_k b_ps^k (bytes/s) and Σ_k c_ps^k (FLOP/s)
	cBase        float64
}

func homogeneousAggregate(h Homogeneous) aggregate {
	return aggregate{
		n: h.Workers, nps: h.PS, cBase: h.CBase,
		cMin: h.Instance.CPU, cSum: float64(h.Workers) * h.Instance.CPU,
		bSum: float64(h.PS) * h.Instance.Bandwidth, cpsSum: float64(h.PS) * h.Instance.CPU,
	}
}

// predict evaluates validated inputs. workers lists the heterogeneous ASP
// workers; nil means all workers have capability a.cMin.
func (m Model) predict(w Workload, a aggregate, workers []Instance) Breakdown {
	n := float64(a.n)
	b := Breakdown{Model: m, Sync: w.Sync, Workers: a.n, PS: a.nps, CSupply: a.cpsSum, BSupply: a.bSum}

	// Eq. (7) and Eq. (6).
	if w.Sync == BSP {
		b.RScale = n * a.cMin / a.cBase
	} else {
		b.RScale = a.cSum / a.cBase
	}
	b.CDemand = w.CProf * b.RScale
	b.BDemand = w.BProf * b.RScale
	b.CPUOverloaded = b.CDemand > b.CSupply
	b.NetworkOverloaded = b.BDemand > b.BSupply

	b.Utilization, b.Bottleneck = 1, NoBottleneck
	if m == ModelCynthia {
		b.Utilization, b.Bottleneck = Utilization(b.CDemand, b.CSupply, b.BDemand, b.BSupply)
	}
	u := b.Utilization

	// Eq. (4), (5) and (3).
	if w.Sync == BSP {
		b.Comp = w.WIter / (n * a.cMin * u)
		b.Comm = 2 * w.GParam * n / a.bSum
		if m == ModelCynthia {
			b.Iter = math.Max(b.Comp, b.Comm)
		} else {
			b.Iter = b.Comp + b.Comm
		}
		b.IterRate = 1 / b.Iter
	} else {
		b.Comp = w.WIter / (a.cMin * u)
		b.Comm = 2 * w.GParam / a.bSum
		b.Iter = b.Comp + b.Comm
		if workers == nil {
			b.IterRate = n / b.Iter
		} else {
			for _, in := range workers {
				b.IterRate += 1 / (w.WIter/(in.CPU*u) + b.Comm)
			}
		}
	}
	b.Throughput = float64(w.Batch) * b.IterRate
	b.Time = float64(w.Iterations) / b.IterRate
	return b
}

// Utilization is the unnumbered rule after Eq. (7) (C-4): if the PS CPU or
// network demand exceeds its supply, every worker runs at
// min(bSupply/bDemand, cSupply/cDemand); otherwise at 1 (100%). Demands and
// supplies are in FLOP/s (c) and bytes/s (b); supplies must be > 0 and
// demands >= 0. The returned fraction is in (0, 1].
func Utilization(cDemand, cSupply, bDemand, bSupply float64) (float64, Bottleneck) {
	cpu, net := cDemand > cSupply, bDemand > bSupply
	if !cpu && !net {
		return 1, NoBottleneck
	}
	rc, rb := math.Inf(1), math.Inf(1)
	if cDemand > 0 {
		rc = cSupply / cDemand
	}
	if bDemand > 0 {
		rb = bSupply / bDemand
	}
	if rb <= rc {
		return rb, NetworkBottleneck
	}
	return rc, CPUBottleneck
}

// BSPCrossover is the worker count n* (real-valued) at which BSP
// computation and communication times are equal when no PS bottleneck
// occurs (u = 1): w_iter/(n·c) = 2·g·n/Σb, so
// n* = sqrt(w_iter·Σb / (2·g_param·c)) (Fig. 3 and the balance bound of
// Eq. 19). It returns +Inf when GParam is 0.
func BSPCrossover(w Workload, h Homogeneous) (float64, error) {
	if err := w.check(); err != nil {
		return 0, prefixed(err)
	}
	if err := h.check(); err != nil {
		return 0, prefixed(err)
	}
	bSum := float64(h.PS) * h.Instance.Bandwidth
	return math.Sqrt(w.WIter * bSum / (2 * w.GParam * h.Instance.CPU)), nil
}

package cynthia

import (
	"fmt"
	"math"
)

// Unit conversions for the paper's tables (C-3). Table 4 prints w_iter and
// c_prof in "GFLOPS" and g_param, b_prof in "MB"/"MB/s".
const (
	// FLOPPerGFLOP converts Table 4's w_iter (GFLOP per iteration) to FLOP,
	// and its c_prof (GFLOP/s) to FLOP/s.
	FLOPPerGFLOP = 1e9
	// BytesPerMB converts Table 4's MB and MB/s to bytes and bytes/s
	// (decimal megabytes, 10^6 bytes).
	BytesPerMB = 1e6
	// SecondsPerHour converts hourly prices ($/h) to $/s in Eq. (8).
	SecondsPerHour = 3600
)

// Sync is the parameter synchronization mechanism of a workload.
// The zero value is invalid, so a workload must choose explicitly.
type Sync int

const (
	// BSP is bulk synchronous parallel training: one global iteration per
	// barrier, computation and communication overlapped (Eq. 3, max).
	BSP Sync = iota + 1
	// ASP is asynchronous parallel training: each worker iterates on its
	// own, computation then communication (Eq. 3, sum).
	ASP
)

// String returns "BSP", "ASP" or "Sync(n)".
func (s Sync) String() string {
	switch s {
	case BSP:
		return "BSP"
	case ASP:
		return "ASP"
	}
	return fmt.Sprintf("Sync(%d)", int(s))
}

// Workload is one row of the paper's Table 4 (30-iteration profile on one
// baseline worker with capability c_base), plus Table 1's job size.
type Workload struct {
	// Name labels the workload in errors and plans.
	Name string
	// WIter is w_iter, the work of one iteration in FLOP
	// (Table 4's "GFLOPS" value times FLOPPerGFLOP). Must be > 0.
	WIter float64
	// GParam is g_param, the model parameter size in bytes sent in each
	// direction per iteration (Table 4's MB times BytesPerMB). Must be >= 0.
	GParam float64
	// CProf is c_prof, the PS CPU consumption during profiling in FLOP/s.
	// Must be >= 0; 0 means the PS CPU never limits.
	CProf float64
	// BProf is b_prof, the PS network throughput during profiling in
	// bytes/s. Must be >= 0; 0 means the PS network never limits.
	BProf float64
	// Sync selects the BSP or ASP branch of every equation.
	Sync Sync
	// Iterations is the job size in iterations used by Predict's Time
	// (Table 1). For BSP it is the number of global iterations; for ASP
	// it is the total over all workers (see C-2 in the package doc).
	// Zero gives Time = 0. Must be >= 0.
	Iterations int
	// Batch is the number of examples processed per iteration, used only
	// for Breakdown.Throughput: the global batch for BSP (split across the
	// workers, Eq. 4 and C-11) and the per-worker batch for ASP.
	// Must be >= 0.
	Batch int
}

// Validate reports the first invalid field of w, naming it.
func (w Workload) Validate() error { return prefixed(w.check()) }

func (w Workload) check() error {
	name := w.Name
	if w.Sync != BSP && w.Sync != ASP {
		return fmt.Errorf("%s: Sync must be BSP or ASP, got %v", label("workload", name), w.Sync)
	}
	if err := checkPositive("workload", name, "WIter", w.WIter); err != nil {
		return err
	}
	for _, f := range []struct {
		field string
		v     float64
	}{{"GParam", w.GParam}, {"CProf", w.CProf}, {"BProf", w.BProf}} {
		if err := checkNonNegative("workload", name, f.field, f.v); err != nil {
			return err
		}
	}
	if w.Iterations < 0 {
		return fmt.Errorf("%s: Iterations must be >= 0, got %d", label("workload", name), w.Iterations)
	}
	if w.Batch < 0 {
		return fmt.Errorf("%s: Batch must be >= 0, got %d", label("workload", name), w.Batch)
	}
	return nil
}

// Instance is one cloud instance type (one docker, one physical core in the
// paper's prototype), usable as a worker or as a PS node.
type Instance struct {
	// Name is the instance type, e.g. "m4.xlarge".
	Name string
	// CPU is the CPU capability in FLOP/s: c_wk for a worker, c_ps for a
	// PS node (the paper looks it up in a CPU table, [3]). Must be > 0.
	CPU float64
	// Bandwidth is the available network bandwidth b_ps in bytes/s when
	// the instance is a PS node (netperf in the paper). Must be > 0.
	Bandwidth float64
	// Price is the hourly price p^t in $/h. Must be >= 0.
	Price float64
}

// Validate reports the first invalid field of i, naming it.
func (i Instance) Validate() error { return prefixed(i.check()) }

func (i Instance) check() error {
	if err := checkPositive("instance", i.Name, "CPU", i.CPU); err != nil {
		return err
	}
	if err := checkPositive("instance", i.Name, "Bandwidth", i.Bandwidth); err != nil {
		return err
	}
	return checkNonNegative("instance", i.Name, "Price", i.Price)
}

// Cluster is a provisioned training cluster; workers may be heterogeneous
// (Fig. 1, Fig. 9) and there may be several PS nodes (Fig. 10).
type Cluster struct {
	// Workers lists one entry per worker. At least one.
	Workers []Instance
	// PS lists one entry per PS node. At least one.
	PS []Instance
	// CBase is c_base, the CPU capability of the baseline worker the
	// workload was profiled on, in FLOP/s (Eq. 7). Must be > 0.
	CBase float64
}

// Validate reports the first invalid field of c, naming it.
func (c Cluster) Validate() error { return prefixed(c.check()) }

func (c Cluster) check() error {
	if len(c.Workers) == 0 {
		return fmt.Errorf("cluster: Workers is empty")
	}
	if len(c.PS) == 0 {
		return fmt.Errorf("cluster: PS is empty")
	}
	if err := checkPositive("cluster", "", "CBase", c.CBase); err != nil {
		return err
	}
	for j, in := range c.Workers {
		if err := in.check(); err != nil {
			return fmt.Errorf("cluster: Workers[%d]: %w", j, err)
		}
	}
	for k, in := range c.PS {
		if err := in.check(); err != nil {
			return fmt.Errorf("cluster: PS[%d]: %w", k, err)
		}
	}
	return nil
}

// Homogeneous is a cluster of Workers workers and PS PS nodes, all of one
// instance type, as provisioned by Algorithm 1. It is evaluated without
// allocating.
type Homogeneous struct {
	// Instance is the type of every worker and every PS node.
	Instance Instance
	// Workers is n_wk (>= 1); PS is n_ps (>= 1).
	Workers, PS int
	// CBase is c_base in FLOP/s (> 0).
	CBase float64
}

// Validate reports the first invalid field of h, naming it.
func (h Homogeneous) Validate() error { return prefixed(h.check()) }

func (h Homogeneous) check() error {
	if h.Workers < 1 {
		return fmt.Errorf("homogeneous cluster: Workers must be >= 1, got %d", h.Workers)
	}
	if h.PS < 1 {
		return fmt.Errorf("homogeneous cluster: PS must be >= 1, got %d", h.PS)
	}
	if err := checkPositive("homogeneous cluster", "", "CBase", h.CBase); err != nil {
		return err
	}
	return h.Instance.check()
}

// MaxClusterNodes caps the workers plus PS nodes that Homogeneous.Cluster
// expands into an explicit Cluster: 2^20 nodes, 40 MiB of Instances. Larger
// homogeneous clusters are evaluated without expansion
// (Model.PredictHomogeneous).
const MaxClusterNodes = 1 << 20

// Cluster expands h into an explicit Cluster (allocates two slices). It
// validates h first and refuses more than MaxClusterNodes nodes, so an
// invalid or absurd count is an error, not an allocation.
func (h Homogeneous) Cluster() (Cluster, error) {
	if err := h.check(); err != nil {
		return Cluster{}, prefixed(err)
	}
	if h.Workers > MaxClusterNodes || h.PS > MaxClusterNodes-h.Workers {
		return Cluster{}, fmt.Errorf("cynthia: homogeneous cluster: %d workers + %d PS exceed MaxClusterNodes = %d (use Model.PredictHomogeneous)",
			h.Workers, h.PS, MaxClusterNodes)
	}
	c := Cluster{
		Workers: make([]Instance, h.Workers),
		PS:      make([]Instance, h.PS),
		CBase:   h.CBase,
	}
	for j := range c.Workers {
		c.Workers[j] = h.Instance
	}
	for k := range c.PS {
		c.PS[k] = h.Instance
	}
	return c, nil
}

func checkPositive(kind, name, field string, v float64) error {
	if math.IsNaN(v) || math.IsInf(v, 0) || v <= 0 {
		return fmt.Errorf("%s: %s must be finite and > 0, got %g", label(kind, name), field, v)
	}
	return nil
}

func checkNonNegative(kind, name, field string, v float64) error {
	if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
		return fmt.Errorf("%s: %s must be finite and >= 0, got %g", label(kind, name), field, v)
	}
	return nil
}

func label(kind, name string) string {
	if name == "" {
		return kind
	}
	return fmt.Sprintf("%s %q", kind, name)
}

// prefixed adds the package prefix to an error from a check method.
func prefixed(err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("cynthia: %w", err)
}

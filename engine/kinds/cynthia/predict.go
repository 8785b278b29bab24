package cynthia

import (
	"context"
	"fmt"
	"math"

	cynthiamodel "pslab/engine/cynthia"
	"pslab/engine/dataset"
	"pslab/engine/experiment"
)

// cynthiaSeries is one curve of a cynthia-predict experiment: a workload on
// a cluster layout, one quantity, over the swept workers or PS nodes.
type cynthiaSeries struct {
	Label    string // legend entry
	Key      string // metric prefix
	Workload string // Table 4 name
	Sync     string // "ASP" or "BSP" to replace Table 1's label; "" keeps it
	Model    string // cynthia (default), optimus or paleo
	// Quantity is what the curve shows: time (min, default), comp, comm or
	// iter (seconds per iteration), util (worker utilization, %) or
	// throughput (examples/s).
	Quantity string
	// Worker is the catalogue type of the workers; Straggler, if set, the
	// type of ⌊n/2⌋ of them (Fig. 1, Fig. 9: ⌈n/2⌉ Worker + ⌊n/2⌋ Straggler).
	Worker, Straggler string
	// PS is the number of PS nodes when workers are swept (default 1);
	// Workers the number of workers when PS nodes are swept.
	PS, Workers int
	// PSType is the catalogue type of the PS nodes (default Worker).
	PSType string `toml:"ps_type"`
	// MarkCrossover adds the BSP balance point n* as a one-point series
	// (homogeneous BSP swept over workers, quantity time, comp, comm or iter).
	MarkCrossover bool `toml:"mark_crossover"`
}

// cynthiaCompare records how much series Series exceeds series Over, in
// percent, at common x in [From, To] (To = 0: no upper end).
type cynthiaCompare struct {
	Name, Series, Over string
	From, To           float64
}

// cynthiaChange records the percent change of series Series from x = From
// to x = To.
type cynthiaChange struct {
	Name, Series string
	From, To     float64
}

type cynthiaPredictParams struct {
	// Base is the catalogue type the workloads were profiled on; its CPU is
	// c_base (Table 4: an m4.xlarge worker).
	Base    string
	Series  []cynthiaSeries
	Compare []cynthiaCompare
	Change  []cynthiaChange
}

var cynthiaQuantities = map[string]func(cynthiamodel.Breakdown) float64{
	"time":       func(b cynthiamodel.Breakdown) float64 { return b.Time / 60 },
	"comp":       func(b cynthiamodel.Breakdown) float64 { return b.Comp },
	"comm":       func(b cynthiamodel.Breakdown) float64 { return b.Comm },
	"iter":       func(b cynthiamodel.Breakdown) float64 { return b.Iter },
	"util":       func(b cynthiamodel.Breakdown) float64 { return b.Utilization * 100 },
	"throughput": func(b cynthiamodel.Breakdown) float64 { return b.Throughput },
}

// cynthiaPredict evaluates Cynthia's model (or a baseline) for each series
// over the swept workers or PS nodes, and records every value, the curve
// shapes, the first bottleneck and the requested comparisons as metrics.
func cynthiaPredict(_ context.Context, env *experiment.Env) (*experiment.Result, error) {
	p := cynthiaPredictParams{Base: "m4.xlarge"}
	if err := env.Params(&p); err != nil {
		return nil, err
	}
	sweep := env.Spec.Sweep
	if sweep.Var != "workers" && sweep.Var != "ps" {
		return nil, env.Spec.Errorf([]string{"sweep", "var"}, "sweep var %q (want workers or ps)", sweep.Var)
	}
	ns, err := sweepCounts(env)
	if err != nil {
		return nil, err
	}
	if len(p.Series) == 0 {
		return nil, env.Errorf("series", "no series")
	}
	byPS := sweep.Var == "ps"
	if err := checkSeriesNodes(env, p.Series, byPS); err != nil {
		return nil, err
	}
	units, what := predictWork(p.Series, ns, byPS), fmt.Sprintf("cynthia-predict: %d points × %d series", len(ns), len(p.Series))
	if err := env.CheckModelWork([]string{"sweep"}, units, what); err != nil {
		return nil, err
	}
	if err := env.CheckRows([]string{"sweep"}, units+float64(len(p.Series)), predictRows(len(ns), len(p.Series), len(p.Compare), len(p.Change)), what); err != nil {
		return nil, err
	}
	xs := make([]float64, len(ns))
	for i, n := range ns {
		xs[i] = float64(n)
	}
	in, err := readCynthiaInputs(env)
	if err != nil {
		return nil, err
	}
	base, err := instanceByName(in.catalogue, p.Base)
	if err != nil {
		return nil, env.Errorf("base", "%v", err)
	}
	res := experiment.NewResult()
	curves := map[string]curve{}
	for i := range p.Series {
		s := &p.Series[i]
		c, err := predictSeries(env, in, base, s, xs, res)
		if err != nil {
			return nil, env.Errorf("series", "series %d (%q): %v", i, s.Key, err)
		}
		curves[s.Key] = c
	}
	for _, c := range p.Compare {
		a, okA := curves[c.Series]
		b, okB := curves[c.Over]
		if !okA || !okB {
			return nil, env.Errorf("compare", "compare %q: series %q or %q not defined", c.Name, c.Series, c.Over)
		}
		mx, at, mn, ok := ratioStats(a, b, c.From, c.To)
		if !ok {
			return nil, env.Errorf("compare", "compare %q: no common x in [%v, %v]", c.Name, c.From, c.To)
		}
		res.Metric(c.Name+".max_pct", mx)
		res.Metric(c.Name+".argmax", at)
		res.Metric(c.Name+".min_pct", mn)
		res.Note("%s: %s exceeds %s by %.1f%% to %.1f%% (largest at %s = %g)", c.Name, c.Series, c.Over, mn, mx, sweep.Var, at)
	}
	for _, c := range p.Change {
		cv, ok := curves[c.Series]
		y0, ok0 := cv.at(c.From)
		y1, ok1 := cv.at(c.To)
		if !ok || !ok0 || !ok1 || y0 == 0 {
			return nil, env.Errorf("change", "change %q: series %q has no nonzero value at %v and a value at %v", c.Name, c.Series, c.From, c.To)
		}
		res.Metric(c.Name+".pct", (y1/y0-1)*100)
		res.Note("%s: %s changes by %+.1f%% from %s = %g to %g", c.Name, c.Series, (y1/y0-1)*100, sweep.Var, c.From, c.To)
	}
	res.Note("c_base = %s CPU = %.4g FLOP/s; %s", base.Name, base.CPU, in.assumedNote())
	return res, nil
}

// predictSeries computes one series, adds its points and metrics to res and
// returns the curve.
func predictSeries(env *experiment.Env, in *cynthiaInputs, base cynthiamodel.Instance, s *cynthiaSeries, xs []float64, res *experiment.Result) (curve, error) {
	if s.Key == "" || s.Label == "" {
		return curve{}, fmt.Errorf("key and label are required")
	}
	if s.Model == "" {
		s.Model = "cynthia"
	}
	model, ok := Models[s.Model]
	if !ok || !env.UsesModel(s.Model) {
		return curve{}, fmt.Errorf("model %q is not one of the experiment's models", s.Model)
	}
	if s.Quantity == "" {
		s.Quantity = "time"
	}
	quantity, ok := cynthiaQuantities[s.Quantity]
	if !ok {
		return curve{}, fmt.Errorf("quantity %q (want time, comp, comm, iter, util or throughput)", s.Quantity)
	}
	w, err := in.workload(s.Workload, s.Sync)
	if err != nil {
		return curve{}, err
	}
	worker, err := instanceByName(in.catalogue, s.Worker)
	if err != nil {
		return curve{}, fmt.Errorf("worker: %w", err)
	}
	if s.PSType == "" {
		s.PSType = s.Worker
	}
	psType, err := instanceByName(in.catalogue, s.PSType)
	if err != nil {
		return curve{}, fmt.Errorf("ps_type: %w", err)
	}
	straggler := worker
	if s.Straggler != "" {
		if straggler, err = instanceByName(in.catalogue, s.Straggler); err != nil {
			return curve{}, fmt.Errorf("straggler: %w", err)
		}
	}
	// Node counts were validated by checkSeriesNodes.
	byPS := env.Spec.Sweep.Var == "ps"
	if !byPS && s.PS == 0 {
		s.PS = 1
	}

	c := curve{xs: xs, ys: make([]float64, len(xs))}
	var firstBottleneck, firstCPU, firstNet float64
	for i, x := range xs {
		n, ps := int(x), s.PS
		if byPS {
			n, ps = s.Workers, int(x)
		}
		cl := cynthiamodel.Cluster{Workers: make([]cynthiamodel.Instance, n), PS: make([]cynthiamodel.Instance, ps), CBase: base.CPU}
		for j := range cl.Workers {
			cl.Workers[j] = worker
			if j >= n-n/2 {
				cl.Workers[j] = straggler // ⌊n/2⌋ stragglers
			}
		}
		for k := range cl.PS {
			cl.PS[k] = psType
		}
		b, err := model.Predict(w, cl)
		if err != nil {
			return curve{}, fmt.Errorf("%s = %v: %w", env.Spec.Sweep.Var, x, err)
		}
		env.CountModelWork(float64(1 + len(cl.Workers) + len(cl.PS)))
		c.ys[i] = quantity(b)
		res.Point(s.Label, s.Model, dataset.Derived, x, c.ys[i])
		res.Metric(s.Key+"."+xKey(x), c.ys[i])
		res.Metric(s.Key+".util."+xKey(x), b.Utilization*100)
		if b.Utilization < 1 && firstBottleneck == 0 {
			firstBottleneck = x
		}
		if b.CPUOverloaded && firstCPU == 0 {
			firstCPU = x
		}
		if b.NetworkOverloaded && firstNet == 0 {
			firstNet = x
		}
	}
	sh := shapeOf(c.xs, c.ys)
	for k, v := range map[string]float64{
		"argmin": sh.ArgMin, "nonincreasing": oneIf(sh.NonIncreasing), "nondecreasing": oneIf(sh.NonDecreasing),
		"u_shaped": oneIf(sh.UShaped), "spread": sh.Spread,
		"first_bottleneck": firstBottleneck, "first_cpu_overload": firstCPU, "first_net_overload": firstNet,
	} {
		res.Metric(s.Key+"."+k, v)
	}
	if s.MarkCrossover {
		if err := markCrossover(w, worker, psType, base, s, res); err != nil {
			return curve{}, err
		}
		env.CountModelWork(1)
	}
	return c, nil
}

// markCrossover adds the BSP balance point n* = sqrt(w_iter·Σb/(2·g·c))
// (no bottleneck) as a one-point series at t* = w_iter/(n*·c) seconds, the
// common value of t_comp and t_comm there (Iterations·t* in minutes for
// quantity time).
func markCrossover(w cynthiamodel.Workload, worker, psType, base cynthiamodel.Instance, s *cynthiaSeries, res *experiment.Result) error {
	switch {
	case w.Sync != cynthiamodel.BSP:
		return fmt.Errorf("mark_crossover needs a BSP workload")
	case s.Straggler != "" || psType != worker || s.Workers != 0:
		return fmt.Errorf("mark_crossover needs a homogeneous cluster swept over workers")
	case s.Quantity == "util" || s.Quantity == "throughput":
		return fmt.Errorf("mark_crossover needs quantity time, comp, comm or iter, got %q", s.Quantity)
	}
	n, err := cynthiamodel.BSPCrossover(w, cynthiamodel.Homogeneous{Instance: worker, Workers: 1, PS: s.PS, CBase: base.CPU})
	if err != nil {
		return err
	}
	if math.IsInf(n, 0) {
		return fmt.Errorf("no crossover: g_param is 0")
	}
	y := w.WIter / (n * worker.CPU)
	if s.Quantity == "time" {
		y *= float64(w.Iterations) / 60
	}
	res.Point(fmt.Sprintf("%s balance n* = %.2f", s.Label, n), "cynthia", dataset.Derived, n, y)
	res.Metric(s.Key+".crossover", n)
	res.Note("%s: computation and communication balance at n* = %.3f workers", s.Key, n)
	return nil
}

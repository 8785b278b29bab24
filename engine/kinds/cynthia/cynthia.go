package cynthia

import (
	"context"
	"fmt"
	"strings"

	cynthiamodel "pslab/engine/cynthia"
	"pslab/engine/dataset"
	"pslab/engine/experiment"
)

// cynthiaInstance is an instance described in an experiment's [params].
type cynthiaInstance struct {
	Name      string
	CPU       float64 // FLOP/s
	Bandwidth float64 // bytes/s
	Price     float64 // USD/h
}

type cynthiaTimeParams struct {
	// Workloads are Table 4 names to predict.
	Workloads []string
	// Instance is every worker's and PS node's type; the profiling baseline
	// c_base is its CPU (profiling ran on the same m4.xlarge type).
	Instance cynthiaInstance
	PS       int
}

// cynthiaWorkload joins a Table 4 row (profile) with its Table 1 row
// (iterations, batch, sync). Table 1 names are Table 4 names, possibly with
// " DNN" appended ("mnist DNN").
func cynthiaWorkload(t4, t1 *dataset.Table, name string) (cynthiamodel.Workload, error) {
	i, err := t4.RowOf("workload", name)
	if err != nil {
		return cynthiamodel.Workload{}, err
	}
	j := -1
	for k, n := range t1.Strings("workload") {
		if n == name || n == name+" DNN" {
			j = k
		}
	}
	if j < 0 {
		return cynthiamodel.Workload{}, fmt.Errorf("workload %q not in %s", name, t1.Schema.Name)
	}
	sync := cynthiamodel.BSP
	if strings.EqualFold(t1.Strings("sync")[j], "ASP") {
		sync = cynthiamodel.ASP
	}
	return cynthiamodel.Workload{Name: name,
		WIter:      t4.Floats("w_iter")[i] * cynthiamodel.FLOPPerGFLOP,
		GParam:     t4.Floats("g_param")[i] * cynthiamodel.BytesPerMB,
		CProf:      t4.Floats("c_prof")[i] * cynthiamodel.FLOPPerGFLOP,
		BProf:      t4.Floats("b_prof")[i] * cynthiamodel.BytesPerMB,
		Sync:       sync,
		Iterations: int(t1.Ints("iterations")[j]),
		Batch:      int(t1.Ints("batch_size")[j]),
	}, nil
}

var Models = map[string]cynthiamodel.Model{"cynthia": cynthiamodel.ModelCynthia, "optimus": cynthiamodel.ModelOptimus, "paleo": cynthiamodel.ModelPaleo}

// cynthiaTimeVsWorkers predicts training time vs number of workers with a
// fixed number of PS (Cynthia Fig. 6), and records worker utilization, the
// first worker count with a PS bottleneck and the BSP crossover.
func cynthiaTimeVsWorkers(_ context.Context, env *experiment.Env) (*experiment.Result, error) {
	p := cynthiaTimeParams{PS: 1}
	if err := env.Params(&p); err != nil {
		return nil, err
	}
	if len(p.Workloads) == 0 {
		return nil, env.Errorf("workloads", "no workloads")
	}
	if err := checkNodes(env, "ps", p.PS); err != nil {
		return nil, env.Errorf("ps", "params.%v", err)
	}
	if env.Spec.Sweep.Var != "workers" {
		return nil, env.Spec.Errorf([]string{"sweep", "var"}, "sweep var %q (want workers)", env.Spec.Sweep.Var)
	}
	ns, err := sweepCounts(env)
	if err != nil {
		return nil, err
	}
	// Every point is one closed-form evaluation per workload and model.
	models := 0
	for _, m := range []string{"cynthia", "optimus", "paleo"} {
		if env.UsesModel(m) {
			models++
		}
	}
	what := fmt.Sprintf("cynthia-time-vs-workers: %d points × %d workloads × %d models", len(ns), len(p.Workloads), models)
	if err := env.CheckModelWork([]string{"sweep"}, float64(len(ns))*float64(len(p.Workloads))*float64(models), what); err != nil {
		return nil, err
	}
	units, rows := timeVsWorkersWork(len(ns), len(p.Workloads), models)
	if err := env.CheckRows([]string{"sweep"}, units, rows, what); err != nil {
		return nil, err
	}
	t4, err := env.Input("table4", cynthiaTable4)
	if err != nil {
		return nil, err
	}
	t1, err := env.Input("table1", cynthiaTable1)
	if err != nil {
		return nil, err
	}
	inst := cynthiamodel.Instance{Name: p.Instance.Name, CPU: p.Instance.CPU, Bandwidth: p.Instance.Bandwidth, Price: p.Instance.Price}
	if err := inst.Validate(); err != nil {
		return nil, env.Errorf("instance", "%v", err)
	}
	res := experiment.NewResult()
	for _, name := range p.Workloads {
		w, err := cynthiaWorkload(t4, t1, name)
		if err != nil {
			return nil, env.Errorf("workloads", "%v", err)
		}
		firstBottleneck := 0.0
		prevUtil, utilMonotone := 1.0, 1.0
		for _, n := range ns {
			x := float64(n)
			h := cynthiamodel.Homogeneous{Instance: inst, Workers: n, PS: p.PS, CBase: inst.CPU}
			for _, m := range []string{"cynthia", "optimus", "paleo"} {
				if !env.UsesModel(m) {
					continue
				}
				b, err := Models[m].PredictHomogeneous(w, h)
				if err != nil {
					return nil, fmt.Errorf("%s with %d workers: %w", name, n, err)
				}
				env.CountModelWork(1)
				res.Point(fmt.Sprintf("%s %s (%s)", name, m, w.Sync), m, dataset.Derived, x, b.Time/60)
				if m != "cynthia" {
					continue
				}
				res.Metric(fmt.Sprintf("time_min.%s.n%d", name, n), b.Time/60)
				res.Metric(fmt.Sprintf("util.%s.n%d", name, n), b.Utilization)
				if b.Utilization < 1 && firstBottleneck == 0 {
					firstBottleneck = x
				}
				if b.Utilization > prevUtil {
					utilMonotone = 0
				}
				prevUtil = b.Utilization
			}
		}
		res.Metric("first_bottleneck."+name, firstBottleneck)
		res.Metric("util_nonincreasing."+name, utilMonotone)
		if w.Sync == cynthiamodel.BSP {
			x, err := cynthiamodel.BSPCrossover(w, cynthiamodel.Homogeneous{Instance: inst, Workers: 1, PS: p.PS, CBase: inst.CPU})
			if err != nil {
				return nil, err
			}
			env.CountModelWork(1)
			res.Metric("crossover."+name, x)
			res.Note("%s (BSP): computation and communication times cross at n* = %.2f workers", name, x)
		}
	}
	res.Note("instance %s: c = %.3g FLOP/s, b_ps = %.3g bytes/s (see the experiment file for where these come from)", inst.Name, inst.CPU, inst.Bandwidth)
	return res, nil
}

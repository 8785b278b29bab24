package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"

	"pslab/engine/cynthia"
	"pslab/engine/dataset"
	cynthiakinds "pslab/engine/kinds/cynthia"
)

// provisionFlags are the inputs of `pslab provision`.
type provisionFlags struct {
	root, instances, table4, table1 string
	workload, sync, base, model     string
	wIter, gParam, cProf, bProf     float64 // GFLOP, MB, GFLOP/s, MB/s (Table 4 units)
	cBase                           float64 // GFLOP/s
	beta0, beta1, loss, timeMin     float64
	maxWorkers                      int
	format                          string
}

// defaultBeta0 is β0 of each Table 4 workload as pslab's cynthia
// experiments set it (experiments/cynthia/fig11.toml and fig13.toml): with
// β1 = 0 the Table 1 job reaches the §5.2 target loss, β0 = l_g ×
// iterations (cifar10 0.8 × 10000, ResNet-32 0.6 × 3000, VGG-19 0.8 ×
// 1000). mnist has no documented value: give -beta0.
var defaultBeta0 = map[string]float64{"cifar10": 8000, "ResNet-32": 1800, "VGG-19": 800}

// provision answers "which instances, how many workers and PS nodes, at
// what cost, to reach loss l in time T" with Cynthia's Algorithm 1.
func provision(_ context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("provision", flag.ContinueOnError)
	fs.SetOutput(stderr)
	setUsage(fs, "provision", "provision (-workload NAME | -w_iter GFLOP -g_param MB -c_prof GFLOP/s -b_prof MB/s -sync asp|bsp) -loss L -time MIN [flags]")
	var f provisionFlags
	fs.StringVar(&f.root, "root", ".", "repository root (default paths are relative to it)")
	fs.StringVar(&f.instances, "instances", "datasets/cynthia/instances.arrow", "instance catalogue (Arrow, instance schema: cpu FLOP/s, bandwidth bytes/s, price USD/h)")
	fs.StringVar(&f.table4, "table4", "datasets/reported/cynthia/table4.arrow", "workload profiles (Cynthia Table 4) for -workload")
	fs.StringVar(&f.table1, "table1", "datasets/reported/cynthia/table1.arrow", "workload sync labels (Cynthia Table 1) for -workload")
	fs.StringVar(&f.workload, "workload", "", "Table 4 workload: ResNet-32, VGG-19, cifar10 or mnist (or give -w_iter, -g_param, -c_prof, -b_prof, -sync)")
	fs.Float64Var(&f.wIter, "w_iter", 0, "work per iteration in GFLOP (Table 4 w_iter)")
	fs.Float64Var(&f.gParam, "g_param", 0, "parameter size in MB (10^6 bytes) sent each way per iteration")
	fs.Float64Var(&f.cProf, "c_prof", 0, "PS CPU consumption while profiling on one worker, GFLOP/s (0: the PS CPU never limits)")
	fs.Float64Var(&f.bProf, "b_prof", 0, "PS network throughput while profiling on one worker, MB/s (0: the PS network never limits)")
	fs.StringVar(&f.sync, "sync", "", "asp or bsp (required with the profile flags; replaces Table 1's label with -workload)")
	fs.StringVar(&f.base, "base", "m4.xlarge", "catalogue type the profile was measured on (its CPU is c_base)")
	fs.Float64Var(&f.cBase, "c_base", 0, "c_base in GFLOP/s, instead of -base")
	fs.Float64Var(&f.beta0, "beta0", 0, "β0 of the loss model loss = β0/(s+β1) (BSP) or β0·√n/(s+β1) (ASP), loss × iterations\n(default with -workload: cifar10 8000, ResNet-32 1800, VGG-19 800, as pslab's experiments use)")
	fs.Float64Var(&f.beta1, "beta1", 0, "β1 of the loss model, iterations (>= 0)")
	fs.Float64Var(&f.loss, "loss", 0, "target training loss l_g")
	fs.Float64Var(&f.timeMin, "time", 0, "time goal T_g in minutes")
	fs.StringVar(&f.model, "model", "cynthia", "time model of the planner: cynthia, or optimus for the Optimus-based baseline")
	fs.IntVar(&f.maxWorkers, "max_workers", 0, "cap on workers and PS nodes per type (0: 4096)")
	fs.StringVar(&f.format, "format", "text", "output format: text, csv (the search table, plan columns on the chosen row) or json")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("provision takes flags only, got %v", fs.Args())
	}
	if err := checkFormat("provision", f.format); err != nil {
		return err
	}
	if f.maxWorkers < 0 || f.maxWorkers > maxProvisionWorkers {
		return usagef("provision: -max_workers %d: want 1 to %d workers and PS nodes per type (0: %d)", f.maxWorkers, maxProvisionWorkers, cynthia.DefaultMaxWorkers)
	}
	if f.beta0 == 0 {
		f.beta0 = defaultBeta0[strings.TrimSuffix(f.workload, " DNN")]
	}
	return f.run(stdout)
}

// maxProvisionWorkers bounds -max_workers: Algorithm 1 evaluates up to
// that many worker counts per instance type, so the work is bounded before
// the search starts (2^20, 256× the planner's default cap of 4,096).
const maxProvisionWorkers = 1 << 20

// checkProfile validates the profile flags in the units the user wrote
// them (GFLOP, MB, GFLOP/s, MB/s), before they are converted.
func (f *provisionFlags) checkProfile() error {
	for _, v := range []struct {
		flag, unit string
		x          float64
		positive   bool
	}{{"-w_iter", "GFLOP of work per iteration", f.wIter, true}, {"-g_param", "MB of parameters", f.gParam, false},
		{"-c_prof", "GFLOP/s of PS CPU while profiling (0: never limits)", f.cProf, false},
		{"-b_prof", "MB/s of PS network while profiling (0: never limits)", f.bProf, false}} {
		bad := math.IsNaN(v.x) || math.IsInf(v.x, 0) || v.x < 0 || (v.positive && v.x == 0)
		if !bad {
			continue
		}
		bound := "≥ 0"
		if v.positive {
			bound = "> 0"
		}
		return usagef("provision: %s %v: want a finite number %s, in %s", v.flag, v.x, bound, v.unit)
	}
	return nil
}

// workloads lists the workloads of the -table4 file (none if unreadable).
func (f *provisionFlags) workloads() []string {
	t, err := dataset.ReadAny(f.path(f.table4), dataset.Allocator)
	if err != nil {
		return nil
	}
	for _, c := range t.Schema.Columns {
		if c.Name == "workload" && c.Type == dataset.String {
			return t.Strings("workload")
		}
	}
	return nil
}

func (f *provisionFlags) path(p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(f.root, p)
}

// provisionInputs are the resolved inputs of Algorithm 1.
type provisionInputs struct {
	w         cynthia.Workload
	catalogue []cynthia.Instance
	cBase     float64 // FLOP/s
	loss      cynthia.Loss
	goal      cynthia.Goal
	model     cynthia.Model
}

// inputs resolves the workload, catalogue, c_base, loss model and goal.
func (f *provisionFlags) inputs() (*provisionInputs, error) {
	var in provisionInputs
	switch f.model {
	case "cynthia":
		in.model = cynthia.ModelCynthia
	case "optimus":
		in.model = cynthia.ModelOptimus
	default:
		return nil, usagef("provision: -model %q (want cynthia or optimus)", f.model)
	}
	for _, v := range []struct {
		name string
		v    float64
	}{{"-loss", f.loss}, {"-time", f.timeMin}} {
		if !(v.v > 0) || math.IsInf(v.v, 0) {
			return nil, usagef("provision: %s is required and must be a positive number, got %v", v.name, v.v)
		}
	}
	profile := f.wIter != 0 || f.gParam != 0 || f.cProf != 0 || f.bProf != 0
	var err error
	switch {
	case f.workload != "" && profile:
		return nil, usagef("provision: give either -workload or the profile flags -w_iter, -g_param, -c_prof, -b_prof, not both")
	case f.workload != "":
		if in.w, err = cynthiakinds.ReadWorkload(f.path(f.table4), f.path(f.table1), f.workload); err != nil {
			if names := f.workloads(); len(names) > 0 && !slices.Contains(names, f.workload) {
				return nil, usagef("provision: -workload %q: not in %s (valid: %s)", f.workload, f.table4, strings.Join(names, ", "))
			}
			return nil, fmt.Errorf("-workload: %w", err)
		}
	case profile:
		if f.sync == "" {
			return nil, usagef("provision: -sync (asp or bsp) is required with the profile flags")
		}
		if err := f.checkProfile(); err != nil {
			return nil, err
		}
		in.w = cynthia.Workload{Name: "profile", WIter: f.wIter * cynthia.FLOPPerGFLOP, GParam: f.gParam * cynthia.BytesPerMB,
			CProf: f.cProf * cynthia.FLOPPerGFLOP, BProf: f.bProf * cynthia.BytesPerMB}
	default:
		return nil, usagef("provision: no workload: give -workload, or -w_iter, -g_param, -c_prof, -b_prof and -sync")
	}
	switch strings.ToLower(f.sync) {
	case "":
	case "asp":
		in.w.Sync = cynthia.ASP
	case "bsp":
		in.w.Sync = cynthia.BSP
	default:
		return nil, usagef("provision: -sync %q (want asp or bsp)", f.sync)
	}
	if err := in.w.Validate(); err != nil {
		return nil, fmt.Errorf("workload: %w", err)
	}
	if !(f.beta0 > 0) || math.IsInf(f.beta0, 0) {
		return nil, usagef("provision: -beta0 is required for workload %s and must be a positive number, got %v "+
			"(documented defaults: cifar10 8000, ResNet-32 1800, VGG-19 800)", in.w.Name, f.beta0)
	}
	in.loss, in.goal = cynthia.Loss{Beta0: f.beta0, Beta1: f.beta1}, cynthia.Goal{Time: f.timeMin * 60, Loss: f.loss}
	if err := in.loss.Validate(); err != nil {
		return nil, usagef("provision: -beta1: %w", err)
	}
	if in.catalogue, err = cynthiakinds.ReadCatalogue(f.path(f.instances)); err != nil {
		return nil, fmt.Errorf("-instances: %w", err)
	}
	if f.cBase < 0 || math.IsNaN(f.cBase) || math.IsInf(f.cBase, 0) {
		return nil, usagef("provision: -c_base must be a positive number of GFLOP/s, got %v", f.cBase)
	}
	in.cBase = f.cBase * cynthia.FLOPPerGFLOP
	if f.cBase == 0 {
		for _, c := range in.catalogue {
			if c.Name == f.base {
				in.cBase = c.CPU
			}
		}
		if in.cBase == 0 {
			return nil, usagef("provision: -base %q is not in the catalogue %s (or give -c_base)", f.base, f.instances)
		}
	}
	return &in, nil
}

func (f *provisionFlags) run(stdout io.Writer) error {
	in, err := f.inputs()
	if err != nil {
		return err
	}
	w, m := in.w, in.model
	maxW := f.maxWorkers
	if maxW <= 0 {
		maxW = cynthia.DefaultMaxWorkers
	}
	plan, err := cynthia.Planner{Model: m, MaxWorkers: f.maxWorkers}.Plan(w, in.loss, in.goal, in.catalogue, in.cBase)
	var inf *cynthia.InfeasibleError
	if errors.As(err, &inf) {
		if f.format != "text" {
			if werr := f.writeStructured(stdout, w, nil, inf.Search, maxW); werr != nil {
				return werr
			}
			return fmt.Errorf("no feasible plan: %w", err)
		}
		fmt.Fprintf(stdout, "no plan reaches loss %g within %g min for %s (%v):\n\n", f.loss, f.timeMin, w.Name, w.Sync)
		printSearch(stdout, inf.Search, maxW)
		return fmt.Errorf("no feasible plan: %w", err)
	}
	if err != nil {
		return err
	}
	if f.format != "text" {
		return f.writeStructured(stdout, w, &plan, plan.Search, maxW)
	}
	tw := tabwriter.NewWriter(stdout, 2, 8, 2, ' ', 0)
	fmt.Fprintf(tw, "workload\t%s (%v), goal: loss %g within %g min, planned with the %v model (β0 %g, β1 %g)\n", w.Name, w.Sync, f.loss, f.timeMin, m, f.beta0, f.beta1)
	fmt.Fprintf(tw, "instance type\t%s ($%.4g/h per node)\n", plan.Instance.Name, plan.Instance.Price)
	fmt.Fprintf(tw, "workers\t%d\n", plan.Workers)
	fmt.Fprintf(tw, "PS nodes\t%d\n", plan.PS)
	iters := "global iterations"
	if w.Sync == cynthia.ASP {
		iters = fmt.Sprintf("iterations per worker (%d in total)", plan.TotalIterations)
	}
	fmt.Fprintf(tw, "iterations\t%d %s\n", plan.Iterations, iters)
	fmt.Fprintf(tw, "time per iteration\t%.4g s (bottleneck: %v, worker utilization %.1f%%)\n", plan.IterTime, plan.Breakdown.Bottleneck, plan.Breakdown.Utilization*100)
	fmt.Fprintf(tw, "training time\t%.1f min\n", plan.Time/60)
	fmt.Fprintf(tw, "cost\t$%.4g\n", plan.Cost)
	tw.Flush()
	fmt.Fprintln(stdout)
	printSearch(stdout, plan.Search, maxW)
	return nil
}

// printSearch prints Algorithm 1's bounds and outcome per instance type:
// a lower bound above the cap maxW (clamped to maxW+1 by the planner)
// reads ">maxW" (the outcome gives its value), a bound the search did not
// reach "-", as null in -format json (searchRow).
func printSearch(w io.Writer, s cynthia.Search, maxW int) {
	tw := tabwriter.NewWriter(w, 2, 8, 2, ' ', 0)
	fmt.Fprintln(tw, "TYPE\tR\tN_LOWER\tN_UPPER\tN_PS\tEVALUATED\tOUTCOME")
	text := func(x *int) string {
		if x == nil {
			return "-"
		}
		return fmt.Sprint(*x)
	}
	for _, t := range s.Types {
		r := searchRow(t, maxW)
		lower := text(r.NLower)
		if r.LowerAboveCap {
			lower = fmt.Sprintf(">%d", maxW)
		}
		fmt.Fprintf(tw, "%s\t%.3g\t%s\t%s\t%s\t%d\t%s\n", r.Type, r.R, lower, text(r.NUpper), text(r.NPS), r.Evaluated, r.Outcome)
	}
	tw.Flush()
}

package cynthia

import (
	"fmt"
	"strings"

	cynthiamodel "pslab/engine/cynthia"
	"pslab/engine/dataset"
	"pslab/engine/experiment"
)

// CynthiaCatalogue converts an instance catalogue read with
// dataset.InstanceSchema into Cynthia instances (cpu in FLOP/s, bandwidth
// in bytes/s, price in USD/h), in file order. Names must be unique.
func CynthiaCatalogue(t *dataset.Table) ([]cynthiamodel.Instance, error) {
	names := t.Strings("instance")
	out := make([]cynthiamodel.Instance, len(names))
	for i, name := range names {
		for _, prev := range names[:i] {
			if prev == name {
				return nil, fmt.Errorf("instance catalogue: %q listed twice", name)
			}
		}
		out[i] = cynthiamodel.Instance{Name: name, CPU: t.Floats("cpu")[i], Bandwidth: t.Floats("bandwidth")[i], Price: t.Floats("price")[i]}
		if err := out[i].Validate(); err != nil {
			return nil, fmt.Errorf("instance catalogue row %d: %w", i, err)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("instance catalogue is empty")
	}
	return out, nil
}

// ReadCatalogue reads an instance catalogue Arrow file
// (dataset.InstanceSchema) and converts it with CynthiaCatalogue.
func ReadCatalogue(path string) ([]cynthiamodel.Instance, error) {
	t, err := dataset.Read(path, dataset.InstanceSchema, dataset.Allocator)
	if err != nil {
		return nil, err
	}
	return CynthiaCatalogue(t)
}

// ReadWorkload reads the reported Table 4 (profile) and Table 1 (job
// size and sync) Arrow files and returns the named workload in SI units.
// name is a Table 4 name ("cifar10"); a trailing " DNN" is accepted.
func ReadWorkload(table4, table1, name string) (cynthiamodel.Workload, error) {
	t4, err := dataset.Read(table4, cynthiaTable4, dataset.Allocator)
	if err != nil {
		return cynthiamodel.Workload{}, err
	}
	t1, err := dataset.Read(table1, cynthiaTable1, dataset.Allocator)
	if err != nil {
		return cynthiamodel.Workload{}, err
	}
	return cynthiaWorkload(t4, t1, strings.TrimSuffix(name, " DNN"))
}

// instanceByName returns the catalogue entry called name.
func instanceByName(cat []cynthiamodel.Instance, name string) (cynthiamodel.Instance, error) {
	for _, in := range cat {
		if in.Name == name {
			return in, nil
		}
	}
	known := make([]string, len(cat))
	for i, in := range cat {
		known[i] = in.Name
	}
	return cynthiamodel.Instance{}, fmt.Errorf("instance type %q is not in the catalogue %v", name, known)
}

// parseSync reads "ASP" or "BSP" (any case).
func parseSync(s string) (cynthiamodel.Sync, error) {
	switch strings.ToUpper(s) {
	case "ASP":
		return cynthiamodel.ASP, nil
	case "BSP":
		return cynthiamodel.BSP, nil
	}
	return 0, fmt.Errorf("sync %q (want ASP or BSP)", s)
}

// cynthiaInputs are the datasets every Cynthia kind reads: Table 4, Table 1
// and the instance catalogue.
type cynthiaInputs struct {
	t4, t1    *dataset.Table
	catalogue []cynthiamodel.Instance
	catTable  *dataset.Table
}

func readCynthiaInputs(env *experiment.Env) (*cynthiaInputs, error) {
	var in cynthiaInputs
	var err error
	if in.t4, err = env.Input("table4", cynthiaTable4); err != nil {
		return nil, err
	}
	if in.t1, err = env.Input("table1", cynthiaTable1); err != nil {
		return nil, err
	}
	if in.catTable, err = env.Input("instances", dataset.InstanceSchema); err != nil {
		return nil, err
	}
	if in.catalogue, err = CynthiaCatalogue(in.catTable); err != nil {
		return nil, env.Spec.Errorf([]string{"inputs", "instances"}, "%v", err)
	}
	return &in, nil
}

// workload returns the named Table 4 workload, with its Table 1 sync
// replaced when sync is set ("ASP" or "BSP"; §5.2 runs ResNet-32 with BSP
// while Table 1 says ASP, C-5).
func (in *cynthiaInputs) workload(name, sync string) (cynthiamodel.Workload, error) {
	w, err := cynthiaWorkload(in.t4, in.t1, name)
	if err != nil {
		return w, err
	}
	if sync != "" {
		if w.Sync, err = parseSync(sync); err != nil {
			return w, err
		}
	}
	return w, nil
}

// assumedNote lists the catalogue values that are not from the paper, for
// result notes.
func (in *cynthiaInputs) assumedNote() string {
	var parts []string
	for i, name := range in.catTable.Strings("instance") {
		var a []string
		for _, col := range []string{"cpu", "bandwidth", "price"} {
			if o := in.catTable.Strings(col + "_origin")[i]; o != dataset.Reported && o != dataset.Measured {
				a = append(a, fmt.Sprintf("%s %.4g (%s)", col, in.catTable.Floats(col)[i], o))
			}
		}
		if len(a) > 0 {
			parts = append(parts, name+": "+strings.Join(a, ", "))
		}
	}
	return "instance values not printed in the paper: " + strings.Join(parts, "; ")
}

// The columns read from Cynthia's reported tables. Reading with these
// schemas checks that the columns exist with the right types (extra columns
// are ignored) before any value is used.
var (
	cynthiaTable4 = &dataset.Schema{Name: "cynthia-table4", Columns: []dataset.Column{
		{Name: "workload", Type: dataset.String},
		{Name: "w_iter", Type: dataset.Float64, Rule: dataset.Positive, Unit: "GFLOP/iteration"},
		{Name: "g_param", Type: dataset.Float64, Rule: dataset.NonNegative, Unit: "MB"},
		{Name: "c_prof", Type: dataset.Float64, Rule: dataset.NonNegative, Unit: "GFLOPS"},
		{Name: "b_prof", Type: dataset.Float64, Rule: dataset.NonNegative, Unit: "MB/s"},
	}}
	cynthiaTable1 = &dataset.Schema{Name: "cynthia-table1", Columns: []dataset.Column{
		{Name: "workload", Type: dataset.String},
		{Name: "iterations", Type: dataset.Int64, Rule: dataset.Positive},
		{Name: "batch_size", Type: dataset.Int64, Rule: dataset.Positive},
		{Name: "sync", Type: dataset.String, Rule: dataset.Enum, Values: []string{"ASP", "BSP"}},
	}}
)

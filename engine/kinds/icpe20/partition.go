package icpe20

import (
	"context"
	"fmt"

	"pslab/engine/dataset"
	"pslab/engine/experiment"
	"pslab/engine/placement"
)

type partitionParams struct {
	Servers int
	// Binary reads KB and MB as 2^10 and 2^20 bytes (the VGG-11 sizes of
	// icpe20 Fig. 23 are fp32 tensor sizes in KiB/MiB, CATALOGUE §A.1).
	Binary bool
	// Heavy names a variable whose server is reported (metric
	// "heavy_on_heaviest" is 1 when it sits on the most loaded server).
	Heavy string
}

// psPartition applies TensorFlow's greedy partition to a variable list in
// graph order and compares the per-server totals with reported ones.
func psPartition(_ context.Context, env *experiment.Env) (*experiment.Result, error) {
	p := partitionParams{Servers: 2, Binary: true}
	if err := env.Params(&p); err != nil {
		return nil, err
	}
	vt, err := env.Input("variables", variableSizes)
	if err != nil {
		return nil, err
	}
	unitName := "MB"
	if p.Binary {
		unitName = "MiB"
	}
	mb, _ := bytesOf(1, "MB", p.Binary)
	vars := make([]placement.Variable, vt.Len())
	for i, name := range vt.Strings("variable") {
		b, err := bytesOf(vt.Floats("size")[i], vt.Strings("size_unit")[i], p.Binary)
		if err != nil {
			return nil, fmt.Errorf("variable %q: %w", name, err)
		}
		vars[i] = placement.Variable{Name: name, Bytes: int64(b + 0.5)}
	}
	// Greedy visits every server for every variable; a bar and a metric
	// per server, a note per variable and the reported totals.
	if p.Servers < 1 || p.Servers > placement.MaxServers {
		return nil, env.Errorf("servers", "servers = %d: want 1 to %d (placement.MaxServers)", p.Servers, placement.MaxServers)
	}
	if err := env.CheckRows([]string{"params", "servers"}, float64(len(vars))*float64(p.Servers+1), 2*float64(p.Servers)+float64(len(vars))+8,
		fmt.Sprintf("ps-partition: %d variables × %d servers", len(vars), p.Servers)); err != nil {
		return nil, err
	}
	part, err := placement.Greedy(vars, p.Servers)
	if err != nil {
		return nil, env.Errorf("servers", "%v", err)
	}
	env.CountModelWork(float64(len(vars)) * float64(p.Servers+1))
	res := experiment.NewResult()
	for s, load := range part.Load {
		cat := fmt.Sprintf("ps%d", s+1)
		res.Bar("greedy partition", cat, "placement", dataset.Derived, float64(load)/mb)
		res.Metric("total_"+unitName+"."+cat, float64(load)/mb)
	}
	if env.HasInput("totals") {
		tt, err := env.Input("totals", serverTotals)
		if err != nil {
			return nil, err
		}
		for i, ps := range tt.Strings("ps") {
			b, err := bytesOf(tt.Floats("total")[i], tt.Strings("total_unit")[i], p.Binary)
			if err != nil {
				return nil, fmt.Errorf("total of %s: %w", ps, err)
			}
			res.Bar("reported total", ps, "paper", dataset.Reported, b/mb)
		}
	}
	if p.Heavy != "" {
		found := false
		for i, v := range vars {
			if v.Name == p.Heavy {
				found = true
				on := 0.0
				if part.Server[i] == part.Heaviest() {
					on = 1
				}
				res.Metric("heavy_on_heaviest", on)
				res.Note("%s (%.1f %s) is on ps%d", v.Name, float64(v.Bytes)/mb, unitName, part.Server[i]+1)
			}
		}
		if !found {
			return nil, env.Errorf("heavy", "variable %q is not in the list", p.Heavy)
		}
	}
	for i, v := range vars {
		res.Note("%-14s %10.4f %s → ps%d", v.Name, float64(v.Bytes)/mb, unitName, part.Server[i]+1)
	}
	return res, nil
}

// The columns read from the reported variable and PS size tables.
var (
	variableSizes = &dataset.Schema{Name: "variable sizes", Columns: []dataset.Column{
		{Name: "variable", Type: dataset.String},
		{Name: "size", Type: dataset.Float64, Rule: dataset.NonNegative},
		{Name: "size_unit", Type: dataset.String, Rule: dataset.Enum, Values: []string{"B", "KB", "MB", "GB"}},
	}}
	serverTotals = &dataset.Schema{Name: "server totals", Columns: []dataset.Column{
		{Name: "ps", Type: dataset.String},
		{Name: "total", Type: dataset.Float64, Rule: dataset.NonNegative},
		{Name: "total_unit", Type: dataset.String, Rule: dataset.Enum, Values: []string{"B", "KB", "MB", "GB"}},
	}}
)

// bytesOf converts a size printed with a unit (B, KB, MB, GB) to bytes.
// binary selects 2^10 multiples (KiB, MiB) instead of 10^3.
func bytesOf(size float64, unit string, binary bool) (float64, error) {
	k := 1000.0
	if binary {
		k = 1024
	}
	switch unit {
	case "B":
		return size, nil
	case "KB":
		return size * k, nil
	case "MB":
		return size * k * k, nil
	case "GB":
		return size * k * k * k, nil
	}
	return 0, fmt.Errorf("unknown size unit %q (want B, KB, MB or GB)", unit)
}

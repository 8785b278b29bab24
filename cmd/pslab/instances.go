package main

import (
	"fmt"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strings"

	"pslab/engine/dataset"
	"pslab/engine/tomlfile"
)

// instanceSource is the human-readable source of an instance catalogue
// (datasets/cynthia/instances.toml): every value with its origin and source.
type instanceSource struct {
	ID        string
	Title     string
	Notes     string
	Instances []instanceEntry
}

// instanceEntry is one instance type. CPU is in FLOP/s, Bandwidth in
// bytes/s, Price in USD/h.
type instanceEntry struct {
	Name            string
	CPU             float64
	CPUOrigin       string `toml:"cpu_origin"`
	CPUSource       string `toml:"cpu_source"`
	Bandwidth       float64
	BandwidthOrigin string `toml:"bandwidth_origin"`
	BandwidthSource string `toml:"bandwidth_source"`
	Price           float64
	PriceOrigin     string `toml:"price_origin"`
	PriceSource     string `toml:"price_source"`
}

var valueOrigins = []string{dataset.Measured, dataset.Reported, dataset.Derived, "assumed"}

// readInstanceSource decodes an instance catalogue source strictly and
// returns it as a dataset.InstanceSchema table. Errors name file and line.
func readInstanceSource(path string) (*dataset.Table, error) {
	var src instanceSource
	f, err := tomlfile.Decode(path, &src)
	if err != nil {
		return nil, err
	}
	if err := f.Require("id", "title", "instances"); err != nil {
		return nil, err
	}
	t := dataset.NewTable(dataset.InstanceSchema, dataset.Provenance{
		Origin: dataset.Derived,
		Source: "compiled from Cynthia (ICPP'19) Tables 2 and 4, Fig. 7, §2 and §5, and public AWS facts; " +
			"the origin of each value (reported, derived or assumed) is in the cpu_origin, bandwidth_origin and price_origin columns",
		Licence: "pslab; facts from the paper and public AWS list prices",
		Notes:   src.Notes,
		Extra:   map[string]string{"title": src.Title, "id": src.ID},
	})
	for i, e := range src.Instances {
		at := func(field string) []string { return []string{"instances", field} }
		if e.Name == "" {
			return nil, f.Errorf(at("name"), "instance %d: missing name", i)
		}
		if slices.Contains(t.Strings("instance"), e.Name) {
			return nil, f.Errorf(at("name"), "instance %q listed twice", e.Name)
		}
		for _, v := range []struct {
			field, origin, source string
			value                 float64
		}{{"cpu", e.CPUOrigin, e.CPUSource, e.CPU}, {"bandwidth", e.BandwidthOrigin, e.BandwidthSource, e.Bandwidth}, {"price", e.PriceOrigin, e.PriceSource, e.Price}} {
			switch {
			case math.IsNaN(v.value) || math.IsInf(v.value, 0) || v.value < 0 || (v.value == 0 && v.field != "price"):
				return nil, f.Errorf(at(v.field), "instance %q: %s = %v must be a finite number > 0 (price >= 0)", e.Name, v.field, v.value)
			case !slices.Contains(valueOrigins, v.origin):
				return nil, f.Errorf(at(v.field+"_origin"), "instance %q: %s_origin %q (want one of %v)", e.Name, v.field, v.origin, valueOrigins)
			case strings.TrimSpace(v.source) == "":
				return nil, f.Errorf(at(v.field+"_source"), "instance %q: %s_source is empty: say where the value comes from", e.Name, v.field)
			}
		}
		source := fmt.Sprintf("cpu: %s | bandwidth: %s | price: %s", e.CPUSource, e.BandwidthSource, e.PriceSource)
		if err := t.Append(e.Name, e.CPU, e.Bandwidth, e.Price, e.CPUOrigin, e.BandwidthOrigin, e.PriceOrigin, source); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
	}
	if t.Len() == 0 {
		return nil, f.Errorf([]string{"instances"}, "no instances")
	}
	return t, nil
}

// buildInstances builds every instance catalogue datasets/*/instances.toml
// into instances.arrow next to it and returns how many it built.
func buildInstances(root string, stderr io.Writer) (int, error) {
	srcs, err := filepath.Glob(filepath.Join(root, "datasets", "*", "instances.toml"))
	if err != nil {
		return 0, err
	}
	if err := buildSources(root, srcs, readInstanceSource, "instance types", stderr); err != nil {
		return 0, err
	}
	return len(srcs), nil
}

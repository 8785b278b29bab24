package importer

import (
	"fmt"
	"sort"
	"strings"

	"pslab/engine/dataset"
)

// unitFactors gives, per MeasurementSchema column with a unit, the units a
// measured CSV may declare and the factor that converts a value in that
// unit to the schema's unit (examples/s, examples or bytes). "images" and
// "samples" are accepted as names of examples (one example is one image in
// the papers' image-classification jobs).
var unitFactors = map[string]map[string]float64{
	"throughput":     rateUnits,
	"throughput_std": rateUnits,
	"batch":          exampleUnits,
	"batch_per_node": exampleUnits,
	"batch_per_gpu":  exampleUnits,
	"window":         {"bytes": 1, "B": 1, "KiB": 1 << 10, "MiB": 1 << 20, "KB": 1e3, "kB": 1e3, "MB": 1e6},
}

var exampleUnits = map[string]float64{"examples": 1, "images": 1, "samples": 1}

var rateUnits = map[string]float64{
	"examples/s": 1, "images/s": 1, "samples/s": 1,
	"examples/min": 1.0 / 60, "images/min": 1.0 / 60, "samples/min": 1.0 / 60,
	"examples/h": 1.0 / 3600, "images/h": 1.0 / 3600, "samples/h": 1.0 / 3600,
}

// unitRequired lists the columns whose unit must be declared: rates and
// sizes, where a wrong guess (per minute, KiB) silently scales the data.
// A batch is a count of examples and may omit its unit.
var unitRequired = map[string]bool{"throughput": true, "throughput_std": true, "window": true}

// splitUnit splits a header cell "throughput[examples/s]" or
// "throughput [examples/s]" into name and unit. A cell without brackets
// has an empty unit.
func splitUnit(cell string) (name, unit string, err error) {
	cell = strings.TrimSpace(cell)
	open := strings.IndexByte(cell, '[')
	if open < 0 {
		if strings.ContainsRune(cell, ']') {
			return "", "", fmt.Errorf("header %q: unbalanced ']'", cell)
		}
		return cell, "", nil
	}
	if !strings.HasSuffix(cell, "]") || strings.Count(cell, "[") != 1 || strings.Count(cell, "]") != 1 {
		return "", "", fmt.Errorf("header %q: want name[unit]", cell)
	}
	return strings.TrimSpace(cell[:open]), strings.TrimSpace(cell[open+1 : len(cell)-1]), nil
}

// isUnitRow reports whether a record is a unit row: every non-empty cell
// is enclosed in square brackets, and at least one cell is non-empty.
func isUnitRow(rec []string) bool {
	seen := false
	for _, c := range rec {
		c = strings.TrimSpace(c)
		if c == "" {
			continue
		}
		if len(c) < 2 || c[0] != '[' || c[len(c)-1] != ']' {
			return false
		}
		seen = true
	}
	return seen
}

// unitFactor returns the factor converting a value of column col in unit
// u to the schema unit. An empty unit is allowed only for columns that do
// not require one; a unit on a dimensionless column is an error.
func unitFactor(col, u string) (float64, error) {
	units, physical := unitFactors[col]
	switch {
	case !physical && u != "":
		return 0, fmt.Errorf("column %s is dimensionless, got unit [%s]", col, u)
	case !physical:
		return 1, nil
	case u == "" && unitRequired[col]:
		return 0, fmt.Errorf("column %s: no unit declared; write %s[%s] in the header or a unit row", col, col, schemaUnit(col))
	case u == "":
		return 1, nil
	}
	f, ok := units[u]
	if !ok {
		names := make([]string, 0, len(units))
		for n := range units {
			names = append(names, n)
		}
		sort.Strings(names)
		return 0, fmt.Errorf("column %s: unknown unit [%s] (want one of %s)", col, u, strings.Join(names, ", "))
	}
	return f, nil
}

// schemaUnit is the unit of a MeasurementSchema column.
func schemaUnit(col string) string {
	if i := dataset.MeasurementSchema.Index(col); i >= 0 {
		return dataset.MeasurementSchema.Columns[i].Unit
	}
	return ""
}

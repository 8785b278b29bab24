package kinds

import (
	"fmt"

	"pslab/engine/dataset"
)

// row returns the index of the row whose string column col equals name.
func row(t *dataset.Table, col, name string) (int, error) {
	for i, v := range t.Strings(col) {
		if v == name {
			return i, nil
		}
	}
	return -1, fmt.Errorf("no row with %s %q in %s", col, name, t.Schema.Name)
}

// column returns the column description, for reading a declared unit.
func column(t *dataset.Table, name string) (dataset.Column, error) {
	i := t.Schema.Index(name)
	if i < 0 {
		return dataset.Column{}, fmt.Errorf("%s has no column %q", t.Schema.Name, name)
	}
	return t.Schema.Columns[i], nil
}

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

package dataset

import (
	"fmt"
	"math"
	"slices"
)

// Table is the content of one dataset file: one Go slice per column
// ([]float64, []int64, []string or [][]int32, by column type).
type Table struct {
	Schema     *Schema
	Provenance Provenance
	cols       []any
}

// NewTable returns an empty table of schema s.
func NewTable(s *Schema, p Provenance) *Table {
	t := &Table{Schema: s, Provenance: p, cols: make([]any, len(s.Columns))}
	for i, c := range s.Columns {
		switch c.Type {
		case Float64:
			t.cols[i] = []float64{}
		case Int64:
			t.cols[i] = []int64{}
		case String:
			t.cols[i] = []string{}
		case Int32List:
			t.cols[i] = [][]int32{}
		}
	}
	return t
}

// Len returns the number of rows.
func (t *Table) Len() int {
	if len(t.cols) == 0 {
		return 0
	}
	switch c := t.cols[0].(type) {
	case []float64:
		return len(c)
	case []int64:
		return len(c)
	case []string:
		return len(c)
	case [][]int32:
		return len(c)
	}
	return 0
}

// Append adds one row. Values are given in column order: float64 (or an
// int, converted), int64 (or int), string, []int32. It returns an error if
// the count or a type does not match; the table is unchanged then.
func (t *Table) Append(vals ...any) error {
	if len(vals) != len(t.cols) {
		return fmt.Errorf("dataset: %s: row has %d values, schema has %d columns", t.Schema.Name, len(vals), len(t.cols))
	}
	for i, v := range vals {
		if !assignable(t.Schema.Columns[i].Type, v) {
			return fmt.Errorf("dataset: %s: column %q wants %s, got %T", t.Schema.Name, t.Schema.Columns[i].Name, t.Schema.Columns[i].Type, v)
		}
	}
	for i, v := range vals {
		switch c := t.cols[i].(type) {
		case []float64:
			t.cols[i] = append(c, toFloat(v))
		case []int64:
			t.cols[i] = append(c, toInt(v))
		case []string:
			t.cols[i] = append(c, v.(string))
		case [][]int32:
			t.cols[i] = append(c, slices.Clone(v.([]int32)))
		}
	}
	return nil
}

func assignable(typ Type, v any) bool {
	switch v.(type) {
	case float64:
		return typ == Float64
	case int, int64, int32:
		return typ == Int64 || typ == Float64
	case string:
		return typ == String
	case []int32:
		return typ == Int32List
	}
	return false
}

func toFloat(v any) float64 {
	switch x := v.(type) {
	case float64:
		return x
	case int:
		return float64(x)
	case int64:
		return float64(x)
	case int32:
		return float64(x)
	}
	panic("dataset: not a number")
}

func toInt(v any) int64 {
	switch x := v.(type) {
	case int:
		return int64(x)
	case int64:
		return x
	case int32:
		return int64(x)
	}
	panic("dataset: not an integer")
}

func (t *Table) col(name string, typ Type) any {
	i := t.Schema.Index(name)
	if i < 0 {
		panic(fmt.Sprintf("dataset: %s has no column %q", t.Schema.Name, name))
	}
	if t.Schema.Columns[i].Type != typ {
		panic(fmt.Sprintf("dataset: column %q is %s, not %s", name, t.Schema.Columns[i].Type, typ))
	}
	return t.cols[i]
}

// Floats returns the named float64 column. It panics if the schema has no
// such float64 column.
func (t *Table) Floats(name string) []float64 { return t.col(name, Float64).([]float64) }

// Ints returns the named int64 column. It panics if the schema has no such
// int64 column.
func (t *Table) Ints(name string) []int64 { return t.col(name, Int64).([]int64) }

// Strings returns the named string column. It panics if the schema has no
// such string column.
func (t *Table) Strings(name string) []string { return t.col(name, String).([]string) }

// Lists returns the named list<int32> column. It panics if the schema has
// no such column.
func (t *Table) Lists(name string) [][]int32 { return t.col(name, Int32List).([][]int32) }

// RowOf returns the index of the first row whose string column col equals
// value, or an error naming the column, the value and the table.
func (t *Table) RowOf(col, value string) (int, error) {
	for i, v := range t.Strings(col) {
		if v == value {
			return i, nil
		}
	}
	return -1, fmt.Errorf("no row with %s %q in %s", col, value, t.Schema.Name)
}

// Validate checks every value against its column's rule and returns an error
// naming the column and row of the first bad value.
func (t *Table) Validate() error {
	n := t.Len()
	for i, c := range t.Schema.Columns {
		if l := lenOf(t.cols[i]); l != n {
			return fmt.Errorf("column %q has %d rows, want %d", c.Name, l, n)
		}
		if err := checkColumn(c, t.cols[i]); err != nil {
			return err
		}
	}
	return nil
}

func lenOf(col any) int {
	switch c := col.(type) {
	case []float64:
		return len(c)
	case []int64:
		return len(c)
	case []string:
		return len(c)
	case [][]int32:
		return len(c)
	}
	return -1
}

func checkColumn(c Column, col any) error {
	bad := func(row int, format string, args ...any) error {
		return fmt.Errorf("column %q row %d: %s", c.Name, row, fmt.Sprintf(format, args...))
	}
	switch v := col.(type) {
	case []float64:
		for r, x := range v {
			switch {
			case math.IsNaN(x) || math.IsInf(x, 0):
				return bad(r, "%v is not a finite number", x)
			case c.Rule == NonNegative && x < 0:
				return bad(r, "negative value %v %s", x, c.Unit)
			case c.Rule == Positive && x <= 0:
				return bad(r, "value %v %s is not positive", x, c.Unit)
			}
		}
	case []int64:
		for r, x := range v {
			switch {
			case c.Rule == NonNegative && x < 0:
				return bad(r, "negative value %d %s", x, c.Unit)
			case c.Rule == Positive && x <= 0:
				return bad(r, "value %d %s is not positive", x, c.Unit)
			}
		}
	case []string:
		if c.Rule == Enum {
			for r, x := range v {
				if !slices.Contains(c.Values, x) {
					return bad(r, "unknown value %q (want one of %v)", x, c.Values)
				}
			}
		}
	case [][]int32:
		for r, l := range v {
			for _, x := range l {
				if c.Rule == NonNegative && x < 0 {
					return bad(r, "negative element %d", x)
				}
			}
		}
	}
	return nil
}

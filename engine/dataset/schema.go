package dataset

import (
	"fmt"

	"github.com/apache/arrow/go/v17/arrow"
)

// Type is the type of a column.
type Type uint8

// Column types.
const (
	Float64 Type = iota
	Int64
	String
	Int32List // list<int32>, e.g. operation dependencies
)

var typeNames = [...]string{"float64", "int64", "string", "list<int32>"}

func (t Type) String() string {
	if int(t) < len(typeNames) {
		return typeNames[t]
	}
	return fmt.Sprintf("type(%d)", int(t))
}

// ParseType parses "float64", "int64", "string" or "list<int32>".
func ParseType(s string) (Type, error) {
	for i, n := range typeNames {
		if n == s {
			return Type(i), nil
		}
	}
	return 0, fmt.Errorf("unknown column type %q (want float64, int64, string or list<int32>)", s)
}

func (t Type) arrow() arrow.DataType {
	switch t {
	case Float64:
		return arrow.PrimitiveTypes.Float64
	case Int64:
		return arrow.PrimitiveTypes.Int64
	case String:
		return arrow.BinaryTypes.String
	case Int32List:
		return arrow.ListOf(arrow.PrimitiveTypes.Int32)
	}
	panic("dataset: unknown column type " + t.String())
}

// Rule is a value rule checked when a table is read or written.
type Rule uint8

// Value rules. Every float64 column is also required to be finite.
const (
	Any         Rule = iota
	NonNegative      // numbers ≥ 0, e.g. durations, bytes, throughput
	Positive         // numbers > 0, e.g. batch sizes, worker counts
	Enum             // strings from Column.Values
)

// Column describes one column.
type Column struct {
	Name string
	Type Type
	// Unit is the physical unit of the values, e.g. "ns", "bytes",
	// "examples/s"; empty for dimensionless values and names.
	Unit string
	Rule Rule
	// Values lists the allowed strings of an Enum column.
	Values []string
	// Doc says what the column holds.
	Doc string
}

// Schema is a named list of columns.
type Schema struct {
	Name    string
	Columns []Column
}

// Index returns the position of the named column, or -1.
func (s *Schema) Index(name string) int {
	for i, c := range s.Columns {
		if c.Name == name {
			return i
		}
	}
	return -1
}

// arrowSchema returns the Arrow schema with the provenance as metadata.
// Column units are recorded in the metadata as "unit.<column>".
func (s *Schema) arrowSchema(p Provenance) *arrow.Schema {
	fields := make([]arrow.Field, len(s.Columns))
	for i, c := range s.Columns {
		fields[i] = arrow.Field{Name: c.Name, Type: c.Type.arrow()}
	}
	md := p.metadata(s)
	return arrow.NewSchema(fields, &md)
}

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
	// "examples/s", or "1" for a ratio or fraction; empty for names and
	// counts, and where no single unit applies (a result axis whose series
	// carry different units: the label then names each). It is written as
	// the Arrow field metadata "unit" and as the schema metadata
	// "unit.<column>".
	Unit string
	// Label is the axis label a figure prints for the column, unit
	// included (e.g. "throughput (examples/s)"); set on result tables only,
	// written as the Arrow field metadata "label".
	Label string
	Rule  Rule
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

// WithColumn returns a copy of s in which the named column has unit and
// label (see Column). It panics if s has no such column.
func (s *Schema) WithColumn(name, unit, label string) *Schema {
	i := s.Index(name)
	if i < 0 {
		panic(fmt.Sprintf("dataset: schema %s has no column %q", s.Name, name))
	}
	c := *s
	c.Columns = append([]Column(nil), s.Columns...)
	c.Columns[i].Unit, c.Columns[i].Label = unit, label
	return &c
}

// arrowSchema returns the Arrow schema with the provenance as metadata.
// A column's unit is recorded twice: as the field metadata "unit" (where
// Arrow readers look for a column's properties) and as the schema
// metadata "unit.<column>" (which Parquet keeps as key-value metadata
// every Parquet reader sees); its label as the field metadata "label".
func (s *Schema) arrowSchema(p Provenance) *arrow.Schema {
	fields := make([]arrow.Field, len(s.Columns))
	for i, c := range s.Columns {
		fields[i] = arrow.Field{Name: c.Name, Type: c.Type.arrow(), Metadata: c.fieldMetadata()}
	}
	md := p.metadata(s)
	return arrow.NewSchema(fields, &md)
}

// fieldMetadata is the column's Arrow field metadata: "label" and "unit"
// where set, in that (sorted) order so that files are byte-stable.
func (c Column) fieldMetadata() arrow.Metadata {
	var keys, vals []string
	if c.Label != "" {
		keys, vals = append(keys, "label"), append(vals, c.Label)
	}
	if c.Unit != "" {
		keys, vals = append(keys, "unit"), append(vals, c.Unit)
	}
	return arrow.NewMetadata(keys, vals)
}

package dataset

import (
	"errors"
	"fmt"
	"os"
	"slices"

	"github.com/apache/arrow/go/v17/arrow"
	"github.com/apache/arrow/go/v17/arrow/array"
	"github.com/apache/arrow/go/v17/arrow/ipc"
	"github.com/apache/arrow/go/v17/arrow/memory"
)

// Read opens the Arrow IPC file at path, checks that it has every column of
// s with the right type (extra columns are ignored), copies the columns into
// a Table and validates every value. Errors name the file, the column and,
// for a bad value, the row.
func Read(path string, s *Schema, mem memory.Allocator) (*Table, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	t, err := Decode(b, s, mem)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return t, nil
}

// Decode is Read on the bytes of an Arrow IPC file. A nil schema accepts
// the file's own columns (float64, int64, string and list<int32> only).
//
// Decode never panics on bad bytes: it takes the guarded path of
// withFileReader (magic and footer checked first, allocation bounded by
// decodeLimit, a panic inside the Arrow library turned into an error) and
// validates every buffer and offset before reading a value.
func Decode(b []byte, s *Schema, mem memory.Allocator) (*Table, error) {
	var t *Table
	err := withFileReader(b, mem, func(r *ipc.FileReader) (err error) {
		t, err = decodeTable(r, s)
		return err
	})
	if err != nil {
		return nil, err
	}
	return t, nil
}

// decodeTable copies the columns of s (all of the file's if s is nil)
// from every record batch of r into a validated Table.
func decodeTable(r *ipc.FileReader, s *Schema) (*Table, error) {
	as := r.Schema()
	name, prov := provenanceFrom(as.Metadata())
	if s == nil {
		var err error
		if s, err = schemaOf(name, as); err != nil {
			return nil, err
		}
	}
	idx := make([]int, len(s.Columns))
	for i, c := range s.Columns {
		j := as.FieldIndices(c.Name)
		if len(j) == 0 {
			return nil, fmt.Errorf("schema %s: missing column %q (%s)", s.Name, c.Name, c.Type)
		}
		if got := as.Field(j[0]).Type; !arrow.TypeEqual(got, c.Type.arrow()) {
			return nil, fmt.Errorf("schema %s: column %q has type %s, want %s", s.Name, c.Name, got, c.Type)
		}
		idx[i] = j[0]
	}
	t := NewTable(s, prov)
	for k := 0; k < r.NumRecords(); k++ {
		rec, err := r.RecordAt(k)
		if err != nil {
			return nil, fmt.Errorf("record batch %d: %w", k, err)
		}
		err = t.appendRecord(rec, idx)
		rec.Release()
		if err != nil {
			return nil, err
		}
	}
	if err := t.Validate(); err != nil {
		return nil, err
	}
	return t, nil
}

// appendRecord validates the columns idx of rec and appends their values.
func (t *Table) appendRecord(rec arrow.Record, idx []int) error {
	for i, j := range idx {
		if j < 0 || int64(j) >= rec.NumCols() {
			return fmt.Errorf("column %q: record batch has %d columns", t.Schema.Columns[i].Name, rec.NumCols())
		}
		a := rec.Column(j)
		if err := validateArray(a.Data(), t.Schema.Columns[i].Type); err != nil {
			return fmt.Errorf("column %q: %w", t.Schema.Columns[i].Name, err)
		}
		if a.NullN() > 0 {
			for r := 0; r < a.Len(); r++ {
				if a.IsNull(r) {
					return fmt.Errorf("column %q row %d: null value", t.Schema.Columns[i].Name, t.Len()+r)
				}
			}
		}
		switch v := t.cols[i].(type) {
		case []float64:
			t.cols[i] = append(v, a.(*array.Float64).Float64Values()...)
		case []int64:
			t.cols[i] = append(v, a.(*array.Int64).Int64Values()...)
		case []string:
			sa := a.(*array.String)
			v = slices.Grow(v, sa.Len()) // growing by append was half the cost of a read
			for r := 0; r < sa.Len(); r++ {
				v = append(v, sa.Value(r))
			}
			t.cols[i] = v
		case [][]int32:
			la := a.(*array.List)
			vals := la.ListValues().(*array.Int32)
			offs := la.Offsets()
			v = slices.Grow(v, la.Len())
			for r := 0; r < la.Len(); r++ {
				var l []int32 // nil for an empty list, as Go code writes it
				for k := offs[r]; k < offs[r+1]; k++ {
					l = append(l, vals.Value(int(k)))
				}
				v = append(v, l)
			}
			t.cols[i] = v
		}
	}
	return nil
}

// schemaOf describes an Arrow schema in pslab's column types.
func schemaOf(name string, as *arrow.Schema) (*Schema, error) {
	s := &Schema{Name: name}
	for _, f := range as.Fields() {
		typ, ok := typeOf(f.Type)
		if !ok {
			return nil, fmt.Errorf("column %q has unsupported type %s", f.Name, f.Type)
		}
		// The field's own unit first; files written before units were
		// field metadata carry it in the schema metadata only.
		unit, label := fieldValue(f, "unit"), fieldValue(f, "label")
		if md := as.Metadata(); unit == "" && md.FindKey("unit."+f.Name) >= 0 {
			unit = md.Values()[md.FindKey("unit."+f.Name)]
		}
		s.Columns = append(s.Columns, Column{Name: f.Name, Type: typ, Unit: unit, Label: label})
	}
	if len(s.Columns) == 0 {
		return nil, errors.New("file has no columns")
	}
	return s, nil
}

// fieldValue returns the value of key in f's metadata, or "".
func fieldValue(f arrow.Field, key string) string {
	if i := f.Metadata.FindKey(key); i >= 0 {
		return f.Metadata.Values()[i]
	}
	return ""
}

// ReadAny reads a pslab Arrow file with whatever columns it has.
func ReadAny(path string, mem memory.Allocator) (*Table, error) {
	return Read(path, nil, mem)
}

// Allocator is the allocator pslab uses outside tests.
var Allocator memory.Allocator = memory.DefaultAllocator

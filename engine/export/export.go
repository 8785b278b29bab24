// Package export writes pslab's Arrow IPC datasets in two other formats a
// reader may prefer: Parquet, through arrow/go's pqarrow, with the Arrow
// schema metadata (pslab.schema, units as unit.<column>, provenance keys)
// kept as Parquet key-value metadata and the Arrow schema (field metadata
// included: each column's unit and label) stored so that Arrow → Parquet
// → Arrow gives back the same table, and a REQUIRED root schema element,
// which every Parquet reader accepts; and CSV, one header line whose names
// carry the unit as name[unit] (the form pslab import measured-csv
// reads), every column kept (a result table's interval columns y_lo and
// y_hi among them), list columns written as {1,2,3}.
//
// Outputs are byte-stable: the same Arrow file gives the same bytes.
package export

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/apache/arrow/go/v17/arrow"
	"github.com/apache/arrow/go/v17/arrow/array"
	"github.com/apache/arrow/go/v17/arrow/memory"
	"github.com/apache/arrow/go/v17/parquet"
	"github.com/apache/arrow/go/v17/parquet/compress"
	"github.com/apache/arrow/go/v17/parquet/file"
	"github.com/apache/arrow/go/v17/parquet/pqarrow"

	"pslab/engine/atomicfile"
	"pslab/engine/dataset"
)

// Formats are the values File accepts.
var Formats = []string{"parquet", "csv"}

// ReadArrow reads an Arrow IPC file as one table. The caller releases it.
//
// It is dataset.DecodeArrow, the guarded reader pslab run and pslab check
// use too: damaged bytes give an error (never a panic), the columns are
// validated before a value is read, and Parquet, CSV or JSON given where
// Arrow is expected is named for what it is, with the command that
// converts it.
func ReadArrow(b []byte, mem memory.Allocator) (arrow.Table, error) {
	return dataset.DecodeArrow(b, mem)
}

// Parquet writes t as a Parquet file (Snappy-compressed column chunks of
// at most 64 Ki rows) with t's schema metadata as key-value metadata. The
// root schema element is REQUIRED: arrow-go's default, REPEATED
// (apache/arrow-go#722), is rejected by readers that follow the format's
// rule that the root has no repetition (hyparquet fails reading
// repetition levels).
func Parquet(w io.Writer, t arrow.Table, mem memory.Allocator) error {
	props := parquet.NewWriterProperties(parquet.WithAllocator(mem),
		parquet.WithCompression(compress.Codecs.Snappy), parquet.WithMaxRowGroupLength(64*1024),
		parquet.WithRootRepetition(parquet.Repetitions.Required))
	arrProps := pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema(), pqarrow.WithAllocator(mem))
	fw, err := pqarrow.NewFileWriter(t.Schema(), w, props, arrProps)
	if err != nil {
		return fmt.Errorf("parquet: %w", err)
	}
	if err := fw.WriteTable(t, 64*1024); err != nil {
		fw.Close()
		return fmt.Errorf("parquet: %w", err)
	}
	return fw.Close()
}

// ReadParquet reads a Parquet file written by Parquet back as an Arrow
// table with its schema metadata. The caller releases it.
func ReadParquet(b []byte, mem memory.Allocator) (arrow.Table, error) {
	rdr, err := file.NewParquetReader(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("parquet: %w", err)
	}
	defer rdr.Close()
	fr, err := pqarrow.NewFileReader(rdr, pqarrow.ArrowReadProperties{}, mem)
	if err != nil {
		return nil, fmt.Errorf("parquet: %w", err)
	}
	t, err := fr.ReadTable(context.Background())
	if err != nil {
		return nil, fmt.Errorf("parquet: %w", err)
	}
	defer t.Release()
	// pqarrow v17 does not put the key-value metadata back on the schema.
	kv := rdr.MetaData().KeyValueMetadata()
	var keys, vals []string
	for i, k := range kv.Keys() {
		if k != "ARROW:schema" {
			keys, vals = append(keys, k), append(vals, kv.Values()[i])
		}
	}
	return withoutFieldIDs(t, arrow.NewMetadata(keys, vals)), nil
}

// withoutFieldIDs returns t with schema metadata md and without the
// PARQUET:field_id field metadata the reader adds (pslab's fields carry
// none).
func withoutFieldIDs(t arrow.Table, md arrow.Metadata) arrow.Table {
	fields := t.Schema().Fields()
	cols := make([]arrow.Column, len(fields))
	for i := range fields {
		md := fields[i].Metadata
		var keys, vals []string
		for k, key := range md.Keys() {
			if key != "PARQUET:field_id" {
				keys, vals = append(keys, key), append(vals, md.Values()[k])
			}
		}
		fields[i].Metadata = arrow.NewMetadata(keys, vals)
		col := arrow.NewColumn(fields[i], t.Column(i).Data())
		cols[i] = *col
		defer col.Release()
	}
	return array.NewTable(arrow.NewSchema(fields, &md), cols, t.NumRows())
}

// CSV writes t as CSV (RFC 4180) with a header line of name[unit] (name
// alone for a column without unit); floats in the shortest form that reads
// back exactly, lists as {1,2,3}, nulls as empty fields. A column's unit
// is its field metadata "unit", else the schema metadata "unit.<column>"
// (files written before units were field metadata).
func CSV(w io.Writer, t arrow.Table) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	var line []byte
	for i, f := range t.Schema().Fields() {
		name := f.Name
		if u := Unit(t.Schema(), i); u != "" {
			name += "[" + u + "]"
		}
		if i > 0 {
			line = append(line, ',')
		}
		line = appendField(line, name)
	}
	bw.Write(append(line, '\n'))
	tr := array.NewTableReader(t, 64*1024)
	defer tr.Release()
	for tr.Next() {
		rec := tr.Record()
		for r := 0; r < int(rec.NumRows()); r++ {
			line = line[:0]
			for c, col := range rec.Columns() {
				if c > 0 {
					line = append(line, ',')
				}
				line = appendValue(line, col, r)
			}
			if _, err := bw.Write(append(line, '\n')); err != nil {
				return fmt.Errorf("csv: %w", err)
			}
		}
	}
	if err := tr.Err(); err != nil {
		return fmt.Errorf("csv: %w", err)
	}
	return bw.Flush()
}

// Unit returns the unit of field i of s: its field metadata "unit", else
// the schema metadata "unit.<name>", else "".
func Unit(s *arrow.Schema, i int) string {
	f := s.Field(i)
	if k := f.Metadata.FindKey("unit"); k >= 0 {
		return f.Metadata.Values()[k]
	}
	md := s.Metadata()
	if k := md.FindKey("unit." + f.Name); k >= 0 {
		return md.Values()[k]
	}
	return ""
}

// appendValue appends row r of a as one CSV field.
func appendValue(b []byte, a arrow.Array, r int) []byte {
	if a.IsNull(r) {
		return b
	}
	switch a := a.(type) {
	case *array.Float64:
		return strconv.AppendFloat(b, a.Value(r), 'g', -1, 64)
	case *array.Int64:
		return strconv.AppendInt(b, a.Value(r), 10)
	case *array.Int32:
		return strconv.AppendInt(b, int64(a.Value(r)), 10)
	case *array.String:
		return appendField(b, a.Value(r))
	case *array.List:
		vals, ok := a.ListValues().(*array.Int32)
		if !ok {
			break
		}
		lo, hi := a.ValueOffsets(r)
		b = append(b, '"', '{')
		for k := lo; k < hi; k++ {
			if k > lo {
				b = append(b, ',')
			}
			b = strconv.AppendInt(b, int64(vals.Value(int(k))), 10)
		}
		return append(b, '}', '"')
	}
	return appendField(b, a.ValueStr(r))
}

// appendField appends s, quoted if it holds a comma, quote or line break.
func appendField(b []byte, s string) []byte {
	if !strings.ContainsAny(s, ",\"\r\n") && strings.TrimSpace(s) == s {
		return append(b, s...)
	}
	b = append(b, '"')
	b = append(b, strings.ReplaceAll(s, `"`, `""`)...)
	return append(b, '"')
}

// File converts the Arrow IPC file in to format ("parquet" or "csv") and
// writes it atomically to out, gzip-compressed when out ends in ".gz".
// Errors name the input file.
func File(format, in, out string, mem memory.Allocator) error {
	b, err := Convert(format, in, mem)
	if err != nil {
		return err
	}
	if strings.HasSuffix(out, ".gz") {
		if b, err = Gzip(b); err != nil {
			return err
		}
	}
	return atomicfile.Write(out, b)
}

// Gzip returns b gzip-compressed (default level, no name or time in the
// header, so the same bytes always compress to the same file).
func Gzip(b []byte) ([]byte, error) {
	var z bytes.Buffer
	w := gzip.NewWriter(&z)
	if _, err := w.Write(b); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return z.Bytes(), nil
}

// Convert returns the Arrow IPC file in converted to format.
func Convert(format, in string, mem memory.Allocator) ([]byte, error) {
	if format != "parquet" && format != "csv" {
		return nil, fmt.Errorf("export: format %q (want parquet or csv)", format)
	}
	raw, err := os.ReadFile(in)
	if err != nil {
		return nil, err
	}
	t, err := ReadArrow(raw, mem)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", in, err)
	}
	defer t.Release()
	var b bytes.Buffer
	if format == "parquet" {
		err = Parquet(&b, t, mem)
	} else {
		err = CSV(&b, t)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", in, err)
	}
	return b.Bytes(), nil
}

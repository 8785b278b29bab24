package export

import (
	"bytes"
	"io"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow/go/v17/arrow"
	"github.com/apache/arrow/go/v17/arrow/array"
	"github.com/apache/arrow/go/v17/arrow/memory"
	pq "github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"
	"github.com/stretchr/testify/require"

	"pslab/engine/dataset"
)

// TestParquetOtherReader reads the Parquet that Parquet writes with a
// second, independent implementation (parquet-go, which shares no code
// with arrow-go's pqarrow): the root schema element is not REPEATED (the
// arrow-go default other readers reject), the top-level columns are the
// Arrow columns in order, every value of every row equals the Arrow one
// (lists included), and the Arrow schema metadata (units as unit.<column>,
// provenance) is there as key-value metadata.
func TestParquetOtherReader(t *testing.T) {
	t.Parallel()
	for _, f := range files {
		t.Run(filepath.Base(filepath.Dir(f))+"/"+filepath.Base(f), func(t *testing.T) {
			t.Parallel()
			raw, err := os.ReadFile(f)
			require.NoError(t, err)
			checkOtherReader(t, raw)
		})
	}
	t.Run("result-with-units", func(t *testing.T) {
		t.Parallel()
		checkOtherReader(t, resultWithUnits(t))
	})
}

// resultWithUnits is an Arrow result table whose x, y, y_lo and y_hi
// carry units and labels as field metadata, as the experiment runner
// writes them.
func resultWithUnits(t *testing.T) []byte {
	s := dataset.ResultSchema.WithColumn("x", "count", "workers (count)").
		WithColumn("y", "examples/s", "throughput (examples/s)").
		WithColumn("y_lo", "examples/s", "").WithColumn("y_hi", "examples/s", "")
	tab := dataset.NewTable(s, dataset.Provenance{Origin: dataset.Derived, Source: "test"})
	require.NoError(t, tab.Append("sim", "", 1, 10.5, 10, 11, "icpe20-simulator", dataset.Derived, 0.05))
	require.NoError(t, tab.Append("measured", "", 2, 19, 18.5, 19.5, "measurement", dataset.Measured, 0))
	b, err := dataset.Encode(tab, memory.DefaultAllocator)
	require.NoError(t, err)
	return b
}

func checkOtherReader(t *testing.T, arrowFile []byte) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	want, err := ReadArrow(arrowFile, mem)
	require.NoError(t, err)
	defer want.Release()
	var b bytes.Buffer
	require.NoError(t, Parquet(&b, want, mem))

	pf, err := pq.OpenFile(bytes.NewReader(b.Bytes()), int64(b.Len()))
	require.NoError(t, err)
	root := pf.Metadata().Schema[0]
	rep, set := root.RepetitionType.Get()
	require.True(t, !set || rep == format.Required, "root schema element is %v, want REQUIRED or unset", rep)

	fields := pf.Schema().Fields()
	require.Len(t, fields, int(want.NumCols()))
	for i, fld := range fields {
		require.Equal(t, want.Schema().Field(i).Name, fld.Name())
	}
	require.Equal(t, want.NumRows(), pf.NumRows())

	md := want.Schema().Metadata()
	for i, k := range md.Keys() {
		v, ok := pf.Lookup(k)
		require.True(t, ok, "key-value metadata %q missing", k)
		require.Equal(t, md.Values()[i], v, "key-value metadata %q", k)
	}
	for i := range want.Schema().Fields() {
		if u := Unit(want.Schema(), i); u != "" {
			v, _ := pf.Lookup("unit." + want.Schema().Field(i).Name)
			require.Equal(t, u, v, "unit of %s", want.Schema().Field(i).Name)
		}
	}

	got := readRows(t, pf)
	require.Len(t, got, int(want.NumRows()))
	for c := 0; c < int(want.NumCols()); c++ {
		col := want.Column(c).Data()
		r := 0
		for _, chunk := range col.Chunks() {
			for k := 0; k < chunk.Len(); k, r = k+1, r+1 {
				require.Equal(t, arrowValues(chunk, k), got[r][c], "column %s row %d", want.Schema().Field(c).Name, r)
			}
		}
	}
}

// readRows returns every row of pf as, per top-level column, its non-null
// leaf values (one for a scalar, the elements of a list) in a comparable
// form: float64 bits, int64, string.
func readRows(t *testing.T, pf *pq.File) [][][]any {
	ncols := len(pf.Schema().Fields())
	var out [][][]any
	for _, rg := range pf.RowGroups() {
		rows := rg.Rows()
		buf := make([]pq.Row, 128)
		for {
			n, err := rows.ReadRows(buf)
			for _, row := range buf[:n] {
				vals := make([][]any, ncols)
				for _, v := range row {
					// Every pslab column is one leaf, so leaf index =
					// top-level column index.
					c := v.Column()
					if !v.IsNull() {
						vals[c] = append(vals[c], parquetValue(v))
					}
				}
				out = append(out, vals)
			}
			if err != nil {
				require.ErrorIs(t, err, io.EOF)
				break
			}
		}
		require.NoError(t, rows.Close())
	}
	return out
}

func parquetValue(v pq.Value) any {
	switch v.Kind() {
	case pq.Double:
		return math.Float64bits(v.Double())
	case pq.Int64:
		return v.Int64()
	case pq.Int32:
		return int64(v.Int32())
	case pq.ByteArray:
		return string(v.ByteArray())
	}
	return v.String()
}

// arrowValues is row k of a in the form of parquetValue.
func arrowValues(a arrow.Array, k int) []any {
	switch a := a.(type) {
	case *array.Float64:
		return []any{math.Float64bits(a.Value(k))}
	case *array.Int64:
		return []any{a.Value(k)}
	case *array.String:
		return []any{a.Value(k)}
	case *array.List:
		vals := a.ListValues().(*array.Int32)
		lo, hi := a.ValueOffsets(k)
		var out []any
		for i := lo; i < hi; i++ {
			out = append(out, int64(vals.Value(int(i))))
		}
		return out
	}
	panic("export test: unexpected column type " + a.DataType().String())
}

// TestUnitsAndIntervalsKept exports a result table whose columns carry
// units as field metadata: Parquet read back by pqarrow keeps each
// field's unit and label, and the CSV header names every column with its
// unit, the interval columns y_lo and y_hi included.
func TestUnitsAndIntervalsKept(t *testing.T) {
	t.Parallel()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	want, err := ReadArrow(resultWithUnits(t), mem)
	require.NoError(t, err)
	defer want.Release()
	var b bytes.Buffer
	require.NoError(t, Parquet(&b, want, mem))
	got, err := ReadParquet(b.Bytes(), mem)
	require.NoError(t, err)
	defer got.Release()
	for i, f := range want.Schema().Fields() {
		require.Equal(t, f.Metadata, got.Schema().Field(i).Metadata, "field %s", f.Name)
	}
	x := got.Schema().Field(got.Schema().FieldIndices("x")[0])
	require.Equal(t, "count", x.Metadata.Values()[x.Metadata.FindKey("unit")])
	require.Equal(t, "workers (count)", x.Metadata.Values()[x.Metadata.FindKey("label")])

	var c bytes.Buffer
	require.NoError(t, CSV(&c, want))
	header, _, _ := bytes.Cut(c.Bytes(), []byte("\n"))
	require.Equal(t, "series,category,x[count],y[examples/s],y_lo[examples/s],y_hi[examples/s],model,origin,error[1]", string(header))
}

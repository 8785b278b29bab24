package dataset

import (
	"bytes"
	"testing"

	"github.com/apache/arrow/go/v17/arrow"
	"github.com/apache/arrow/go/v17/arrow/array"
	"github.com/apache/arrow/go/v17/arrow/ipc"
	"github.com/apache/arrow/go/v17/arrow/memory"
	"github.com/stretchr/testify/require"
)

// TestUnitsAsFieldMetadata: a column's unit is written as its Arrow field
// metadata "unit" (and its label as "label") and as the schema metadata
// "unit.<column>"; a schema-less read takes both back.
func TestUnitsAsFieldMetadata(t *testing.T) {
	t.Parallel()
	mem := checked(t)
	in := sampleResult()
	in.Schema = ResultSchema.WithColumn("x", "count", "workers (count)").WithColumn("y", "examples/s", "throughput (examples/s)")
	b, err := Encode(in, mem)
	require.NoError(t, err)

	r, err := ipc.NewFileReader(bytes.NewReader(b), ipc.WithAllocator(mem))
	require.NoError(t, err)
	defer r.Close()
	s := r.Schema()
	field := func(name string) arrow.Field { return s.Field(s.FieldIndices(name)[0]) }
	require.Equal(t, arrow.NewMetadata([]string{"label", "unit"}, []string{"workers (count)", "count"}), field("x").Metadata)
	require.Equal(t, arrow.NewMetadata([]string{"label", "unit"}, []string{"throughput (examples/s)", "examples/s"}), field("y").Metadata)
	require.Equal(t, arrow.NewMetadata([]string{"unit"}, []string{"1"}), field("error").Metadata)
	require.Equal(t, 0, field("series").Metadata.Len(), "a name has no unit")
	md := s.Metadata()
	require.Equal(t, "examples/s", md.Values()[md.FindKey("unit.y")])

	back, err := Decode(b, nil, mem)
	require.NoError(t, err)
	x := back.Schema.Columns[back.Schema.Index("x")]
	require.Equal(t, "count", x.Unit)
	require.Equal(t, "workers (count)", x.Label)

	// WithColumn copies: the shared schema keeps its columns.
	require.Empty(t, ResultSchema.Columns[ResultSchema.Index("x")].Unit)
	require.PanicsWithValue(t, `dataset: schema result has no column "nope"`, func() { ResultSchema.WithColumn("nope", "s", "") })
}

// TestUnitsFromSchemaMetadata: a file written before units were field
// metadata (unit.<column> in the schema metadata only) still gives each
// column its unit.
func TestUnitsFromSchemaMetadata(t *testing.T) {
	t.Parallel()
	mem := checked(t)
	md := arrow.NewMetadata([]string{"pslab.schema", "unit.throughput"}, []string{"measurement", "examples/s"})
	schema := arrow.NewSchema([]arrow.Field{{Name: "throughput", Type: arrow.PrimitiveTypes.Float64}}, &md)
	bld := array.NewRecordBuilder(mem, schema)
	defer bld.Release()
	bld.Field(0).(*array.Float64Builder).AppendValues([]float64{1, 2}, nil)
	rec := bld.NewRecord()
	defer rec.Release()
	var buf seekBuffer
	w, err := ipc.NewFileWriter(&buf, ipc.WithSchema(schema), ipc.WithAllocator(mem))
	require.NoError(t, err)
	require.NoError(t, w.Write(rec))
	require.NoError(t, w.Close())

	// Files of that age also predate content digests: refused until
	// `pslab datasets -add-digest` (AddDigest) adds one.
	_, err = Decode(buf.b, nil, memory.DefaultAllocator)
	require.ErrorContains(t, err, "-add-digest")
	b, err := AddDigest(buf.b, memory.DefaultAllocator)
	require.NoError(t, err)
	back, err := Decode(b, nil, memory.DefaultAllocator)
	require.NoError(t, err)
	require.Equal(t, "examples/s", back.Schema.Columns[0].Unit)
	require.Equal(t, []float64{1, 2}, back.Floats("throughput"))
}

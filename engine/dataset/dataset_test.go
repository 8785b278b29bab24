package dataset

import (
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow/go/v17/arrow/memory"
	"github.com/stretchr/testify/require"

	"pslab/engine/trace"
)

func checked(t *testing.T) memory.Allocator {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	t.Cleanup(func() { mem.AssertSize(t, 0) })
	return mem
}

func sampleResult() *Table {
	t := NewTable(ResultSchema, Provenance{Origin: Derived, Source: "unit test", Command: "go test"})
	for i := 1; i <= 3; i++ {
		_ = t.Append("exact", "", i, float64(i)*1.5, float64(i), float64(i)*2, "mva", Derived, 0.0)
	}
	return t
}

func TestRoundTripAndProvenance(t *testing.T) {
	t.Parallel()
	mem := checked(t)
	path := filepath.Join(t.TempDir(), "sub", "r.arrow")
	in := sampleResult()
	in.Provenance.Extra = map[string]string{"bandwidth": "1e9"}
	require.NoError(t, Write(path, in, mem))
	out, err := Read(path, ResultSchema, mem)
	require.NoError(t, err)
	require.Equal(t, in.Floats("y"), out.Floats("y"))
	require.Equal(t, in.Strings("series"), out.Strings("series"))
	require.Equal(t, "unit test", out.Provenance.Source)
	require.Equal(t, Derived, out.Provenance.Origin)
	require.Equal(t, "1e9", out.Provenance.Extra["bandwidth"])

	// Same table, same bytes.
	a, err := Encode(in, mem)
	require.NoError(t, err)
	b, err := Encode(in, mem)
	require.NoError(t, err)
	require.Equal(t, a, b)

	// Schema-less read sees every column with its unit.
	any, err := ReadAny(path, mem)
	require.NoError(t, err)
	require.Equal(t, len(ResultSchema.Columns), len(any.Schema.Columns))
}

func TestReadReportsFileColumnRow(t *testing.T) {
	t.Parallel()
	mem := checked(t)
	dir := t.TempDir()
	bad := NewTable(MeasurementSchema, Provenance{})
	require.NoError(t, bad.Append("s", "p", "alexnet", 4, 1, 1, "asp", "multiplexed", "default", 10.0, 0.0, 50, 0))
	require.NoError(t, bad.Append("s", "p", "alexnet", 4, 2, 1, "asp", "multiplexed", "default", math.NaN(), 0.0, 50, 0))
	_, err := Encode(bad, mem)
	require.ErrorContains(t, err, `column "throughput" row 1: NaN is not a finite number`)

	// A file with a wrong schema.
	path := filepath.Join(dir, "res.arrow")
	require.NoError(t, Write(path, sampleResult(), mem))
	_, err = Read(path, MeasurementSchema, mem)
	require.ErrorContains(t, err, path+": schema measurement: missing column \"source\"")

	// Not an Arrow file.
	junk := filepath.Join(dir, "junk.arrow")
	require.NoError(t, os.WriteFile(junk, []byte("hello"), 0o644))
	_, err = Read(junk, ResultSchema, mem)
	require.ErrorContains(t, err, junk+": not an Arrow IPC file")

	_, err = Read(filepath.Join(dir, "missing.arrow"), ResultSchema, mem)
	require.ErrorContains(t, err, "missing.arrow")
}

func TestTraceRoundTripAndValidation(t *testing.T) {
	t.Parallel()
	mem := checked(t)
	tr := &trace.Trace{Meta: trace.Meta{Model: "toy", Batch: 4, Bandwidth: 125e6, Window: 3, Servers: 1},
		Steps: []trace.Step{{Ops: []trace.Op{
			{Name: "w/down", Resource: trace.Resource{Kind: trace.Downlink}, End: 10, Bytes: 8},
			{Name: "fwd", Resource: trace.Resource{Kind: trace.Worker}, Start: 10, End: 20, Deps: []int32{0}},
			{Name: "w/up", Resource: trace.Resource{Kind: trace.Uplink}, Start: 20, End: 30, Bytes: 8, Deps: []int32{1}},
		}}}}
	b, err := Encode(FromTrace(tr, Provenance{Origin: Derived}), mem)
	require.NoError(t, err)
	tab, err := Decode(b, TraceSchema, mem)
	require.NoError(t, err)
	back, err := ToTrace(tab)
	require.NoError(t, err)
	require.Equal(t, tr.Steps, back.Steps)
	require.Equal(t, tr.Meta, back.Meta)

	// A negative duration and an unknown resource are reported with row.
	tab.Ints("end_ns")[1] = 5
	_, err = ToTrace(tab)
	require.ErrorContains(t, err, `op 1 "fwd": negative duration`)
	tab.Ints("end_ns")[1] = 20
	tab.Strings("resource")[2] = "gpu"
	_, err = Encode(tab, mem)
	require.ErrorContains(t, err, `column "resource" row 2: unknown value "gpu"`)
}

func TestAppendRejectsWrongTypes(t *testing.T) {
	t.Parallel()
	tab := NewTable(ResultSchema, Provenance{})
	require.ErrorContains(t, tab.Append("a"), "row has 1 values")
	require.ErrorContains(t, tab.Append(1, "", 1.0, 1.0, 1.0, 1.0, "m", Derived, 0.0), `column "series" wants string`)
	require.Equal(t, 0, tab.Len())
}

func TestReportedSource(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	good := `id = "cynthia-table4"
paper = "cynthia"
title = "T4"
source = "Cynthia, Table 4"

[[columns]]
name = "workload"
type = "string"
unit = ""
description = "DNN"

[[columns]]
name = "w_iter"
type = "float64"
unit = "GFLOP/iteration"
description = "work"

[[rows]]
values = ["VGG-19", 58.81]
section = "Table 4"
`
	p := filepath.Join(dir, "t4.toml")
	require.NoError(t, os.WriteFile(p, []byte(good), 0o644))
	tab, err := ReadReported(p)
	require.NoError(t, err)
	require.Equal(t, []float64{58.81}, tab.Floats("w_iter"))
	require.Equal(t, []string{"Table 4"}, tab.Strings("section"))
	require.Equal(t, Reported, tab.Provenance.Origin)

	bad := []struct{ edit, want string }{
		{`values = ["VGG-19", "x"]`, `t4.toml:19: row 0 column "w_iter": value "x" is string`},
		{`values = ["VGG-19"]`, `t4.toml:19: row 0 has 1 values`},
		{`valeus = ["VGG-19", 1.0]`, `t4.toml:19: unknown field "rows.valeus"`},
	}
	for _, c := range bad {
		src := good[:len(good)-len("values = [\"VGG-19\", 58.81]\nsection = \"Table 4\"\n")] + c.edit + "\nsection = \"Table 4\"\n"
		require.NoError(t, os.WriteFile(p, []byte(src), 0o644))
		_, err := ReadReported(p)
		require.ErrorContains(t, err, c.want)
	}
}

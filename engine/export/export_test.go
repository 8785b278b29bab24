package export

import (
	"bytes"
	"encoding/csv"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v17/arrow"
	"github.com/apache/arrow/go/v17/arrow/array"
	"github.com/apache/arrow/go/v17/arrow/memory"
	"github.com/stretchr/testify/require"
)

// files are real datasets of every column type pslab writes: a trace with
// a list<int32> column, a measurement table and a result table.
var files = []string{
	"../../datasets/testbed/alexnet-b512-mux/trace.arrow",
	"../../datasets/testbed/alexnet-b512-mux/throughput.arrow",
	"../../figures/icpe20/fig8.arrow",
}

// TestParquetRoundTrip converts Arrow → Parquet → Arrow and requires the
// same schema (metadata included: units and provenance) and the same
// columns; the Parquet bytes are the same on a second conversion.
func TestParquetRoundTrip(t *testing.T) {
	t.Parallel()
	for _, f := range files {
		t.Run(filepath.Base(filepath.Dir(f))+"/"+filepath.Base(f), func(t *testing.T) {
			t.Parallel()
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			raw, err := os.ReadFile(f)
			require.NoError(t, err)
			want, err := ReadArrow(raw, mem)
			require.NoError(t, err)
			defer want.Release()
			var pq bytes.Buffer
			require.NoError(t, Parquet(&pq, want, mem))
			got, err := ReadParquet(pq.Bytes(), mem)
			require.NoError(t, err)
			defer got.Release()
			require.True(t, want.Schema().Equal(got.Schema()), "schema:\n%v\nvs\n%v", want.Schema(), got.Schema())
			require.Equal(t, want.Schema().Metadata().Keys(), got.Schema().Metadata().Keys())
			require.Equal(t, want.Schema().Metadata().Values(), got.Schema().Metadata().Values())
			require.Equal(t, want.NumRows(), got.NumRows())
			for i := 0; i < int(want.NumCols()); i++ {
				require.True(t, array.ChunkedEqual(want.Column(i).Data(), got.Column(i).Data()), "column %s", want.Schema().Field(i).Name)
			}
			var again bytes.Buffer
			require.NoError(t, Parquet(&again, want, mem))
			require.Equal(t, pq.Bytes(), again.Bytes(), "byte-stable")
		})
	}
}

// TestCSVHeaderUnits checks the name[unit] header and the row count.
func TestCSVHeaderUnits(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "t.csv")
	require.NoError(t, File("csv", files[1], out, memory.DefaultAllocator))
	b, err := os.ReadFile(out)
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	require.Contains(t, lines[0], "throughput[examples/s]")
	raw, err := os.ReadFile(files[1])
	require.NoError(t, err)
	tab, err := ReadArrow(raw, memory.DefaultAllocator)
	require.NoError(t, err)
	defer tab.Release()
	require.Equal(t, int(tab.NumRows())+1, len(lines))
}

// TestBadInput names the file and the format.
func TestBadInput(t *testing.T) {
	t.Parallel()
	_, err := Convert("xlsx", files[0], memory.DefaultAllocator)
	require.ErrorContains(t, err, `format "xlsx"`)
	bad := filepath.Join(t.TempDir(), "bad.arrow")
	require.NoError(t, os.WriteFile(bad, []byte("nope"), 0o644))
	_, err = Convert("csv", bad, memory.DefaultAllocator)
	require.ErrorContains(t, err, "bad.arrow: not an Arrow IPC file")
}

var _ arrow.Table // the package's tables are arrow.Table

// TestCSVReadsBack parses the CSV of a trace (strings with commas, list
// columns) with encoding/csv: every row has every column and the values
// equal the Arrow ones.
func TestCSVReadsBack(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile(files[0])
	require.NoError(t, err)
	tab, err := ReadArrow(raw, memory.DefaultAllocator)
	require.NoError(t, err)
	defer tab.Release()
	var b bytes.Buffer
	require.NoError(t, CSV(&b, tab))
	rows, err := csv.NewReader(&b).ReadAll()
	require.NoError(t, err)
	require.Len(t, rows, int(tab.NumRows())+1)
	for c := 0; c < int(tab.NumCols()); c++ {
		col := tab.Column(c).Data().Chunk(0)
		for r := 0; r < 5; r++ {
			want := col.ValueStr(r)
			if l, ok := col.(*array.List); ok {
				lo, hi := l.ValueOffsets(r)
				var parts []string
				for k := lo; k < hi; k++ {
					parts = append(parts, l.ListValues().ValueStr(int(k)))
				}
				want = "{" + strings.Join(parts, ",") + "}"
			}
			require.Equal(t, want, rows[r+1][c], "column %s row %d", tab.Schema().Field(c).Name, r)
		}
	}
}

package importer

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"pslab/engine/dataset"
)

func TestReadMeasuredHeaderUnits(t *testing.T) {
	t.Parallel()
	in := "workers, ps, throughput[examples/min], throughput_std [images/min], window[MiB], model, sync\n" +
		"1,1,600,60,28,alexnet,ASP\n" +
		"4,2,1800,0,1.5,alexnet,bsp\n"
	tab, err := ReadMeasured(strings.NewReader(in), "dir/m.csv", MeasuredOptions{Batch: 32, Platform: "p3.2xlarge"},
		dataset.Provenance{Origin: dataset.Measured})
	require.NoError(t, err)
	require.Equal(t, 2, tab.Len())
	require.Equal(t, []int64{1, 4}, tab.Ints("workers"))
	require.Equal(t, []int64{1, 2}, tab.Ints("ps"))
	require.Equal(t, []float64{10, 30}, tab.Floats("throughput"), "examples/min ÷ 60")
	require.Equal(t, []float64{1, 0}, tab.Floats("throughput_std"))
	require.Equal(t, []int64{28 << 20, 3 << 19}, tab.Ints("window"), "MiB × 2^20")
	require.Equal(t, []string{"asp", "bsp"}, tab.Strings("sync"))
	require.Equal(t, []int64{32, 32}, tab.Ints("batch"))
	require.Equal(t, []int64{1, 1}, tab.Ints("steps"), "default steps")
	require.Equal(t, []string{"m.csv", "m.csv"}, tab.Strings("source"), "default source is the base name")
	require.Equal(t, []string{"p3.2xlarge", "p3.2xlarge"}, tab.Strings("platform"))
}

func TestReadMeasuredUnitRow(t *testing.T) {
	t.Parallel()
	in := "workers,throughput,batch,window\n" +
		",[images/s],[images],[MB]\n" +
		"2,123.5,64,1.1\n"
	tab, err := ReadMeasured(strings.NewReader(in), "u.csv", MeasuredOptions{Model: "vgg16", Sync: "asp", Steps: 100},
		dataset.Provenance{})
	require.NoError(t, err)
	require.Equal(t, []float64{123.5}, tab.Floats("throughput"))
	require.Equal(t, []int64{64}, tab.Ints("batch"))
	require.Equal(t, []int64{1100000}, tab.Ints("window"), "1.1 MB rounds to whole bytes")
	require.Equal(t, []int64{100}, tab.Ints("steps"))
	require.Equal(t, []string{"vgg16"}, tab.Strings("model"))
}

func TestReadMeasuredRejects(t *testing.T) {
	t.Parallel()
	opt := MeasuredOptions{Model: "m", Batch: 8, Sync: "asp"}
	cases := []struct {
		in   string
		opt  MeasuredOptions
		want string
	}{
		{"", opt, "empty file"},
		{"workers,throughput[examples/s],speed\n", opt, `x.csv:1: unknown column "speed"`},
		{"workers,workers,throughput[examples/s]\n", opt, `duplicate column "workers"`},
		{"throughput[examples/s]\n1\n", opt, `missing required column "workers"`},
		{"workers,throughput\n1,2\n", opt, "column throughput: no unit declared; write throughput[examples/s]"},
		{"workers,throughput[examples/day]\n1,2\n", opt, "unknown unit [examples/day]"},
		{"workers[s],throughput[examples/s]\n1,2\n", opt, "column workers is dimensionless, got unit [s]"},
		{"workers,throughput[examples/s]\n,[images/s]\n1,2\n", opt, "x.csv:2: column throughput: unit row says [images/s], header says [examples/s]"},
		{"workers,throughput[examples/s]\n", opt, "no measurements"},
		{"workers,throughput[examples/s]\n1,2\n0,2\n", opt, "x.csv:3: column workers: 0 is not a whole number ≥ 1"},
		{"workers,throughput[examples/s]\n1.5,2\n", opt, "column workers: 1.5 is not a whole number"},
		{"workers,throughput[examples/s]\n1,-2\n", opt, "x.csv:2: column throughput: -2 is not a finite number ≥ 0"},
		{"workers,throughput[examples/s]\n1,Inf\n", opt, "column throughput: +Inf"},
		{"workers,throughput[examples/s]\n1,fast\n", opt, `column throughput: "fast" is not a number`},
		{"workers,throughput[examples/s]\n1,2,3\n", opt, "x.csv:2: 3 fields, header has 2"},
		{"workers,throughput[examples/s],sync\n1,2,ssp\n", opt, `column sync: "ssp"`},
		{"workers,throughput[examples/s],model\n1,2,\n", opt, "column model: empty"},
		{"workers,throughput[examples/s]\n1,2\n", MeasuredOptions{Batch: 8, Sync: "asp"}, "no model column"},
		{"workers,throughput[examples/s]\n1,2\n", MeasuredOptions{Model: "m", Sync: "asp"}, "no batch column"},
		{"workers,throughput[examples/s]\n1,2\n", MeasuredOptions{Model: "m", Batch: 8}, "no sync column"},
		{"workers,throughput[examples/s\n", opt, "want name[unit]"},
		{"workers,throughput]\n", opt, "unbalanced"},
		{"workers,throughput[examples/s],window[bytes]\n1,2,1.5\n", opt, "column window: 1.5 is not a whole number"},
	}
	for _, c := range cases {
		_, err := ReadMeasured(strings.NewReader(c.in), "x.csv", c.opt, dataset.Provenance{})
		require.ErrorContains(t, err, c.want, "input %q", c.in)
	}
}

func TestUnitRowDetection(t *testing.T) {
	t.Parallel()
	require.True(t, isUnitRow([]string{"", "[s]", " [MiB] "}))
	require.False(t, isUnitRow([]string{"", "", ""}), "all empty is a data row (and fails there)")
	require.False(t, isUnitRow([]string{"1", "[s]"}))
	require.False(t, isUnitRow([]string{"[", "[s]"}))
}

// TestOptionErrorNamesTheOption: a missing or invalid default is an
// *OptionError naming its MeasuredOptions field, so that the CLI can name
// its flag; a negative default is reported as such, not as a missing
// column.
func TestOptionErrorNamesTheOption(t *testing.T) {
	t.Parallel()
	const in = "workers,throughput[examples/s]\n1,2\n"
	cases := []struct {
		opt    MeasuredOptions
		option string
	}{
		{MeasuredOptions{Batch: 8, Sync: "asp"}, "Model"},
		{MeasuredOptions{Model: "m", Sync: "asp"}, "Batch"},
		{MeasuredOptions{Model: "m", Batch: -32, Sync: "asp"}, "Batch"},
		{MeasuredOptions{Model: "m", Batch: 8, Sync: "sometimes"}, "Sync"},
		{MeasuredOptions{Model: "m", Batch: 8, Sync: "asp", Steps: -1}, "Steps"},
		{MeasuredOptions{Model: "m", Batch: 8, Sync: "asp", Window: -1}, "Window"},
	}
	for _, c := range cases {
		_, err := ReadMeasured(strings.NewReader(in), "x.csv", c.opt, dataset.Provenance{})
		var oe *OptionError
		require.ErrorAs(t, err, &oe, "%+v", c.opt)
		require.Equal(t, c.option, oe.Option, "%+v", c.opt)
		require.Equal(t, "x.csv", oe.File)
		require.ErrorContains(t, err, "x.csv: MeasuredOptions."+c.option)
	}
}

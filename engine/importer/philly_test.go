package importer

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"pslab/engine/dataset"
)

const phillyPath = "../../../shared/datasets/philly/philly.csv"

func TestReadPhillySmall(t *testing.T) {
	t.Parallel()
	in := "timestamp,duration,num_gpus,gpu_time,cluster\n" +
		"1970-01-01 00:01:40,66.0,1,66.0,11cb48\n" +
		"2017-10-09 06:13:03,2951.5,4,11806.0,6214e9\n\n"
	tab, err := ReadPhilly(strings.NewReader(in), "p.csv", dataset.Provenance{Source: "s"})
	require.NoError(t, err)
	require.Equal(t, 2, tab.Len())
	// 2017-10-09 06:13:03 UTC = 17448 days × 86400 s + 6 h 13 min 3 s.
	require.Equal(t, []int64{100, 17448*86400 + 6*3600 + 13*60 + 3}, tab.Ints("timestamp"))
	require.Equal(t, []float64{66, 2951.5}, tab.Floats("duration"))
	require.Equal(t, []int64{1, 4}, tab.Ints("num_gpus"))
	require.Equal(t, []float64{66, 11806}, tab.Floats("gpu_time"))
	require.Equal(t, []string{"11cb48", "6214e9"}, tab.Strings("cluster"))
	require.Equal(t, "s", tab.Provenance.Source)
}

func TestReadPhillyRejects(t *testing.T) {
	t.Parallel()
	const head = "timestamp,duration,num_gpus,gpu_time,cluster\n"
	cases := []struct{ in, want string }{
		{"", "p.csv: empty file"},
		{"time,duration,num_gpus,gpu_time,cluster\n", "p.csv:1: header"},
		{head, "no jobs"},
		{head + "2017-10-09 06:13:03,1,1,1\n", "p.csv:2: 4 fields, want 5"},
		{head + "2017-10-09 06:13:03,1,1,1,a\n2017-13-09 06:13:03,1,1,1,a\n", "p.csv:3: column timestamp"},
		{head + "2017-10-09 06:13:03,-1,1,-1,a\n", "p.csv:2: column duration: -1 is not a finite number ≥ 0"},
		{head + "2017-10-09 06:13:03,NaN,1,1,a\n", "column duration: NaN"},
		{head + "2017-10-09 06:13:03,1,0,0,a\n", "column num_gpus"},
		{head + "2017-10-09 06:13:03,1,1.5,1.5,a\n", "column num_gpus"},
		{head + "2017-10-09 06:13:03,10,2,10,a\n", "column gpu_time: 10 GPU·s, but duration × num_gpus = 20"},
		{head + "2017-10-09 06:13:03,1,1,1, \n", "column cluster: empty"},
		{head + "1969-12-31 23:59:59,1,1,1,a\n", "before 1970"},
		{head + "\"2017,1,1,1,a\n", "p.csv:2:"},
	}
	for _, c := range cases {
		_, err := ReadPhilly(strings.NewReader(c.in), "p.csv", dataset.Provenance{})
		require.ErrorContains(t, err, c.want, "input %q", c.in)
	}
}

// TestReadPhillyRealFile checks the shared trace: job count, GPU mix and
// time span (2017-09-04 to 2017-12-22, from a scan of the file).
func TestReadPhillyRealFile(t *testing.T) {
	t.Parallel()
	f, err := os.Open(phillyPath)
	if err != nil {
		t.Skipf("Philly trace not available: %v", err)
	}
	defer f.Close()
	tab, err := ReadPhilly(f, "philly.csv", dataset.Provenance{})
	require.NoError(t, err)
	require.Equal(t, 82247, tab.Len())
	single := 0
	for _, g := range tab.Ints("num_gpus") {
		if g == 1 {
			single++
		}
	}
	require.Equal(t, 76627, single)
	lo, hi := tab.Ints("timestamp")[0], tab.Ints("timestamp")[0]
	for _, ts := range tab.Ints("timestamp") {
		lo, hi = min(lo, ts), max(hi, ts)
	}
	require.Equal(t, int64(1504521041), lo) // 2017-09-04 10:30:41 UTC
	require.Equal(t, int64(1513929731), hi) // 2017-12-22 08:02:11 UTC
}

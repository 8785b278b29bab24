package importer

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"pslab/engine/dataset"
)

const tfBenchPath = "../../../shared/datasets/tf-benchmarks-2017/tf-cnn-benchmarks-single-node.csv"

const tfHead = "platform,gpu,gpus,model,batch_per_gpu,data,variable_update,local_parameter_device,images_per_s\n"

func TestReadTFBenchmarksSmall(t *testing.T) {
	t.Parallel()
	in := tfHead +
		"nvidia-dgx1,P100,1,resnet50,64,synthetic,parameter_server,cpu,219\n\n" +
		"nvidia-dgx1,P100,8,vgg16,64,real,replicated_nccl,n/a,898\n"
	tab, err := ReadTFBenchmarks(strings.NewReader(in), "t.csv", dataset.Provenance{Source: "s"})
	require.NoError(t, err)
	require.NoError(t, tab.Validate())
	require.Equal(t, 2, tab.Len())
	require.Equal(t, []string{"nvidia-dgx1", "nvidia-dgx1"}, tab.Strings("platform"))
	require.Equal(t, []int64{1, 8}, tab.Ints("gpus"))
	require.Equal(t, []int64{64, 64}, tab.Ints("batch_per_gpu"))
	require.Equal(t, []string{"parameter_server", "replicated_nccl"}, tab.Strings("variable_update"))
	require.Equal(t, []string{"cpu", "n/a"}, tab.Strings("local_parameter_device"))
	require.Equal(t, []float64{219, 898}, tab.Floats("throughput"))
	require.Equal(t, "examples/s", TFBenchmarksSchema.Columns[TFBenchmarksSchema.Index("throughput")].Unit)
}

func TestReadTFBenchmarksRejects(t *testing.T) {
	t.Parallel()
	const ok = "d,P100,1,resnet50,64,synthetic,parameter_server,cpu,219\n"
	cases := []struct{ in, want string }{
		{"", "t.csv: empty file"},
		{strings.Replace(tfHead, "images_per_s", "throughput", 1), "t.csv:1: header"},
		{tfHead, "no rows"},
		{tfHead + "d,P100,1,resnet50,64,synthetic,parameter_server,cpu\n", "t.csv:2: 8 fields, want 9"},
		{tfHead + ok + "d,P100,2,resnet50,64,synthetic,parameter_server,cpu,0\n", "t.csv:3: column images_per_s: \"0\" is not a finite throughput > 0"},
		{tfHead + "d,P100,2,resnet50,64,synthetic,parameter_server,cpu,-5\n", "t.csv:2: column images_per_s"},
		{tfHead + "d,P100,2,resnet50,64,synthetic,parameter_server,cpu,NaN\n", "column images_per_s"},
		{tfHead + "d,P100,0,resnet50,64,synthetic,parameter_server,cpu,1\n", "column gpus"},
		{tfHead + "d,P100,1,resnet50,6.5,synthetic,parameter_server,cpu,1\n", "column batch_per_gpu"},
		{tfHead + " ,P100,1,resnet50,64,synthetic,parameter_server,cpu,1\n", "column platform: empty"},
		{tfHead + "d,P100,1,,64,synthetic,parameter_server,cpu,1\n", "column model: empty"},
		{tfHead + "d,P100,1,resnet50,64,imagenet,parameter_server,cpu,1\n", "column data"},
		{tfHead + "d,P100,1,resnet50,64,real,allreduce,cpu,1\n", "column variable_update"},
		{tfHead + "d,P100,1,resnet50,64,real,parameter_server,n/a,1\n", "column local_parameter_device"},
		{tfHead + "d,P100,1,resnet50,64,real,replicated_nccl,cpu,1\n", "column local_parameter_device"},
		{tfHead + ok + ok, "t.csv:3: the configuration of line 2 again"},
		{tfHead + "\"d,P100\n", "t.csv:"},
	}
	for _, c := range cases {
		_, err := ReadTFBenchmarks(strings.NewReader(c.in), "t.csv", dataset.Provenance{})
		require.ErrorContains(t, err, c.want, "input %q", c.in)
	}
}

// TestReadTFBenchmarksRealFile checks the shared table: 127 rows, 104 of
// them parameter_server with the variables on the host CPU, every
// platform's 1-GPU rows present.
func TestReadTFBenchmarksRealFile(t *testing.T) {
	t.Parallel()
	f, err := os.Open(tfBenchPath)
	if err != nil {
		t.Skipf("TensorFlow benchmark table not available: %v", err)
	}
	defer f.Close()
	tab, err := ReadTFBenchmarks(f, "tf-cnn-benchmarks-single-node.csv", dataset.Provenance{})
	require.NoError(t, err)
	require.Equal(t, 127, tab.Len())
	ps, cpu := 0, 0
	for i, u := range tab.Strings("variable_update") {
		if u == "parameter_server" {
			ps++
			if tab.Strings("local_parameter_device")[i] == "cpu" {
				cpu++
			}
		}
	}
	require.Equal(t, 104, ps)
	require.Equal(t, 104, cpu)
}

// FuzzReadTFBenchmarks: no input panics, and an accepted input gives a
// valid, non-empty table. Seeds: testdata/fuzz/FuzzReadTFBenchmarks.
func FuzzReadTFBenchmarks(f *testing.F) {
	f.Add([]byte(tfHead + "nvidia-dgx1,P100,1,resnet50,64,synthetic,parameter_server,cpu,219\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 32<<10 {
			return // bounded work per input
		}
		tab, err := ReadTFBenchmarks(bytes.NewReader(data), "fuzz.csv", dataset.Provenance{})
		if err != nil {
			return
		}
		if tab.Len() == 0 {
			t.Fatal("accepted an input without rows")
		}
		if err := tab.Validate(); err != nil {
			t.Fatalf("accepted an invalid table: %v", err)
		}
	})
}

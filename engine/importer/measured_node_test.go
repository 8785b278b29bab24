package importer

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"pslab/engine/dataset"
)

func TestReadMeasuredNodeColumns(t *testing.T) {
	t.Parallel()
	prov := dataset.Provenance{Origin: dataset.Measured}
	opt := MeasuredOptions{Model: "resnet50", Sync: "bsp"}

	// batch_per_gpu × gpus_per_node is the schema's per-node batch, and G
	// is recorded.
	in := "workers,batch_per_gpu,gpus_per_node,throughput[images/s]\n1,64,8,2000\n2,64,8,3900\n"
	tab, err := ReadMeasured(strings.NewReader(in), "g.csv", opt, prov)
	require.NoError(t, err)
	require.Equal(t, []int64{512, 512}, tab.Ints("batch"))
	require.Equal(t, "8", tab.Provenance.Extra[ExtraGPUsPerNode])

	// batch_per_gpu with G from the options; ps and colocation defaults.
	o := opt
	o.GPUsPerNode, o.Servers = 4, 4
	tab, err = ReadMeasured(strings.NewReader("workers,batch_per_gpu,throughput[images/s]\n2,32,100\n"), "o.csv", o, prov)
	require.NoError(t, err)
	require.Equal(t, []int64{128}, tab.Ints("batch"))
	require.Equal(t, []int64{4}, tab.Ints("ps"), "no ps column: MeasuredOptions.Servers")
	require.Equal(t, "4", tab.Provenance.Extra[ExtraGPUsPerNode])
	o = opt
	o.Batch, o.Colocated = 64, true
	tab, err = ReadMeasured(strings.NewReader("workers,throughput[images/s]\n3,100\n5,150\n"), "c.csv", o, prov)
	require.NoError(t, err)
	require.Equal(t, []int64{3, 5}, tab.Ints("ps"), "colocated: one PS per node")
	require.Equal(t, "true", tab.Provenance.Extra[ExtraColocated])
	require.NotContains(t, tab.Provenance.Extra, ExtraGPUsPerNode, "G not stated")

	// batch_per_node is the schema's batch; old files (batch) unchanged.
	tab, err = ReadMeasured(strings.NewReader("workers,batch_per_node,throughput[images/s]\n1,256,10\n"), "n.csv", opt, prov)
	require.NoError(t, err)
	require.Equal(t, []int64{256}, tab.Ints("batch"))
	require.Empty(t, tab.Provenance.Extra)

	for _, c := range []struct{ in, want string }{
		{"workers,batch,batch_per_gpu,throughput[images/s]\n1,2,3,4\n", `columns "batch" and "batch_per_gpu" both give the batch`},
		{"workers,batch_per_gpu,throughput[images/s]\n1,2,4\n", "no gpus_per_node column and no default GPUs per node"},
		{"workers,batch_per_gpu,gpus_per_node,throughput[images/s]\n1,2,0,4\n", "column gpus_per_node: 0, want ≥ 1"},
		{"workers,batch_per_gpu,gpus_per_node,throughput[images/s]\n1,2,8,4\n2,2,4,4\n", "g.csv:3: column gpus_per_node: 4, an earlier row has 8; one node size per file"},
		{"workers,batch_per_gpu[images],gpus_per_node[GPUs],throughput[images/s]\n1,2,8,4\n", "column gpus_per_node is dimensionless"},
	} {
		_, err := ReadMeasured(strings.NewReader(c.in), "g.csv", opt, prov)
		require.ErrorContains(t, err, c.want, c.in)
	}
}

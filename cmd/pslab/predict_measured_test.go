package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestPredictMeasuredBSP4PS: -measured for a BSP cluster of 4 PSs and
// nodes of 2 GPUs, from a CSV (missing columns take the prediction's
// values) and from a dataset imported with the same cluster flags.
func TestPredictMeasuredBSP4PS(t *testing.T) {
	t.Parallel()
	dir, profile, _, _ := toyInputs(t)
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(body), 0o644))
		return p
	}
	cluster := []string{"-sync", "bsp", "-ps", "4", "-gpus-per-node", "2", "-batch", "16", "-models", "simulator,cynthia"}
	args := func(meas string, extra ...string) []string {
		a := append([]string{profile, "-bandwidth", "1Gbps", "-measured", meas}, fast...)
		return append(append(a, cluster...), extra...)
	}
	// No ps, sync or batch column: the prediction's 4 PS, bsp, 2 × 16.
	bare := write("bare.csv", "workers,throughput[examples/s]\n1,50\n2,90\n")
	bareText, err := runPredict(t, args(bare)...)
	require.NoError(t, err)
	require.Contains(t, bareText, "relative error (predicted − measured)/measured at 1 Gbit/s, %")

	// Every column stated, the batch per GPU with the node's GPUs.
	full := write("full.csv", "workers,ps,sync,batch_per_gpu,gpus_per_node,throughput[examples/s]\n1,4,bsp,16,2,50\n2,4,bsp,16,2,90\n3,4,bsp,16,2,120\n")
	text, err := runPredict(t, args(full)...)
	require.NoError(t, err)
	require.Contains(t, text, "mean |error|")
	// The same file is no measurement of an asp cluster, nor of 2 PSs.
	_, err = runPredict(t, args(full, "-sync", "asp")...)
	require.ErrorContains(t, err, "-measured "+full+": no row measures the prediction's cluster")
	require.ErrorContains(t, err, `asp, batch 32 per node (16 per GPU × 2 GPUs), 4 PS`)
	require.ErrorContains(t, err, "toy-fig5 bsp batch 32 4 PS")
	_, err = runPredict(t, args(full, "-ps", "2")...)
	require.ErrorContains(t, err, "bsp, batch 32 per node (16 per GPU × 2 GPUs), 2 PS")
	// A per-GPU batch of nodes of 4 GPUs is another cluster.
	four := write("four.csv", "workers,batch_per_gpu,gpus_per_node,throughput[examples/s]\n1,16,4,50\n")
	_, err = runPredict(t, args(four)...)
	require.ErrorContains(t, err, "-measured "+four+": the rows were measured on nodes of 4 GPUs (cluster.gpus_per_node), the prediction has 2 GPUs per node")

	// import measured-csv takes predict's cluster flags; the dataset
	// matches the same prediction and names its G.
	arrowIn := filepath.Join(dir, "bare.arrow")
	msg, err := runImport(t, "measured-csv", bare, "-o", arrowIn, "-model", "toy-fig5", "-sync", "bsp", "-ps", "4", "-gpus-per-node", "2", "-batch", "16")
	require.NoError(t, err, msg)
	text2, err := runPredict(t, args(arrowIn)...)
	require.NoError(t, err)
	require.Equal(t, bareText[len(bareText)-200:], text2[len(text2)-200:])
	_, err = runPredict(t, args(arrowIn, "-gpus-per-node", "4", "-batch", "8")...)
	require.ErrorContains(t, err, "nodes of 2 GPUs (cluster.gpus_per_node), the prediction has 4 GPUs per node")
	_, err = runImport(t, "measured-csv", bare, "-o", arrowIn, "-model", "toy-fig5", "-sync", "bsp", "-colocate", "-ps", "2", "-batch", "16")
	require.ErrorContains(t, err, "-colocate puts one PS on every node")
}

package predict

import (
	"testing"

	"github.com/stretchr/testify/require"

	"pslab/engine/dataset"
	"pslab/engine/importer"
	"pslab/engine/sim"
)

// measTable is a measurement table with rows of two models.
func measTable(t *testing.T, rows ...[]any) *dataset.Table {
	t.Helper()
	tab := dataset.NewTable(dataset.MeasurementSchema, dataset.Provenance{Origin: dataset.Measured})
	for _, r := range rows {
		require.NoError(t, tab.Append(r...))
	}
	return tab
}

// row is source, platform, model, batch, workers, ps, sync, transport,
// order, throughput, std, steps, window.
func row(model string, batch, workers, ps int, sync, transport, order string, x, std float64) []any {
	return []any{"s", "p", model, batch, workers, ps, sync, transport, order, x, std, 1, 0}
}

func TestSelectMeasured(t *testing.T) {
	t.Parallel()
	tab := measTable(t,
		row("a", 32, 2, 1, "asp", "multiplexed", "default", 200, 5),
		row("a", 32, 1, 1, "asp", "", "", 100, 1), // empty transport and order match any
		row("a", 32, 4, 1, "bsp", "multiplexed", "default", 300, 0),
		row("a", 64, 4, 1, "asp", "multiplexed", "default", 300, 0),
		row("a", 32, 4, 2, "asp", "multiplexed", "default", 300, 0),
		row("a", 32, 4, 1, "asp", "ordered", "default", 300, 0),
		row("a", 32, 4, 1, "asp", "multiplexed", "tic", 300, 0),
		row("b", 32, 3, 1, "asp", "multiplexed", "default", 250, 0),
	)
	q := Query{Model: "a", Batch: 32, Servers: 1, Transport: "multiplexed", Order: "default"}
	ms, err := SelectMeasured(tab, q)
	require.NoError(t, err)
	require.Equal(t, []Measurement{{1, 100, 1}, {2, 200, 5}}, ms)

	q.Model, q.Prefer = "", "b"
	ms, err = SelectMeasured(tab, q)
	require.NoError(t, err)
	require.Equal(t, []Measurement{{3, 250, 0}}, ms)
	q.Prefer = "c"
	_, err = SelectMeasured(tab, q)
	require.ErrorContains(t, err, "several models [a b]")
	q.Model = "c"
	_, err = SelectMeasured(tab, q)
	require.ErrorContains(t, err, `no row measures the prediction's cluster (model "c", asp, batch 32 per node, 1 PS`)
	require.ErrorContains(t, err, "a asp batch 32 1 PS multiplexed/default")

	dup := measTable(t, row("a", 32, 2, 1, "asp", "", "", 1, 0), row("a", 32, 2, 1, "asp", "", "", 2, 0))
	_, err = SelectMeasured(dup, Query{Batch: 32, Servers: 1})
	require.ErrorContains(t, err, "two rows for a with 2 workers")
	zero := measTable(t, row("a", 32, 2, 1, "asp", "", "", 0, 0))
	_, err = SelectMeasured(zero, Query{Batch: 32, Servers: 1})
	require.ErrorContains(t, err, "throughput 0 examples/s")
}

func TestErrorsHandComputed(t *testing.T) {
	t.Parallel()
	p := &Prediction{Workers: []int{1, 2, 4}, Curves: []Curve{
		{Model: Simulator, Throughput: []float64{110, 180, 400}},
		{Model: Cynthia, Throughput: []float64{100, 200, 300}},
	}}
	errs, missing := p.Errors([]Measurement{{Workers: 1, Throughput: 100}, {Workers: 2, Throughput: 200}, {Workers: 3, Throughput: 1}})
	require.Equal(t, []int{3}, missing)
	require.Len(t, errs, 2)
	require.Equal(t, []int{1, 2}, errs[0].Workers)
	require.InDeltaSlice(t, []float64{0.1, -0.1}, errs[0].Rel, 1e-12)
	require.InDelta(t, 0.1, errs[0].MeanAbs, 1e-12)
	require.InDelta(t, 0.1, errs[0].MaxAbs, 1e-12)
	require.Equal(t, []float64{0, 0}, errs[1].Rel)
	none, missing := p.Errors([]Measurement{{Workers: 8, Throughput: 1}})
	require.Empty(t, none)
	require.Equal(t, []int{8}, missing)
}

func TestTransportAndOrderNames(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"multiplexed", "ordered"} {
		m, err := ParseTransport(name)
		require.NoError(t, err)
		require.Equal(t, name, TransportName(m))
	}
	for _, name := range []string{"default", "tic", "reverse", "random"} {
		o, err := ParseOrder(name)
		require.NoError(t, err)
		require.Equal(t, name, OrderName(o))
	}
	m, err := ParseTransport("whole")
	require.NoError(t, err)
	require.Equal(t, sim.WholeStream, m)
	o, err := ParseOrder("reverse-tic")
	require.NoError(t, err)
	require.Equal(t, sim.ReverseTIC, o)
	_, err = ParseTransport("udp")
	require.ErrorContains(t, err, `transport "udp"`)
	_, err = ParseOrder("lifo")
	require.ErrorContains(t, err, `order "lifo"`)
}

// TestSelectMeasuredBSP4PS: a BSP measurement of 4 PSs is selected under
// sync bsp and 4 PS, never under asp or another PS count; nodes of G GPUs
// and colocated PSs are matched as the provenance states them.
func TestSelectMeasuredBSP4PS(t *testing.T) {
	t.Parallel()
	tab := measTable(t,
		row("r", 512, 2, 4, "bsp", "", "", 3000, 10),
		row("r", 512, 4, 4, "bsp", "", "", 5600, 20),
		row("r", 512, 4, 1, "asp", "", "", 2000, 0),
	)
	q := Query{Sync: "bsp", Batch: 512, GPUs: 8, Servers: 4, Transport: "multiplexed", Order: "default"}
	ms, err := SelectMeasured(tab, q)
	require.NoError(t, err)
	require.Equal(t, []Measurement{{2, 3000, 10}, {4, 5600, 20}}, ms)

	q.Sync = "asp"
	_, err = SelectMeasured(tab, q)
	require.ErrorContains(t, err, `(model "", asp, batch 512 per node (64 per GPU × 8 GPUs), 4 PS, transport multiplexed, order default)`)
	require.ErrorContains(t, err, "r bsp batch 512 4 PS /")
	q.Sync, q.Servers = "bsp", 2
	_, err = SelectMeasured(tab, q)
	require.ErrorContains(t, err, "bsp, batch 512 per node (64 per GPU × 8 GPUs), 2 PS")

	tab.Provenance.Extra = map[string]string{extraGPUs: "4"}
	q.Servers = 4
	_, err = SelectMeasured(tab, q)
	require.ErrorContains(t, err, "measured on nodes of 4 GPUs (cluster.gpus_per_node), the prediction has 8 GPUs per node")
	tab.Provenance.Extra = map[string]string{extraGPUs: "8"}
	_, err = SelectMeasured(tab, q)
	require.NoError(t, err)
	tab.Provenance.Extra = map[string]string{extraGPUs: "x"}
	_, err = SelectMeasured(tab, q)
	require.ErrorContains(t, err, `cluster.gpus_per_node = "x"`)

	col := measTable(t, row("r", 64, 3, 3, "asp", "", "", 300, 0), row("r", 64, 5, 5, "asp", "", "", 450, 0), row("r", 64, 6, 1, "asp", "", "", 9, 0))
	col.Provenance.Extra = map[string]string{extraColocated: "true"}
	ms, err = SelectMeasured(col, Query{Batch: 64, Colocated: true})
	require.NoError(t, err)
	require.Equal(t, []Measurement{{3, 300, 0}, {5, 450, 0}}, ms, "colocated: ps = workers")
	_, err = SelectMeasured(col, Query{Batch: 64, Servers: 1})
	require.ErrorContains(t, err, "measured with one PS shard on every node (cluster.ps_colocated), the prediction has separate PS nodes")
}

// TestClusterKeysAreTheImporters: the provenance keys SelectMeasured reads
// are those engine/importer writes.
func TestClusterKeysAreTheImporters(t *testing.T) {
	t.Parallel()
	require.Equal(t, importer.ExtraGPUsPerNode, extraGPUs)
	require.Equal(t, importer.ExtraColocated, extraColocated)
}

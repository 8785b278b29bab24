package importer

import (
	"fmt"
	"strconv"
)

// The measured CSV's node columns: not MeasurementSchema columns, but the
// names under which a CSV states what its schema column batch (examples
// per step of one worker, i.e. of one node) is made of.
const (
	// ColBatchPerNode is the examples per step of one worker node, all
	// its GPUs together: the schema's batch under an unambiguous name.
	ColBatchPerNode = "batch_per_node"
	// ColBatchPerGPU is the examples per step of one GPU (pslab
	// predict's -batch); the node's batch is it × gpus_per_node.
	ColBatchPerGPU = "batch_per_gpu"
	// ColGPUsPerNode is the GPUs G of one worker node (pslab predict's
	// -gpus-per-node), ≥ 1.
	ColGPUsPerNode = "gpus_per_node"
)

// The provenance keys (dataset.Provenance.Extra) under which a measurement
// dataset records the facts about its cluster that the schema has no
// column for. A key that is absent means "not stated": the file then
// matches any prediction in that respect.
const (
	// ExtraGPUsPerNode is G, the GPUs per worker node of every row, as a
	// decimal integer.
	ExtraGPUsPerNode = "cluster.gpus_per_node"
	// ExtraColocated is "true" when every worker node holds one PS shard
	// (pslab predict -colocate; the ps column is then the worker count).
	ExtraColocated = "cluster.ps_colocated"
)

// nodeColumns are the CSV columns that are not schema columns.
var nodeColumns = map[string]bool{ColBatchPerNode: true, ColBatchPerGPU: true, ColGPUsPerNode: true}

// batchColumns are the columns that give the node's batch; a file names
// at most one.
var batchColumns = []string{"batch", ColBatchPerNode, ColBatchPerGPU}

// checkBatchColumns rejects a header naming the node's batch twice, and a
// per-GPU batch without a GPU count (a gpus_per_node column or
// MeasuredOptions.GPUsPerNode).
func checkBatchColumns(seen map[string]bool, opt MeasuredOptions, name string) error {
	var named []string
	for _, c := range batchColumns {
		if seen[c] {
			named = append(named, c)
		}
	}
	if len(named) > 1 {
		return fmt.Errorf("%s:1: columns %q and %q both give the batch; keep one (batch and batch_per_node are examples per node step, batch_per_gpu per GPU)", name, named[0], named[1])
	}
	if seen[ColBatchPerGPU] && !seen[ColGPUsPerNode] && opt.GPUsPerNode < 1 {
		return &OptionError{File: name, Option: "GPUsPerNode", Problem: "column batch_per_gpu but no gpus_per_node column and no default GPUs per node (≥ 1)"}
	}
	return nil
}

// nodeBatch returns the examples per node step of a record: its batch or
// batch_per_node column, batch_per_gpu × G, or the default opt.Batch; and
// G (0 when neither a column nor opt states it).
func (b *measuredBuilder) nodeBatch(count func(col string, def, min int64) (int64, error)) (batch, gpus int64, err error) {
	if gpus, err = count(ColGPUsPerNode, int64(b.opt.GPUsPerNode), 0); err != nil {
		return 0, 0, err
	}
	if _, ok := b.at[ColGPUsPerNode]; ok && gpus < 1 {
		return 0, 0, fmt.Errorf("column %s: %d, want ≥ 1", ColGPUsPerNode, gpus)
	}
	if _, ok := b.at[ColBatchPerGPU]; ok {
		perGPU, err := count(ColBatchPerGPU, 0, 1)
		if err != nil {
			return 0, 0, err
		}
		return perGPU * gpus, gpus, nil
	}
	col := "batch"
	if _, ok := b.at[ColBatchPerNode]; ok {
		col = ColBatchPerNode
	}
	batch, err = count(col, int64(b.opt.Batch), 1)
	return batch, gpus, err
}

// noteGPUs records the G of one row: every row of a file must have the
// same (one node size per file, since the schema's batch is per node).
func (b *measuredBuilder) noteGPUs(g int64) error {
	if g == 0 {
		return nil
	}
	if b.gpus != 0 && b.gpus != g {
		return fmt.Errorf("column %s: %d, an earlier row has %d; one node size per file (split the file)", ColGPUsPerNode, g, b.gpus)
	}
	b.gpus = g
	return nil
}

// clusterExtra returns the provenance facts of the cluster the rows
// describe (ExtraGPUsPerNode, ExtraColocated), merged into extra.
func (b *measuredBuilder) clusterExtra(extra map[string]string) map[string]string {
	if b.gpus == 0 && !b.opt.Colocated {
		return extra
	}
	out := map[string]string{}
	for k, v := range extra {
		out[k] = v
	}
	if b.gpus != 0 {
		out[ExtraGPUsPerNode] = strconv.FormatInt(b.gpus, 10)
	}
	if b.opt.Colocated {
		out[ExtraColocated] = "true"
	}
	return out
}

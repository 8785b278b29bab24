package main

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"pslab/engine/dataset"
	"pslab/engine/importer"
	"pslab/engine/predict"
)

// measurement holds -measured's rows and the models' errors against them.
type measurement struct {
	rows    []predict.Measurement
	errs    []predict.ModelError
	missing []int
}

// compare reads -measured and computes the errors.
func (f *predictFlags) compare(in *predictInput, runs []*predict.Prediction) error {
	if f.measured == "" {
		return nil
	}
	if len(runs) != 1 {
		return usagef("predict: -measured %s: give one -bandwidth (measurements record no bandwidth to match)", f.measured)
	}
	p := runs[0]
	mode, _ := predict.ParseTransport(f.transport)
	order, _ := predict.ParseOrder(f.order)
	q := predict.Query{Model: f.measuredModel, Prefer: in.model, Sync: p.Sync.String(), Batch: p.Batch, GPUs: p.GPUs,
		Servers: p.Servers, Colocated: p.Colocated, Transport: predict.TransportName(mode), Order: predict.OrderName(order)}
	var t *dataset.Table
	var err error
	switch {
	case strings.HasSuffix(f.measured, ".arrow"):
		t, err = dataset.Read(f.measured, dataset.MeasurementSchema, dataset.Allocator)
	case strings.HasSuffix(f.measured, ".csv"):
		t, err = readMeasuredCSV(f.measured, q)
	default:
		err = errors.New("want an .arrow measurement dataset or a .csv")
	}
	if err == nil {
		f.meas = &measurement{}
		f.meas.rows, err = predict.SelectMeasured(t, q)
	}
	if err != nil {
		return fmt.Errorf("predict: -measured %s: %w", f.measured, err)
	}
	f.meas.errs, f.meas.missing = p.Errors(f.meas.rows)
	return nil
}

// readMeasuredCSV imports a measured CSV; columns it lacks take the
// prediction's values (q): model, sync, batch per node, GPUs per node (for
// a batch_per_gpu column), PS count (with -colocate: the worker count),
// transport and order.
func readMeasuredCSV(path string, q predict.Query) (*dataset.Table, error) {
	r, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	model := q.Model
	if model == "" {
		model = q.Prefer
	}
	opt := importer.MeasuredOptions{Model: model, Batch: q.Batch, Sync: q.Sync, Servers: q.Servers, GPUsPerNode: max(q.GPUs, 1),
		Colocated: q.Colocated, Transport: q.Transport, Order: q.Order}
	return importer.ReadMeasured(r, path, opt, dataset.Provenance{Origin: dataset.Measured})
}
